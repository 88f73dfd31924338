"""Converting a function given as SOURCE TEXT, without importing or running it.

`to_code` takes a live function. Tools that must not import the user's module
(the `autograph` command line) have only the file's text; `convert_source`
parses one `def`, builds the conversion `Context` around a stand-in for the
function (its code object compiled from the text, never executed), runs the
same converter pipeline as `to_code` (`conversion.convert_tree`) and unparses
the result. The public entry point is `autograph.convert_source` (impl/api.py).

    result = convert_function_source(
        "def f(x):\\n    if x:\\n        x = -x\\n    return x\\n", "m.py")
    result.text      # '@autograph.do_not_convert\\ndef f(x): ...'
    result.imports   # ('import autograph', 'from autograph import operators as ag__')

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
import re
import sys
import types
from dataclasses import dataclass, field

import gast

from ..pyct import anno, parser, pauses
from . import conversion, source_report
from .checks import ConversionError

__all__ = ["convert_function_source", "SourceConversion", "ModuleBindings", "MARKER",
           "IMPORTS"]

# Converted functions carry this decorator, so that `runtime.function` and
# `ag__.call` run them as written instead of converting converted code again.
MARKER = "@autograph.do_not_convert"
# What converted source needs at the top of its module.
IMPORTS = ("import autograph",) + tuple(
    line for line in conversion._HEADER.splitlines() if line.strip())



@dataclass(frozen=True)
class SourceConversion:
    """The converted `def` (`text`, starting with `@autograph.do_not_convert`),
    the per-statement report lines (when asked for), and the import lines the
    text needs at the top of its module."""
    text: str
    report: list = field(default_factory=list)
    imports: tuple = IMPORTS


_SAFE_LIBRARIES = frozenset({"numpy", "runtime", "autograph", "gast"})


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
            except Exception:  # noqa: BLE001 - a library that fails to import: decide at run time
                value = None
            if value is not None:
                self.libraries[bound] = value
                return
        self.names.add(bound)


_LAST_MODULE = [None, None, None]    # (module text, bindings, lines): one file at a time
_LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _module_facts(module):
    """(ModuleBindings, lines) of the module text (cached for the last one)."""
    if module is None:
        return ModuleBindings(ast.Module([], [])), None
    if _LAST_MODULE[0] is not module:
        _LAST_MODULE[:] = [module, ModuleBindings(ast.parse(module)),
                           _LINE_RE.findall(module)]
    return _LAST_MODULE[1], _LAST_MODULE[2]


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


def _module_text(source):
    """(text that parses as a module, lines added above `source`).

    An indented def (a method) goes under `if True:` instead of being
    dedented: dedenting would change the text of its multi-line strings.
    """
    if source[:1] in (" ", "\t"):
        return "if True:\n" + source, 1
    return source, 0


def _only_statement(body, added):
    """The one statement of a parsed `_module_text` (None if there are more)."""
    if added:
        body = body[0].body           # under the `if True:`
    return body[0] if len(body) == 1 else None


def _stand_in(text, filename, name):
    """A function object for the Context: the def's code, compiled, not run."""
    module_code = compile(text, filename, "exec", dont_inherit=True)
    code = next(c for c in module_code.co_consts
                if isinstance(c, types.CodeType) and c.co_name == name)
    return types.FunctionType(code, {"__builtins__": builtins}, name)


def _shift(tree, first_line, annotate):
    for n in (gast.walk(tree) if annotate else ast.walk(tree)):
        if getattr(n, "lineno", None) is not None:
            n.lineno += first_line - 1
            if getattr(n, "end_lineno", None) is not None:
                n.end_lineno += first_line - 1
            if annotate:
                anno.setanno(n, anno.USER_LINE, n.lineno, replace=True)
    return tree


def _the_def(text, added, filename, first_line):
    """The only statement of `text`, a `def` (a ConversionError otherwise)."""
    node = _only_statement(gast.parse(text).body, added)
    if not isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)):
        raise ConversionError(
            f"{filename}:{first_line}: expected the source of one function (a `def`)",
            reason="the source is not one function definition")
    node = _shift(node, first_line - added, annotate=True)
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
    for n in _walk_own(node):
        if (isinstance(n, gast.Call) and isinstance(n.func, gast.Name) and n.func.id == "super"
                and not n.args and not n.keywords):
            n.args = [gast.Name("__class__", gast.Load(), None, None),
                      gast.Name(args[0].id, gast.Load(), None, None)]


def _walk_own(node):
    """Nodes of `node`'s body, not descending into nested defs, lambdas, classes."""
    stack = list(node.body)
    while stack:
        n = stack.pop()
        yield n
        stack.extend(c for c in gast.iter_child_nodes(n)
                     if not isinstance(c, (gast.FunctionDef, gast.AsyncFunctionDef,
                                           gast.Lambda, gast.ClassDef)))


def convert_function_source(source, filename="<string>", first_line=1, module=None,
                            method=False, report=False):
    """The SourceConversion of one `def` given as text (see api.convert_source).

    Runs under the conversion lock, with the recursion limit conversion uses
    (trees of long expressions are deep). Raises ConversionError when the
    function cannot be converted.
    """
    with conversion._LOCK, pauses.deep_recursion():
        return _convert(source, filename, first_line, module, method, report)


def _convert(source, filename, first_line, module, method, report):
    text, added = _module_text(source)
    node = _the_def(text, added, filename, first_line)
    if method:
        _explicit_super(node)
    bindings, lines = _module_facts(module)
    if lines is None:
        lines = [""] * (first_line - 1) + source.splitlines(True)
    info = parser.SourceInfo(filename, first_line, lines)
    fn = _stand_in(text, filename, node.name)
    found = conversion.user_comments(node, info)
    ctx = _SourceContext(fn, node, info, bindings)
    node = conversion.convert_tree(node, ctx)
    converted = conversion.unparse(node, found)
    lines_report = []
    if report:
        original = _shift(_only_statement(ast.parse(text).body, added), first_line - added,
                          annotate=False)
        lines_report = source_report.statement_report(original, node, filename, info.lines)
    return SourceConversion(f"{MARKER}\n{converted}", lines_report)
