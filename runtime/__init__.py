"""A numpy-backed tensor engine with TensorFlow's public names.

`import runtime as tf` runs code written for `tf.function`: tensors, ops,
tracing into graphs, polymorphic functions and a graph executor.

This package is the public API only: the names below and the TensorFlow-named
namespaces next to this file (`math`, `nn`, `linalg`, `bitwise`, `random`,
`debugging`, `config`, `dtypes`, `errors`, `nest`, `saved_model`, `strings`,
`keras`, `autograph`), each re-exporting. The engine is `runtime._src`, one package
per layer (docs/architecture.md).
"""

import sys as _sys

from runtime._src import ops as _ops  # registers every op, fills tensor dispatch
from runtime._src.core.dtypes import (DType, bfloat16, bool, complex64, complex128,
                                      float16, float32, float64, int8, int16, int32, int64,
                                      string, uint8, uint16, uint32, uint64)
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.ops.complex_ops import complex  # tf.complex
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.core.type_spec import TypeSpec
from runtime._src.ops.math_ops import (abs, acos, acosh, add, add_n, asin, asinh,
                                       atan, atan2, atanh, cast, clip_by_value, cos, cosh,
                                       divide, equal, exp, floor, floordiv, greater,
                                       greater_equal, identity, less, less_equal, logical_and,
                                       logical_not, logical_or, matmul, maximum, minimum,
                                       multiply, negative, not_equal, pow, round, sign, sin,
                                       sinh, sqrt, square, subtract, tan, tanh, truediv)
from runtime._src.ops.nn_ops import sigmoid
from runtime._src.ops.reduction_ops import (argmax, argmin, cumsum, norm, reduce_all, reduce_any,
                                            reduce_logsumexp, reduce_max, reduce_mean,
                                            reduce_min, reduce_prod, reduce_sum)
from runtime._src.ops.array_ops import (concat, constant, expand_dims, eye, fill,
                                        gather, one_hot, ones, ones_like, range, rank,
                                        reshape, shape, size, squeeze, stack,
                                        transpose, unstack, zeros, zeros_like)
from runtime._src.ops.tile_ops import tile
from runtime._src.ops.indexing import strided_slice
from runtime._src.ops.meshgrid_ops import linspace, meshgrid, sequence_mask
from runtime._src.ops.shape_ops import (broadcast_dynamic_shape, broadcast_static_shape,
                                        broadcast_to, pad, repeat, reverse, roll, slice, split)
from runtime._src.ops.scatter_ops import (boolean_mask, gather_nd, scatter_nd,
                                          tensor_scatter_nd_add, tensor_scatter_nd_max,
                                          tensor_scatter_nd_min, tensor_scatter_nd_sub,
                                          tensor_scatter_nd_update, where)
from runtime._src.graph.tensor_util import make_ndarray, make_tensor_proto
from runtime._src.ops.image_crops import extract_volume_patches
from runtime._src.function.variable_creator import variable_creator_scope
from runtime._src.ops.math_more_ops import approx_top_k
from runtime._src.ops.sort_ops import argsort, searchsorted, sort, unique, unique_with_counts
from runtime._src.ops.einsum_ops import einsum, tensordot
from runtime._src.ops.dtype_ops import as_dtype, bitcast
from runtime._src.ops.clip_ops import clip_by_global_norm, clip_by_norm
from runtime._src.ops.math_ops import truncatediv, truncatemod
from runtime._src.ops.logging_ops import print_v2 as print  # tf.print
from runtime._src.ops.check_ops import (Assert, assert_equal, assert_greater, assert_less,
                                        assert_rank, is_tensor)
from runtime._src.ops.script_ops import py_function, numpy_function
from runtime._src.core.context import executing_eagerly, init_scope, inside_function, name_scope
from runtime._src.graph.visualize import visualize
from runtime._src.function.control_flow import cond, while_loop
from runtime._src.function.tensor_array import TensorArray
from runtime._src.function.higher_order import (case, foldl, foldr, map_fn, scan, switch_case,
                                                vectorized_map)
from runtime._src.function.variables import Variable
from runtime._src.function.module import Module
from runtime._src.function.function import function, Function, ConcreteFunction
from runtime._src.ops.gradient_ops import stop_gradient
from runtime._src.autodiff.tape import GradientTape, UnconnectedGradients, gradients
from runtime._src.autodiff.custom_gradient import custom_gradient
from runtime._src.autodiff.register_gradient import RegisterGradient, no_gradient
from runtime._src.autodiff.recompute import grad_pass_through, recompute_grad
from runtime._src.ops.misc_ops import (control_dependencies, ensure_shape, get_static_value,
                                       histogram_fixed_width, histogram_fixed_width_bins,
                                       identity_n, timestamp)
