"""`autograph graph FILE.py::FUNC --signature SPECS`: trace a function, print its graph.

Unlike `convert` and `check`, this imports the user's file: tracing runs the
function with symbolic tensors. It needs `runtime` (imported lazily here, so
`autograph` itself still never imports it at import time).

    >>> parse_signature("float32[None,3], int32[]")
    [('float32', [None, 3]), ('int32', [])]
    >>> parse_signature("float32[...]")
    [('float32', None)]

The graph prints as `str(graph)` (text), `graph.to_dot()` (dot), SVG made by
Graphviz's `dot` program (svg; a one-line error suggesting html when `dot` is
not installed), or the self-contained HTML page of `runtime.visualize` (html).

Whatever the user's module prints while it is imported and traced goes to
standard error, so standard output (`> out.txt`) holds the graph alone.
"""

import contextlib
import importlib.util
import inspect
import os
import re
import shutil
import subprocess
import sys
import tempfile
import traceback
import types

from .source import CliError, check_writable, emit, parse_source, read_source

__all__ = ["parse_signature", "parse_target", "render", "run_graph", "trace", "trace_concrete"]

_SPEC_RE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[([^\]]*)\])?\s*$")


def _split_specs(text):
    """Split at commas outside brackets: "a[1,2],b[]" -> ["a[1,2]", "b[]"]."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return parts


def _parse_dim(dim, spec):
    dim = dim.strip()
    if dim in ("None", "?", "-1"):
        return None
    if dim.isdigit():
        return int(dim)
    raise CliError(f"--signature: bad dimension {dim!r} in {spec.strip()!r}; "
                   "expected a non-negative integer, None or ?")


def parse_signature(text):
    """[(dtype name, dims or None for unknown rank)] from 'float32[None],int32[]'."""
    if not text.strip():
        return []
    specs = []
    for spec in _split_specs(text):
        match = _SPEC_RE.match(spec)
        if not match:
            raise CliError(f"--signature: cannot parse {spec.strip()!r}; expected DTYPE[DIMS] "
                           "such as float32[None,3] or int32[]")
        dtype, dims = match.group(1), match.group(2)
        if dims is None or dims.strip() == "...":
            specs.append((dtype, None))
        elif not dims.strip():
            specs.append((dtype, []))
        else:
            specs.append((dtype, [_parse_dim(d, spec) for d in dims.split(",")]))
    return specs


def parse_target(target):
    """('path.py', 'func') from 'path.py::func'."""
    path, sep, func = target.rpartition("::")
    if not sep or not path or not func:
        raise CliError(f"{target}: expected FILE.py::FUNC, e.g. model.py::step")
    return path, func


def _tensor_specs(runtime, parsed):
    specs = []
    for i, (name, dims) in enumerate(parsed):
        try:
            dtype = runtime.dtypes.as_dtype(name)
        except TypeError as e:
            raise CliError(f"--signature: argument {i}: {e}") from None
        specs.append(runtime.TensorSpec(dims, dtype, name=None))
    return specs


def _user_frame(tb, path):
    """(file, line) of the innermost traceback frame in `path`, else None."""
    found = None
    real = os.path.realpath(path)
    for frame in traceback.extract_tb(tb):
        if os.path.realpath(frame.filename) == real:
            found = (path, frame.lineno)
    return found


_USER_NOTE_RE = re.compile(r'in user code: File "(.+)", line (\d+)(?:: (.*))?')


def _user_note(exc, path):
    """(file, line, source text) from the runtime's "in user code" note naming `path`.

    Errors raised while converted code traces come from frames of the
    generated code, not of `path`; the runtime notes the user's line instead.
    """
    real = os.path.realpath(path)
    for note in getattr(exc, "__notes__", None) or ():
        match = _USER_NOTE_RE.search(note)
        if match and os.path.realpath(match.group(1)) == real:
            return path, int(match.group(2)), (match.group(3) or "").strip()
    return None


def _describe(exc, path):
    """One line: the exception and the user's file:line (and source) when known."""
    text = f"{type(exc).__name__}: {exc}".splitlines()[0]
    noted = _user_note(exc, path)
    where = noted or _user_frame(exc.__traceback__, path)
    if where is None:
        return text
    line = where[1]
    if f"{path}:{line}" in text or f"{os.path.realpath(path)}:{line}" in text:
        return text                    # the message already names the line
    source = f": {noted[2]}" if noted and noted[2] else ""
    return f"{text} ({path}:{line}{source})"


def load_module(path):
    """Import `path` as a fresh module (its directory goes first on sys.path)."""
    name = os.path.splitext(os.path.basename(path))[0] or "module"
    spec = importlib.util.spec_from_file_location(name, os.path.abspath(path))
    module = importlib.util.module_from_spec(spec)
    directory = os.path.dirname(os.path.abspath(path))
    if directory not in sys.path:
        sys.path.insert(0, directory)
    previous = sys.modules.get(name)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as e:  # the user's module-level code failed
        if previous is not None:
            sys.modules[name] = previous
        else:
            sys.modules.pop(name, None)
        if isinstance(e, KeyboardInterrupt):
            raise
        raise CliError(f"{path}: importing it failed: {_describe(e, path)}", code=1) from None
    return module


def _functions_in(module):
    """Sorted names of the public functions `module` defines (plain or tf.function)."""
    return sorted(k for k, v in vars(module).items()
                  if not k.startswith("_")
                  and isinstance(getattr(v, "python_function", v), types.FunctionType)
                  and getattr(v, "__module__", None) == module.__name__)


