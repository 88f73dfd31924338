"""`autograph convert`: convert the functions of a file from its SOURCE.

The CLI must not import the user's module, so it cannot hand live function
objects to `autograph.to_code`. This adapter takes a function's span (see
`autograph.cli.source.FunctionSpan`), cuts its text out of the file, and
converts it with `autograph.convert_source` (via `autograph.cli.transpiler`)
under the user's filename and line numbers, so reports and errors point at the
original file.

    result = convert_span(span, lines, "model.py")
    result.status   # "converted", "unchanged", "already", "marked" or "error"
    result.text     # the converted `def` (decorators excluded), when converted
    result.describe()  # "converted" / "unchanged (no control flow)" /
                       # "not convertible: REASON (model.py:12)"

A function with nothing to rewrite (no `if`/`while`/`for`/`assert`/
`and`/`or`/`not`/`x if c else y`/`break`/`continue`/early `return`, in it or in
its nested functions and lambdas) is left byte for byte as written. So is a
function `autograph convert` already converted (it carries the
`@autograph.do_not_convert` marker and calls the operators): converting a
converted file gives the same bytes back. A function the user marked
`@autograph.do_not_convert` is kept as written too.
"""

import ast
import difflib
import sys
from dataclasses import dataclass, field

from . import transpiler
from .args import PROG
from .source import (CliError, check_writable, display_name, emit, insert_imports, load,
                     replace_spans, split_lines)

__all__ = ["Conversion", "convert_span", "has_control_flow", "is_converted", "import_lines",
           "convert_text", "run_convert"]


@dataclass
class Conversion:
    """The outcome of converting one function."""
    status: str                 # "converted" | "unchanged" | "already" | "marked" | "error"
    text: str = None            # converted `def ...` text (no decorators)
    message: str = None         # for "error": reason with (file:line)
    report: list = field(default_factory=list)  # per-statement report lines

    def describe(self):
        if self.status == "converted":
            return "converted"
        if self.status == "unchanged":
            return "unchanged (no control flow)"
        if self.status == "already":
            return "already converted (kept as is)"
        if self.status == "marked":
            return f"unchanged (marked {transpiler.MARKER})"
        return f"not convertible: {self.message}"


def import_lines():
    """The lines a converted module needs at its top."""
    return transpiler.import_lines()


_CONTROL_FLOW = (ast.If, ast.While, ast.For, ast.AsyncFor, ast.Break, ast.Continue,
                 ast.Assert, ast.IfExp, ast.BoolOp, ast.Try, ast.With, ast.AsyncWith)
if hasattr(ast, "Match"):
    _CONTROL_FLOW += (ast.Match,)


def has_control_flow(func):
    """True when `func` (a FunctionDef) has anything the transpiler rewrites."""
    for node in ast.walk(func):
        if isinstance(node, _CONTROL_FLOW):
            return True
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return True
        if isinstance(node, ast.Compare) and len(node.ops) > 1:
            return True
    return _has_early_return(func.body)


def _has_early_return(body):
    """A `return` that is not the last statement of the function body."""
    for i, stmt in enumerate(body):
        for node in ast.walk(stmt):
            if isinstance(node, ast.Return) and not (i == len(body) - 1 and node is stmt):
                if not _inside_nested_def(stmt, node):
                    return True
    return False


def _inside_nested_def(root, target):
    """True when `target` sits in a function or lambda nested inside `root`."""
    for node in ast.walk(root):
        if node is not root and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                  ast.Lambda)):
            if any(n is target for n in ast.walk(node)):
                return True
    return False


def _marked(func):
    """True when `func` carries the `@autograph.do_not_convert` marker."""
    return any(ast.unparse(d) == transpiler.MARKER[1:] for d in func.decorator_list)


def is_converted(func):
    """True when `func` (a FunctionDef) is the output of `autograph convert`:
    it carries the marker that conversion adds and calls the operators
    (`ag__.if_stmt`, ...). A function the user marked by hand is not."""
    return _marked(func) and any(isinstance(n, ast.Name) and n.id.startswith("ag__")
                                 for n in ast.walk(func))


