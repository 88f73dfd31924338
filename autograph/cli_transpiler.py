"""The CLI's bridge to the transpiler: convert a function given as SOURCE text.

`autograph.to_code` takes a live function; the CLI has only the file's text
(it must not import the user's module). `transpile` parses one `def`, builds
the transpiler's `Context` around a stand-in for the function (its code object
compiled from the text, never executed), runs the same converter pipeline as
`to_code` (`impl.conversion.convert_tree`) and unparses the result.

    text, report = transpile("def f(x):\\n    if x:\\n        x = -x\\n    return x\\n",
                             "m.py", first_line=1, name="f")

Names are resolved as `to_code` resolves them, with one difference: the
module's own globals do not exist yet. Builtins resolve as builtins unless the
module rebinds the name; `import math` / `import numpy as np` / `import
runtime as tf` (standard library and the project's own libraries) resolve to
those libraries, so their calls stay plain; every other module-level name is
left for `ag__.call` to decide when the code runs.
"""

import ast
import builtins
import importlib
import sys
import types

import gast

from . import cli_report
from .impl import conversion
from .impl.checks import ConversionError
from .pyct import anno, parser

__all__ = ["NotConvertible", "transpile", "import_lines", "module_bindings", "MARKER"]

# Converted functions carry this decorator, so that `runtime.function` and
# `ag__.call` run them as written instead of converting converted code again.
MARKER = "@autograph.do_not_convert"

_SAFE_LIBRARIES = frozenset({"numpy", "runtime", "autograph", "gast"})


class NotConvertible(Exception):
    """The transpiler refused the function; the message ends with (file:line)."""


def import_lines():
    """The import lines the converted code needs (the transpiler's own header)."""
    header = conversion._HEADER.strip().splitlines()
    return ["import autograph"] + [line for line in header if line.strip()]


class ModuleBindings:
    """What the module's top level binds, found from its AST without running it.

    `libraries` maps a bound name to its library module (or object) when it is
    a safe import (standard library or the project's libraries); `names` are
    all other module-level names.
    """

    def __init__(self, tree):
        self.libraries = {}
        self.names = set()
        for node in tree.body:
            self._visit(node)

    def _visit(self, node):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                target = alias.name if alias.asname else alias.name.split(".")[0]
                self._bind_import(bound, target, None)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                if alias.name != "*":
                    self._bind_import(alias.asname or alias.name, node.module, alias.name)
        else:
            self._collect_names(node)

    def _collect_names(self, node):
        """Names a module-level statement binds (not inside defs or classes)."""
        stack = [node]
        while stack:
            sub = stack.pop()
            if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.names.add(sub.name)
                continue
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                self.names.add(sub.id)
            elif isinstance(sub, (ast.Import, ast.ImportFrom)):
                self.names.update((a.asname or a.name).split(".")[0] for a in sub.names)
            stack.extend(ast.iter_child_nodes(sub))

    def _bind_import(self, bound, module, attr):
        root = module.split(".")[0]
        if root in sys.stdlib_module_names or root in _SAFE_LIBRARIES:
            try:
                value = importlib.import_module(module)
                value = getattr(value, attr) if attr else value
            except Exception:  # a library that fails to import: decide at run time
                value = None
            if value is not None:
                self.libraries[bound] = value
                return
        self.names.add(bound)


def module_bindings(tree):
    return ModuleBindings(tree)


class _SourceContext(conversion.Context):
    """A Context whose name resolution knows only builtins and safe imports."""

    def __init__(self, fn, node, info, bindings):
        self._bindings = bindings
        super().__init__(fn, node, info, recursive=True)

    def resolve(self, expr):
        if isinstance(expr, gast.Name) and expr.id not in self.local_names:
            if expr.id in self._bindings.libraries:
                return True, self._bindings.libraries[expr.id]
            if expr.id in self._bindings.names:
                return False, None
        return super().resolve(expr)


def _stand_in(source, filename, name):
    """A function object for the Context: the def's code, compiled, not run."""
    module_code = compile(source, filename, "exec", dont_inherit=True)
    code = next(c for c in module_code.co_consts
                if isinstance(c, types.CodeType) and c.co_name == name)
    return types.FunctionType(code, {"__builtins__": builtins}, name)


def _parse(source, first_line):
    node = gast.parse(source).body[0]
    for n in gast.walk(node):
        if getattr(n, "lineno", None) is not None:
            n.lineno += first_line - 1
            if getattr(n, "end_lineno", None) is not None:
                n.end_lineno += first_line - 1
            anno.setanno(n, anno.USER_LINE, n.lineno, replace=True)
    node.decorator_list = []
    return node


def _explicit_super(node):
    """`super()` -> `super(__class__, self)` in a method.

    Converted bodies become nested functions (`if_body`, `loop_body`), where
    zero-argument `super()` fails ("super(): no arguments"). The explicit form
    means the same thing: `__class__` is the cell Python creates for methods
    that use `super`, and nested functions see it, as they see `self`.
    """
    args = node.args.posonlyargs + node.args.args
    if not args:
        return
    for n in ast_util_walk_own(node):
        if (isinstance(n, gast.Call) and isinstance(n.func, gast.Name) and n.func.id == "super"
                and not n.args and not n.keywords):
            n.args = [gast.Name("__class__", gast.Load(), None, None),
                      gast.Name(args[0].id, gast.Load(), None, None)]


def ast_util_walk_own(node):
    """Nodes of `node`'s body, not descending into nested defs, lambdas, classes."""
    stack = list(node.body)
    while stack:
        n = stack.pop()
        yield n
        stack.extend(c for c in gast.iter_child_nodes(n)
                     if not isinstance(c, (gast.FunctionDef, gast.AsyncFunctionDef,
                                           gast.Lambda, gast.ClassDef)))


def transpile(source, filename, first_line, name, want_report=False, file_lines=None,
              bindings=None, is_method=False, original=None):
    """(converted def text, report lines) for one function's source.

    `source` is the dedented `def` (no decorators) starting at `first_line` of
    `filename`; `file_lines` are the file's lines (for messages); `is_method`
    when it is defined in a class body; `original` the `ast` node of the def,
    for the report.
    """
    node = _parse(source, first_line)
    if is_method:
        _explicit_super(node)
    info = parser.SourceInfo(filename, first_line, list(file_lines or source.splitlines(True)))
    fn = _stand_in(source, filename, name)
    ctx = _SourceContext(fn, node, info, bindings or ModuleBindings(ast.Module([], [])))
    try:
        node = conversion.convert_tree(node, ctx)
    except ConversionError as e:
        raise NotConvertible(e.reason) from None
    text = conversion.unparse(node)
    report = []
    if want_report and original is not None:
        report = cli_report.statement_report(original, node, filename, info.lines)
    return f"{MARKER}\n{text}", report
