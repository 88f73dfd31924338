"""Export a traced function to an ONNX model, and check it in ONNX Runtime.

    proto, _ = from_function(f, input_signature=[tf.TensorSpec([None, 3])])
    verify(proto, f, np.ones((2, 3), np.float32))   # same results in ORT?

The names and argument order are tf2onnx's (`from_function`, `from_keras`,
returning `(model_proto, None)`; the second slot is tf2onnx's external
storage, unused here).
"""

import os
import tempfile

import numpy as np

from runtime._src.core.tensor import Tensor
from runtime._src.core.tensor import TensorSpec
from runtime._src.function.concrete_function import ConcreteFunction
from runtime._src.function.function import Function, function as tf_function
from runtime._src.onnx import (rules_array, rules_bits, rules_linalg, rules_math,  # fill RULES
                              rules_more, rules_nn, rules_scatter_sort, rules_tensor_array,
                              rules_tensor_array_scatter, widen)
from runtime._src.onnx.builder import Builder, ExportError, Names, _onnx
from runtime._src.onnx.convert import Context, lower_graph, value_info

__all__ = ["from_function", "from_keras", "export_concrete", "verify", "DEFAULT_OPSET",
           "ExportError"]

DEFAULT_OPSET = 17
OPSETS = range(13, 22)


def _require_onnx():
    try:
        import onnx  # only checks that it is installed
    except ImportError:
        raise ImportError("exporting to ONNX needs the `onnx` package: "
                          "pip install -e '.[onnx]' (onnx and onnxruntime)") from None


def export_concrete(concrete, opset=None, name=None):
    """The ONNX ModelProto of one ConcreteFunction's graph."""
    _require_onnx()
    onnx = _onnx()
    opset = DEFAULT_OPSET if opset is None else int(opset)
    if opset not in OPSETS:
        raise ValueError(f"opset {opset} is not supported: choose one of "
                         f"{OPSETS.start}..{OPSETS.stop - 1} (default {DEFAULT_OPSET})")
    graph = concrete.graph
    names = Names()
    ctx = Context(Builder(names, opset))
    inputs = []
    for t in graph.inputs:
        if t.dtype.name in ("variant", "resource"):
            raise ExportError(f"input {t.name} is a {t.dtype.name}: only tensors can be "
                              "inputs of an ONNX model")
        input_name = names.fresh(t.node.name)
        ctx.bind(t, input_name)
        inputs.append(value_info(ctx, input_name, t, lambda i, n=input_name: f"{n}_dim{i}"))
    lower_graph(ctx, graph)
    outputs = []
    for i, t in enumerate(graph.outputs):
        source = ctx.name(t)
        if source in ctx.sequences:
            raise ExportError(f"output {i} is a TensorArray: return ta.stack() instead")
        out = ctx.b.add1("Identity", [source], name=f"output_{i}")
        if source in ctx.shapes:
            ctx.shapes[out] = ctx.shapes[source]
        outputs.append(value_info(ctx, out, t))
    proto_graph = onnx.helper.make_graph(ctx.b.nodes, name or graph.name, inputs, outputs,
                                         initializer=ctx.b.initializers)
    model = onnx.helper.make_model(proto_graph, producer_name="autograph-runtime",
                                   opset_imports=[onnx.helper.make_opsetid("", opset)])
    model.ir_version = min(model.ir_version, 10)   # what current ONNX Runtime releases read
    onnx.checker.check_model(model, full_check=True)
    return model


def _concrete(function, input_signature):
    if isinstance(function, ConcreteFunction):
        return function
    if not isinstance(function, Function):
        if not callable(function):
            raise TypeError(f"from_function: expected a tf.function, a ConcreteFunction or a "
                            f"Python function, got {type(function).__name__}")
        if input_signature is None:
            raise ValueError("from_function: a plain Python function needs input_signature "
                             "(a list of tf.TensorSpec)")
        function = tf_function(function, input_signature=input_signature)
    if input_signature is not None and function.input_signature is None:
        return function.get_concrete_function(*input_signature)
    if function.input_signature is None:
        raise ValueError(f"from_function: {function.python_function.__name__} has no "
                         "input_signature; pass input_signature=[tf.TensorSpec(...), ...]")
    return function.get_concrete_function()


def from_function(function, input_signature=None, opset=None, output_path=None):
    """Export `function` (a tf.function, a ConcreteFunction, or a Python
    function with `input_signature`) to ONNX. Returns `(model_proto, None)`;
    with `output_path`, also writes the model there (atomically)."""
    _require_onnx()
    concrete = _concrete(function, input_signature)
    model = export_concrete(concrete, opset)
    if output_path is not None:
        save(model, output_path)
    return model, None


