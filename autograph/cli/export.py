"""`autograph export FILE.py::FUNC --signature SPECS -o model.onnx`: trace a
function and write it as an ONNX model (runtime.onnx), which ONNX Runtime
runs without Python.

Like `graph`, this imports the user's file and needs `runtime`, plus the
optional `onnx` package (`pip install -e '.[onnx]'`); `--verify` also needs
`onnxruntime` and runs the exported model on random inputs against our
executor. The model is written atomically: a failed export leaves no file.
"""

from .graph import parse_target, trace_concrete
from .source import CliError, check_writable

__all__ = ["run_export"]


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
    if args.verify:
        try:
            exporter.verify(model, concrete, *exporter.random_inputs(model))
        except ImportError as e:
            raise CliError(str(e)) from None
        except AssertionError as e:
            raise CliError(f"{path}::{func}: --verify: {e}", code=1) from None
    exporter.save(model, args.output)
    return 0