def _lookup(module, func, path):
    obj = module
    for part in func.split("."):
        if not hasattr(obj, part):
            known = _functions_in(module)
            raise CliError(f"{path}: no function named '{func}' "
                           f"(functions found: {', '.join(known) or 'none'})")
        obj = getattr(obj, part)
    if not callable(obj):
        raise CliError(f"{path}: '{func}' is a {type(obj).__name__}, not a function")
    owner_name, _, attr = func.rpartition(".")
    owner = _lookup(module, owner_name, path) if owner_name else module
    if isinstance(owner, type) and isinstance(owner.__dict__.get(attr), types.FunctionType):
        raise CliError(f"{path}: '{func}' is a method of class {owner.__name__}: it needs an "
                       "instance, which `graph` cannot make; trace a function that creates "
                       "the instance and calls the method (a staticmethod or classmethod "
                       "can be traced directly)")
    return obj


def _positional_range(fn):
    """(required, most) positional arguments `fn` takes; most is None with *args."""
    target = getattr(fn, "python_function", fn)
    try:
        params = inspect.signature(target).parameters.values()
    except (TypeError, ValueError):  # a builtin or callable without a signature
        return None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    positional = [p for p in params if p.kind in kinds]
    required = sum(p.default is inspect.Parameter.empty for p in positional)
    star = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params)
    return required, None if star else len(positional)


def _check_arity(fn, count, where):
    """A CliError (status 2) when `count` specs cannot bind to `fn`'s arguments."""
    bounds = _positional_range(fn)
    if bounds is None:
        return
    required, most = bounds
    if required <= count and (most is None or count <= most):
        return
    if most is None:
        takes = f"at least {required}"
    elif required == most:
        takes = str(most)
    else:
        takes = f"{required} to {most}"
    plural = "" if (required if most is None else most) == 1 else "s"
    raise CliError(f"--signature: {count} spec{'' if count == 1 else 's'} for {where}, "
                   f"which takes {takes} positional argument{plural}")


def trace(path, func, signature):
    """The graph of `func` in `path` traced with the specs in `signature`."""
    return trace_concrete(path, func, signature).graph


def trace_concrete(path, func, signature):
    """The concrete function of `func` in `path` traced with `signature`."""
    parsed = parse_signature(signature)   # bad specs fail before the import
    parse_source(read_source(path), path)  # bad files fail before the import
    try:
        import runtime
    except ImportError as e:
        raise CliError(f"`graph` needs the runtime package, which failed to import: {e}")
    specs = _tensor_specs(runtime, parsed)
    if not hasattr(runtime, "function"):
        raise CliError("`graph` needs runtime.function, which this runtime does not provide")
    # The module's own prints (at import and while tracing) go to stderr:
    # stdout carries the graph alone.
    with contextlib.redirect_stdout(sys.stderr):
        module = load_module(path)
        fn = _lookup(module, func, path)
        _check_arity(fn, len(specs), f"{path}::{func}")
        traced = fn if hasattr(fn, "get_concrete_function") else runtime.function(fn)
        try:
            concrete = traced.get_concrete_function(*specs)
        except Exception as e:  # noqa: BLE001 - the user's function failed to trace
            raise CliError(f"{path}::{func}: tracing failed: {_describe(e, path)}",
                           code=1) from None
    return concrete


def to_dot(graph):
    if not hasattr(graph, "to_dot"):
        raise CliError("--format dot needs graphs with a to_dot() method, which this "
                       "runtime does not provide")
    return graph.to_dot()


def to_svg(dot_text):
    exe = shutil.which("dot")
    if exe is None:
        raise CliError("--format svg needs Graphviz's `dot` program, which is not on PATH; "
                       "use --format html (a self-contained page, no Graphviz needed), "
                       "or install Graphviz (e.g. apt-get install graphviz)")
    proc = subprocess.run([exe, "-Tsvg"], input=dot_text, capture_output=True, text=True)
    if proc.returncode != 0:
        first = (proc.stderr.strip().splitlines() or ["no message"])[0]
        raise CliError(f"Graphviz `dot` failed (exit {proc.returncode}): {first}")
    return proc.stdout


def to_html(graph):
    """The self-contained HTML page `runtime.visualize` writes for `graph`."""
    import runtime
    with tempfile.TemporaryDirectory(prefix="autograph-graph-") as directory:
        path = runtime.visualize(graph, os.path.join(directory, "graph.html"))
        with open(path, encoding="utf-8") as f:
            return f.read()


def render(target, signature, fmt):
    """The text to print for `autograph graph TARGET --signature ... --format FMT`."""
    path, func = parse_target(target)
    if fmt == "svg" and shutil.which("dot") is None:
        to_svg("")  # fail before importing the user's file
    graph = trace(path, func, signature)
    if fmt == "text":
        text = str(graph)
    elif fmt == "html":
        text = to_html(graph)
    else:
        text = to_dot(graph)
        if fmt == "svg":
            text = to_svg(text)
    return text if text.endswith("\n") else text + "\n"


def run_graph(args):
    """`autograph graph FILE.py::FUNC --signature SPECS [--format F] [-o OUT]`."""
    if args.output:
        check_writable(args.output)
    emit(render(args.target, args.signature, args.format), args.output)
    return 0