def from_keras(model, input_signature=None, opset=None, output_path=None):
    """Export a Keras model's inference (`training=False`) to ONNX."""
    _require_onnx()
    if input_signature is None:
        input_signature = _keras_signature(model)

    def serve(*inputs):
        return model(inputs[0] if len(inputs) == 1 else list(inputs), training=False)

    serve.__name__ = getattr(model, "name", "model")
    traced = tf_function(serve, input_signature=input_signature, autograph=False)
    proto = export_concrete(traced.get_concrete_function(), opset, name=serve.__name__)
    if output_path is not None:
        save(proto, output_path)
    return proto, None


def _keras_signature(model):
    inputs = getattr(model, "inputs", None)
    if not inputs:
        raise ValueError(f"from_keras: model {getattr(model, 'name', model)!r} has no known "
                         "inputs (it was never built or called); pass input_signature="
                         "[tf.TensorSpec((None, ...), tf.float32)]")
    return [TensorSpec(tuple(t.shape), t.dtype, name=getattr(t, "name", None)) for t in inputs]


def save(model, path):
    """Write the model to `path` atomically (a partial file never appears)."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".onnx-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(model.SerializeToString())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def verify(model, function, *inputs, rtol=1e-5, atol=1e-5):
    """Run `model` in ONNX Runtime and `function` (our executor) on `inputs`
    and compare. Returns the list of outputs; raises AssertionError naming the
    first output that differs. Without inputs, random ones are made from the
    model's input types (unknown dimensions of size 2). ONNX Runtime runs on
    one thread here: for a check's small inputs, starting a session's pool of
    threads costs several times its run (about 3.5 against 0.5 ms of CPU)."""
    try:
        import onnxruntime
    except ImportError:
        raise ImportError("verify needs onnxruntime: pip install -e '.[onnx]'") from None
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(model.SerializeToString(), options,
                                           providers=["CPUExecutionProvider"])
    if not inputs:
        inputs = random_inputs(model)
    feeds = {i.name: np.asarray(v) for i, v in zip(session.get_inputs(), inputs)}
    theirs = session.run(None, feeds)
    ours = function(*inputs)
    ours = [np.asarray(o.numpy() if isinstance(o, Tensor) else o)
            for o in (ours if isinstance(ours, (list, tuple)) else [ours])]
    flat = _flatten(ours)
    if len(flat) != len(theirs):
        raise AssertionError(f"ONNX Runtime gave {len(theirs)} outputs, our executor "
                             f"{len(flat)}")
    for k, (a, b) in enumerate(zip(flat, theirs)):
        problem = _difference(a, b, rtol, atol)
        if problem:
            raise AssertionError(f"output {k} differs between our executor and ONNX Runtime: "
                                 f"{problem}")
    return theirs


def _flatten(values):
    out = []
    for v in values:
        if isinstance(v, (list, tuple)):
            out.extend(_flatten(v))
        else:
            out.append(np.asarray(v))
    return out


def _difference(ours, theirs, rtol, atol):
    if ours.shape != theirs.shape:
        return f"shape {ours.shape} vs {theirs.shape}"
    if ours.dtype != theirs.dtype and not (ours.dtype.kind in "OSU" and theirs.dtype.kind in "OSU"):
        return f"dtype {ours.dtype} vs {theirs.dtype}"
    if ours.dtype.kind in "OSU":         # ours may hold bytes, ONNX Runtime gives str
        ours, theirs = (np.vectorize(_text, otypes=[object])(a) if a.size else a
                        for a in (ours, theirs))
    if ours.dtype.kind in "fc":
        if not np.allclose(ours, theirs, rtol=rtol, atol=atol, equal_nan=True):
            where = np.argwhere(~np.isclose(ours, theirs, rtol=rtol, atol=atol, equal_nan=True))
            i = tuple(int(k) for k in where[0])
            return f"at {i}: ours {ours[i].item()!r}, ONNX Runtime {theirs[i].item()!r}"
        return None
    if not np.array_equal(ours, theirs):
        where = np.argwhere(ours != theirs)
        i = tuple(int(k) for k in where[0]) if len(where) else ()
        return f"at {i}: ours {ours[i].item()!r}, ONNX Runtime {theirs[i].item()!r}"
    return None


def _text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def random_inputs(model, seed=0):
    """Random arrays matching the model's inputs (unknown dimensions: 2)."""
    onnx = _onnx()
    rng = np.random.default_rng(seed)
    arrays = []
    for value in model.graph.input:
        t = value.type.tensor_type
        dtype = onnx.helper.tensor_dtype_to_np_dtype(t.elem_type)
        shape = [d.dim_value if d.HasField("dim_value") else 2 for d in t.shape.dim]
        if dtype.kind == "f":
            arrays.append(rng.normal(size=shape).astype(dtype))
        elif dtype.kind == "b":
            arrays.append(rng.random(shape) > 0.5)
        else:
            arrays.append(rng.integers(-5, 6, size=shape).astype(dtype))
    return arrays