from runtime._src.ops.image_color import saturate_cast
from runtime._src.ops.partition_ops import dynamic_partition, dynamic_stitch
from runtime._src.core.devices import device
from runtime._src.core.tf_logging import get_logger
from runtime._src.function.indexed_slices import IndexedSlices, IndexedSlicesSpec
from runtime._src.function.type_specs import NoneTensorSpec, TensorArraySpec, type_spec_from_value
from runtime._src.function.variable_sync import VariableAggregation, VariableSynchronization
from runtime._src.autodiff.tape import AggregationMethod, hessians
from runtime._src.autodiff.conv_backprop import (conv2d_backprop_filter_v2,
                                                 conv2d_backprop_input_v2)
from runtime._src.core.context import get_current_name_scope
from runtime._src.core.device_spec import DeviceSpec
from runtime._src.core.tensor import is_symbolic_tensor
from runtime._src.ops.init_ops import (constant_initializer, ones_initializer,
                                       random_normal_initializer, random_uniform_initializer,
                                       zeros_initializer)
from runtime._src.ops.math_ops import realdiv, scalar_mul
from runtime._src.ops.misc_ops import group, guarantee_const, no_op
from runtime._src.ops.misc_ops import tuple_ as tuple  # noqa: A004 - TensorFlow's name
from runtime._src.ops.sequence_ops import (parallel_stack, reverse_sequence, shape_n,
                                           unravel_index)
from runtime._src.ops.space_ops import (batch_to_space, required_space_to_batch_paddings,
                                        space_to_batch, space_to_batch_nd)
from runtime._src.ops.text_ops import as_string, fingerprint
from runtime._src.ops.conv_general_ops import conv
from runtime._src.core.tensor_conversion import register_tensor_conversion_function
from runtime._src.ops.critical_section import CriticalSection
from runtime._src.sparse.sparse_more import ragged_fill_empty_rows, ragged_fill_empty_rows_grad
from runtime._src.core.dtypes import float16 as half, float64 as double, variant
from runtime._src.function import autograph_backend as _autograph_backend  # registers runtime with autograph

from runtime import (autograph, bitwise, config, data, debugging, distribute, dtypes, errors,
                     linalg, lookup, math, nest, nn, random, saved_model, strings, summary,
                     train, types)
from runtime import autodiff, experimental, image, io, ragged, sets, signal, sparse
from runtime import audio, profiler, queue, test
from runtime import quantization
from runtime._src.ops.linalg_more_ops import eig, eigvals  # also tf.linalg's
from runtime._src.ops.matrix_functions_ops import sqrtm as matrix_square_root
from runtime._src.ops.stateless_shuffle_ops import random_index_shuffle
from runtime._src.sparse.edit_distance import edit_distance
from runtime._src.data.iterator import OptionalSpec
from runtime._src.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec
from runtime._src.sparse.sparse_tensor import SparseTensor, SparseTensorSpec
from runtime._src.core.memory import keep_freed_memory as _keep_freed_memory
from runtime._src.extension import dispatch as _dispatch

_keep_freed_memory()  # glibc keeps numpy's freed buffers for the next step
_dispatch.set_namespaces(_sys.modules[__name__])    # where dispatch_for_api finds the APIs

newaxis = None  # tf.newaxis: `t[:, tf.newaxis]` inserts a dimension of size 1

# The TensorFlow version whose API this runtime follows (as runtime.keras.__version__
# is Keras's): `tf.__version__` in programs and guides prints TF's. The package's
# own version is pyproject.toml's.
__version__ = "2.21.0"