def _unsupported(func, display):
    """A reason with (file:line) when the CLI already knows it cannot convert."""
    if isinstance(func, ast.AsyncFunctionDef):
        return f"async functions are not supported ({display}:{func.lineno})"
    for node in _own_nodes(func):
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return f"generators (yield) are not supported ({display}:{node.lineno})"
    return None


def _own_nodes(func):
    """The nodes of `func`, not descending into nested functions, lambdas, classes."""
    stack = list(func.body)
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                      ast.Lambda, ast.ClassDef)):
                stack.append(child)


def function_source(span, lines):
    """The text of the `def` as written (decorators excluded; not dedented,
    which would change multi-line strings) and its first line."""
    return "".join(lines[span.def_line - 1:span.end]), span.def_line


def convert_span(span, lines, display, want_report=False, module=None):
    """Convert the function at `span`; never raises for a user-code problem.

    `module` is the whole file's text (`"".join(lines)` when not given); pass
    the same string for every span of a file, so it is analysed once.
    """
    func = span.node
    if is_converted(func):
        report = [f"line {func.lineno:<4} already converted; kept as written"]
        return Conversion("already", report=report if want_report else [])
    if _marked(func):
        report = [f"line {func.lineno:<4} marked {transpiler.MARKER}; runs as written"]
        return Conversion("marked", report=report if want_report else [])
    reason = _unsupported(func, display)
    if reason:
        return Conversion("error", message=reason)
    if not has_control_flow(func):
        report = [f"line {func.lineno:<4} nothing to convert; runs as written"]
        return Conversion("unchanged", report=report if want_report else [])
    source, first_line = function_source(span, lines)
    try:
        text, report = transpiler.transpile(source, display, first_line, func.name,
                                                want_report=want_report,
                                                module="".join(lines) if module is None
                                                else module,
                                                is_method="." in span.qualname)
    except transpiler.NotConvertible as e:
        return Conversion("error", message=str(e))
    except Exception as e:  # noqa: BLE001 - a transpiler bug must not abort the whole file
        return Conversion("error", message=f"the transpiler failed: {type(e).__name__}: {e} "
                                           f"({display}:{func.lineno})")
    return Conversion("converted", text=text, report=report)


def convert_text(text, tree, lines, spans, display, warn=None):
    """The converted module text and the per-span results.

    Functions that cannot be converted are kept verbatim; `warn(message)` is
    called once for each.
    """
    module = text
    results = [(span, convert_span(span, lines, display, module=module)) for span in spans]
    replacements = [(span, r.text) for span, r in results if r.status == "converted"]
    for span, r in results:
        if r.status == "error" and warn is not None:
            warn(f"{display}:{span.def_line}: {span.qualname} kept as is: {r.message}")
    new_lines = replace_spans(lines, replacements)
    if replacements:
        new_lines = insert_imports(new_lines, tree, import_lines())
    return "".join(new_lines), results


def run_convert(args):
    """`autograph convert FILE.py [-o OUT.py] [--function NAME ...] [--diff]`."""
    _, tree, lines, spans = load(args.file, args.function)
    if args.output:
        check_writable(args.output)
    display = display_name(args.file)
    warnings = []
    new_text, results = convert_text("".join(lines), tree, lines, spans, display,
                                     warn=warnings.append)
    if args.function:
        failed = [(s, r) for s, r in results if r.status == "error"]
        if failed:
            span, r = failed[0]
            raise CliError(f"{display}:{span.def_line}: {span.qualname}: not convertible: "
                           f"{r.message}", code=1)
    if args.diff:
        new_text = "".join(difflib.unified_diff(
            lines, split_lines(new_text), fromfile=display, tofile=f"{display} (converted)"))
    emit(new_text, args.output)
    for w in warnings:
        print(f"{PROG}: warning: {w}", file=sys.stderr)
    return 0
