"""gast trees back to Python source, with the line each statement lands on.

    source, lines = unparse_with_lines(fn_node)
    source            # what ast.unparse(gast.gast_to_ast(fn_node)) returns, plus "\\n"
    lines[3]          # the user's line (anno.USER_LINE) of the statement that
                      # starts on line 3 of `source`

The text is produced by the standard library's unparser (`ast.unparse`'s
class), so it is exactly what `ast.unparse` writes. Two things make it
cheaper than `gast.gast_to_ast` + `ast.unparse` + re-parsing the text to find
the statements' lines:

- `to_ast` converts gast to ast in one small recursive function (gast's own
  converter is a generic NodeTransformer that copies every field and
  position; the unparser needs neither positions nor gast-only fields);
- `_LineUnparser` notes, each time a statement starts a new line, which
  statement it is, so the line table comes out of the same pass.
"""

import ast

import gast

from . import anno

__all__ = ["unparse_with_lines", "to_ast"]

# gast class -> (ast class, fields the ast class has), filled on first use.
_CLASSES = {}
_CONTEXTS = {gast.Load: ast.Load(), gast.Store: ast.Store(), gast.Del: ast.Del()}
_LINE = "_ag_user_line"          # attribute of converted ast statements


def _ast_class(cls):
    found = _CLASSES.get(cls)
    if found is None:
        target = getattr(ast, cls.__name__, None)
        found = _CLASSES[cls] = (target, target._fields if target is not None else ())
    return found


def to_ast(node):
    """The ast tree for a gast tree (no positions; statements, except
    handlers and Match keep their anno.USER_LINE as an attribute)."""
    if node.__class__ is list:
        return [to_ast(n) for n in node]
    if not isinstance(node, gast.AST):
        return node
    cls = node.__class__
    context = _CONTEXTS.get(cls)
    if context is not None:
        return context
    if cls is gast.arguments:
        return _arguments(node)
    if cls is gast.ExceptHandler:
        new = ast.ExceptHandler(type=to_ast(node.type),
                                name=node.name.id if node.name is not None else None,
                                body=to_ast(node.body))
    else:
        target, fields = _ast_class(cls)
        if target is None:
            raise TypeError(f"cannot unparse a gast.{cls.__name__} node")
        values = node.__dict__
        kwargs = {}
        for field in fields:
            value = values.get(field)
            if value.__class__ is list:
                value = [to_ast(v) for v in value]
            elif isinstance(value, gast.AST):
                value = to_ast(value)
            kwargs[field] = value
        new = target(**kwargs)
    if isinstance(node, (gast.stmt, gast.excepthandler)):
        new.lineno = 0               # read by the unparser's type-comment lookup only
        line = anno.getanno(node, anno.USER_LINE, None)
        if line is not None:
            setattr(new, _LINE, line)
    return new


def _arg(name):
    if name is None:
        return None
    return ast.arg(arg=name.id, annotation=to_ast(name.annotation),
                   type_comment=getattr(name, "type_comment", None))


def _arguments(node):
    """gast keeps parameters as Name nodes; ast wants `arg` nodes."""
    return ast.arguments(posonlyargs=[_arg(a) for a in node.posonlyargs],
                         args=[_arg(a) for a in node.args], vararg=_arg(node.vararg),
                         kwonlyargs=[_arg(a) for a in node.kwonlyargs],
                         kw_defaults=to_ast(node.kw_defaults), kwarg=_arg(node.kwarg),
                         defaults=to_ast(node.defaults))


class _LineUnparser(ast._Unparser):
    """ast's unparser, noting the line each statement starts on.

    Every statement's text starts with `fill` (a new line); `traverse` marks
    the statement about to be filled. Three starts do not go through
    `traverse`: a docstring, decorators (the statement's line is the `def`
    line, as ast.parse numbers it) and `elif` (a nested If)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)   # f-strings make inner unparsers with options
        self.lines = {}              # generated line -> user line
        self._pending = None         # user line of the statement about to start
        self._elifs = []             # user lines of elif branches, in text order
        self._counted = 0            # parts of _source whose newlines are counted
        self._newlines = 0

    def traverse(self, node):
        if isinstance(node, (ast.stmt, ast.excepthandler)):
            self._pending = getattr(node, _LINE, None)
        super().traverse(node)

    def visit_If(self, node):
        chain = []
        inner = node
        while inner.orelse and len(inner.orelse) == 1 and isinstance(inner.orelse[0], ast.If):
            inner = inner.orelse[0]
            chain.append(getattr(inner, _LINE, None))
        self._elifs[:0] = chain
        super().visit_If(node)

    def _write_docstring_and_traverse_body(self, node):
        if self.get_raw_docstring(node):
            self._pending = getattr(node.body[0], _LINE, None)
        super()._write_docstring_and_traverse_body(node)

    def fill(self, text=""):
        super().fill(text)
        if text == "elif " and self._elifs:
            self._pending = self._elifs.pop(0)
        if self._pending is None or text.startswith("@"):
            return
        parts = self._source
        for i in range(self._counted, len(parts)):
            self._newlines += parts[i].count("\n")
        self._counted = len(parts)
        self.lines.setdefault(self._newlines + 1, self._pending)
        self._pending = None


def unparse_with_lines(node):
    """(source of the gast `node` ending in a newline, {line: user line})."""
    unparser = _LineUnparser()
    source = unparser.visit(to_ast(node)) + "\n"
    return source, unparser.lines