# What `dir(runtime)` lists (tests/runtime/test_public_api.py checks it):
# TensorFlow's names plus `visualize`; nothing from `_src`.
__all__ = [
    "Assert", "ConcreteFunction", "DType", "Function", "GradientTape", "Module", "Tensor",
    "TensorArray", "TensorShape", "TensorSpec", "UnconnectedGradients", "Variable", "abs",
    "acos", "acosh", "add", "add_n", "argmax", "argmin", "argsort", "as_dtype", "asin",
    "asinh", "assert_equal", "assert_greater", "assert_less", "assert_rank", "atan",
    "atan2", "atanh", "audio", "autograph", "bfloat16", "bitcast", "bitwise", "bool", "boolean_mask",
    "broadcast_dynamic_shape", "broadcast_static_shape", "broadcast_to", "case", "cast",
    "clip_by_global_norm", "clip_by_norm", "clip_by_value", "complex", "complex128",
    "complex64", "concat", "cond", "conv", "CriticalSection", "config", "constant", "convert_to_tensor", "cos", "cosh",
    "cumsum", "custom_gradient", "data", "debugging", "distribute", "divide", "dtypes", "einsum", "equal", "errors",
    "executing_eagerly", "exp", "expand_dims", "eye", "fill", "float16", "float32", "float64",
    "floor", "floordiv", "foldl", "foldr", "function", "gather", "gather_nd",
    "grad_pass_through", "gradients", "greater", "greater_equal", "identity", "init_scope",
    "inside_function", "int16", "int32", "int64", "int8", "is_tensor", "keras", "less",
    "less_equal", "linalg", "linspace", "lookup", "logical_and", "logical_not", "logical_or", "map_fn",
    "math", "matmul", "maximum", "meshgrid", "minimum", "multiply", "name_scope", "negative",
    "nest", "newaxis", "nn", "norm", "not_equal", "numpy_function", "one_hot", "ones",
    "ones_like", "pad", "pow", "print", "profiler", "py_function", "queue", "random", "range", "rank",
    "recompute_grad", "reduce_all", "reduce_any", "reduce_logsumexp", "reduce_max",
    "reduce_mean", "reduce_min", "reduce_prod", "reduce_sum", "ragged_fill_empty_rows", "ragged_fill_empty_rows_grad",
    "register_tensor_conversion_function", "repeat", "reshape", "reverse",
    "roll", "round", "saved_model", "scalar_mul", "scan", "scatter_nd", "searchsorted", "sequence_mask",
    "shape", "sigmoid", "sign", "sin", "sinh", "size", "slice", "sort", "split", "sqrt",
    "square", "squeeze", "stack", "stop_gradient", "strided_slice", "string", "strings",
    "subtract", "summary", "switch_case", "tan", "tanh", "tensor_scatter_nd_add",
    "tensor_scatter_nd_max", "tensor_scatter_nd_min", "tensor_scatter_nd_sub",
    "tensor_scatter_nd_update", "tensordot", "test", "tile", "train", "transpose", "truediv",
    "truncatediv", "truncatemod", "types", "uint16", "uint32", "uint64", "uint8",
    "unique", "unique_with_counts", "unstack", "vectorized_map", "visualize", "where",
    "while_loop", "zeros", "zeros_like",
    "control_dependencies", "device", "ensure_shape", "experimental", "get_logger",
    "get_static_value", "histogram_fixed_width", "histogram_fixed_width_bins", "identity_n",
    "image", "saturate_cast", "timestamp", "dynamic_partition", "dynamic_stitch", "IndexedSlices", "IndexedSlicesSpec", "NoneTensorSpec", "TypeSpec", "io",
    "TensorArraySpec",
    "type_spec_from_value", "ragged", "RaggedTensor", "RaggedTensorSpec",
    "AggregationMethod", "DeviceSpec", "VariableAggregation", "VariableSynchronization",
    "as_string", "batch_to_space", "constant_initializer", "conv2d_backprop_filter_v2",
    "conv2d_backprop_input_v2", "fingerprint",
    "get_current_name_scope", "group", "guarantee_const", "hessians", "is_symbolic_tensor",
    "no_op", "ones_initializer", "parallel_stack", "random_normal_initializer",
    "random_uniform_initializer", "realdiv", "required_space_to_batch_paddings",
    "reverse_sequence", "shape_n", "space_to_batch", "space_to_batch_nd",
    "tuple", "unravel_index", "zeros_initializer", "double", "half", "variant",
    "signal", "autodiff", "quantization", "eig", "eigvals", "matrix_square_root",
    "edit_distance", "random_index_shuffle",
    "sets", "sparse", "SparseTensor", "SparseTensorSpec", "OptionalSpec",
]


def __getattr__(name):
    """`tf.keras` on first use: `import runtime` loads no Keras module."""
    if name == "keras":
        import importlib
        return importlib.import_module("runtime.keras")
    raise AttributeError(f"module 'runtime' has no attribute {name!r}")


def __dir__():
    return sorted(__all__ + ["__version__"])
