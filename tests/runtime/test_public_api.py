"""`dir(runtime)` is TensorFlow's public names plus the documented extras
(`visualize`; `check_equivalence` lives under `debugging`): no engine module
(`codegen`, `executor`, `op_registry`, `_src`, ...)."""

import runtime as tf

PUBLIC = [
    "Assert", "ConcreteFunction", "DType", "Function", "GradientTape", "Module", "Tensor",
    "TensorArray", "TensorShape", "TensorSpec", "UnconnectedGradients", "Variable", "abs",
    "acos", "acosh", "add", "add_n", "argmax", "argmin", "argsort", "as_dtype", "asin",
    "asinh", "assert_equal", "assert_greater", "assert_less", "assert_rank", "atan",
    "atan2", "atanh", "audio", "autograph", "bitcast", "bitwise", "bool", "boolean_mask",
    "broadcast_dynamic_shape", "broadcast_static_shape", "broadcast_to", "case", "cast",
    "clip_by_global_norm", "clip_by_norm", "clip_by_value", "complex", "complex128",
    "complex64", "concat", "cond", "config", "constant", "convert_to_tensor", "cos", "cosh",
    "cumsum", "custom_gradient", "data", "debugging", "divide", "dtypes", "einsum", "equal",
    "errors", "executing_eagerly", "exp", "expand_dims", "eye", "fill", "float16", "float32",
    "float64", "floor", "floordiv", "foldl", "foldr", "function", "gather", "gather_nd",
    "grad_pass_through", "gradients", "greater", "greater_equal", "identity", "init_scope",
    "inside_function", "int16", "int32", "int64", "int8", "is_tensor", "keras", "less",
    "less_equal", "linalg", "linspace", "logical_and", "logical_not", "logical_or", "map_fn",
    "math", "matmul", "maximum", "meshgrid", "minimum", "multiply", "name_scope", "negative",
    "nest", "newaxis", "nn", "norm", "not_equal", "numpy_function", "one_hot", "ones",
    "ones_like", "pad", "pow", "print", "py_function", "queue", "random", "range", "rank",
    "recompute_grad", "reduce_all", "reduce_any", "reduce_logsumexp", "reduce_max",
    "reduce_mean", "reduce_min", "reduce_prod", "reduce_sum", "repeat", "reshape", "reverse",
    "roll", "round", "saved_model", "scalar_mul", "scan", "scatter_nd", "searchsorted", "sequence_mask",
    "shape", "sigmoid", "sign", "sin", "sinh", "size", "slice", "sort", "split", "sqrt",
    "square", "squeeze", "stack", "stop_gradient", "strided_slice", "string", "strings",
    "subtract", "summary", "switch_case", "tan", "tanh", "tensor_scatter_nd_add",
    "tensor_scatter_nd_max", "tensor_scatter_nd_min", "tensor_scatter_nd_sub",
    "tensor_scatter_nd_update", "tensordot", "test", "tile", "train", "transpose", "truediv",
    "truncatediv", "truncatemod", "types", "uint16", "uint32", "uint64", "uint8",
    "unique", "unique_with_counts", "unstack", "vectorized_map", "visualize", "where",
    "while_loop", "zeros", "zeros_like",
]
# Issue 26, sections 3-5 (devices, strings and ragged tensors, everyday names).
PUBLIC = sorted(PUBLIC + [
    "IndexedSlices", "TensorArraySpec", "control_dependencies", "device", "ensure_shape",
    "experimental", "get_logger", "get_static_value", "identity_n", "image", "io",
    "type_spec_from_value", "ragged", "RaggedTensor", "RaggedTensorSpec",
])
# Everyday names found missing later (image code, timing, histograms).
PUBLIC = sorted(PUBLIC + ["histogram_fixed_width", "histogram_fixed_width_bins",
                          "saturate_cast", "timestamp", "dynamic_partition",
                          "dynamic_stitch"])
# Issue 32: tf.lookup.
PUBLIC = sorted(PUBLIC + ["lookup"])


def test_dir_runtime_is_the_public_list():
    assert [n for n in dir(tf) if not n.startswith("__")] == PUBLIC


def test_every_listed_name_resolves():
    for name in PUBLIC:
        assert getattr(tf, name) is not None or name == "newaxis", name
    assert tf.newaxis is None


def test_documented_extras_are_reachable():
    assert callable(tf.debugging.check_equivalence)
    assert issubclass(tf.debugging.EquivalenceError, AssertionError)
    assert callable(tf.config.experimental_check_equivalence)
    assert callable(tf.visualize)
    assert tf.linalg.matmul is tf.matmul
    assert tf.linalg.einsum is tf.einsum and tf.linalg.tensordot is tf.tensordot
    assert callable(tf.saved_model.save) and callable(tf.saved_model.load)


def test_namespaces_hide_engine_modules():
    for module in (tf.math, tf.nn, tf.debugging, tf.config, tf.saved_model, tf.nest, tf.strings,
                   tf.lookup):
        leaked = {"ops", "graph", "tensor", "executor", "codegen", "op_registry", "_src"}
        assert not leaked & set(dir(module)), module.__name__
