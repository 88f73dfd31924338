"""`autograph export FILE.py::FUNC --signature SPECS -o model.onnx`: trace a
function and write it as an ONNX model (runtime.onnx), which ONNX Runtime
runs without Python.

Like `graph`, this imports the user's file and needs `runtime`, plus the
optional `onnx` package (`pip install -e '.[onnx]'`); `--verify` also needs
`onnxruntime` and runs the exported model on random inputs against our
executor. The model is written atomically: a failed export leaves no file.
On success it prints what it wrote (and, with `--verify`, what it checked):

    wrote total.onnx: ONNX opset 17, 9 nodes, inputs (n: int32[]), outputs (int32[])
    verified: ONNX Runtime and our executor agree on 1 output for random inputs
    (n: int32[]) within rtol 1e-05, atol 1e-05

(Random inputs give each unknown dimension size 2.)
"""

from .graph import parse_target, trace_concrete
from .source import CliError, check_writable

__all__ = ["describe_model", "run_export"]

_RTOL = _ATOL = 1e-5   # runtime.onnx.verify's defaults


def run_export(args):
    """`autograph export FILE.py::FUNC --signature SPECS [--opset N] [--verify] -o OUT`."""
    check_writable(args.output)
    path, func = parse_target(args.target)
    try:
        import onnx  # noqa: F401 - only checks that the extra is installed
        from runtime import onnx as exporter
    except ImportError as e:
        raise CliError(f"`export` needs the onnx package ({e}): "
                       "pip install -e '.[onnx]'") from None
    if args.opset is not None and args.opset not in exporter.OPSETS:
        raise CliError(f"--opset {args.opset}: choose one of {exporter.OPSETS.start}.."
                       f"{exporter.OPSETS.stop - 1} (default {exporter.DEFAULT_OPSET})")
    concrete = trace_concrete(path, func, args.signature)
    try:
        model, _ = exporter.from_function(concrete, opset=args.opset)
    except exporter.ExportError as e:
        raise CliError(f"{path}::{func}: {e}", code=1) from None
    checked = _verify(exporter, model, concrete, f"{path}::{func}") if args.verify else None
    exporter.save(model, args.output)
    print(f"wrote {args.output}: {describe_model(model)}")
    if checked is not None:
        print(checked)
    return 0


def _verify(exporter, model, concrete, where):
    """Run `model` and `concrete` on random inputs; the line saying what agreed."""
    inputs = exporter.random_inputs(model)
    try:
        outputs = exporter.verify(model, concrete, *inputs, rtol=_RTOL, atol=_ATOL)
    except ImportError as e:
        raise CliError(str(e)) from None
    except AssertionError as e:
        raise CliError(f"{where}: --verify: {e}", code=1) from None
    names = [value.name for value in model.graph.input]
    shown = ", ".join(f"{n}: {_array_type(a)}" for n, a in zip(names, inputs)) or "none"
    count = f"{len(outputs)} output" + ("" if len(outputs) == 1 else "s")
    return (f"verified: ONNX Runtime and our executor agree on {count} for random inputs "
            f"({shown}) within rtol {_RTOL:g}, atol {_ATOL:g}")


def describe_model(model):
    """'ONNX opset 17, 9 nodes, inputs (n: int32[]), outputs (int32[])'."""
    opset = max((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")),
                default="?")
    inputs = ", ".join(f"{v.name}: {_value_type(v)}" for v in model.graph.input)
    outputs = ", ".join(_value_type(v) for v in model.graph.output)
    return (f"ONNX opset {opset}, {len(model.graph.node)} nodes, "
            f"inputs ({inputs}), outputs ({outputs})")


def _value_type(value):
    """'float32[?,3]' from an ONNX ValueInfoProto (a symbolic dimension is ?)."""
    import onnx
    t = value.type.tensor_type
    dtype = onnx.helper.tensor_dtype_to_np_dtype(t.elem_type).name
    dims = [str(d.dim_value) if d.HasField("dim_value") else "?" for d in t.shape.dim]
    return f"{dtype}[{','.join(dims)}]"


def _array_type(array):
    return f"{array.dtype.name}[{','.join(str(d) for d in array.shape)}]"
