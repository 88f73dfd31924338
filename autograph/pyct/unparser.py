"""gast trees back to Python source, with the line each statement lands on.

    source, lines = unparse_with_lines(fn_node)
    source            # what ast.unparse(gast.gast_to_ast(fn_node)) returns, plus "\\n"
    lines[3]          # the user's line (anno.USER_LINE) of the statement that
                      # starts on line 3 of `source`

The text is exactly what `ast.unparse` writes. Functions made only of the
statements and expressions converted code usually holds are written
directly from the gast tree by `_FastUnparser`, which mirrors the standard
library's unparser (Python 3.11) for those nodes; any other function goes
through the standard library's unparser class itself. Two things make that
path cheaper than `gast.gast_to_ast` + `ast.unparse` + re-parsing the text
to find the statements' lines:

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
    if isinstance(node, gast.stmt):
        fast = _FastUnparser()
        try:
            fast.stmts([node])
        except _Unsupported:
            pass
        else:
            return "".join(fast.parts) + "\n", fast.lines
    unparser = _LineUnparser()
    source = unparser.visit(to_ast(node)) + "\n"
    return source, unparser.lines


# --- the fast path ----------------------------------------------------------------
# A direct writer for the statements and expressions converted functions are
# made of, giving exactly `ast.unparse`'s text (Python 3.11's _Unparser:
# same precedence rules, parentheses, spacing and literals). Anything else
# (decorators, try, with, f-strings, comprehensions, ...) raises _Unsupported
# and the whole function goes through `_LineUnparser` instead.

class _Unsupported(Exception):
    pass


_P = ast._Precedence
_TUPLE, _YIELD, _TEST, _CMP, _EXPR, _FACTOR, _ATOM = (
    _P.TUPLE, _P.YIELD, _P.TEST, _P.CMP, _P.EXPR, _P.FACTOR, _P.ATOM)
_BINOPS = {getattr(gast, name): (text, ast._Unparser.binop_precedence[text])
           for name, text in ast._Unparser.binop.items()}
_UNOPS = {getattr(gast, name): (text, ast._Unparser.unop_precedence[text])
          for name, text in ast._Unparser.unop.items()}
_CMPOPS = {getattr(gast, name): text for name, text in ast._Unparser.cmpops.items()}
_BOOLOPS = {getattr(gast, name): (text, ast._Unparser.boolop_precedence[text])
            for name, text in ast._Unparser.boolops.items()}
_INFSTR = ast._INFSTR


def _plain_docstring(value):
    """The docstring literal ast.unparse writes for `value` when nothing in
    it is escaped (no backslash, only printable characters, newlines and
    tabs) and a triple quote it does not hold can enclose it; else None.
    (ast's writer escapes character by character, in Python.)"""
    if "\\" in value or not value.replace("\n", "").replace("\t", "").isprintable():
        return None
    quotes = [q for q in ast._MULTI_QUOTES if q not in value]
    if not quotes:
        return None
    if value:
        # A quote like the last character goes last; if it must be used, that
        # character is escaped.
        quotes.sort(key=lambda q: q[0] == value[-1])
        if quotes[0][0] == value[-1]:
            value = value[:-1] + "\\" + value[-1]
    return quotes[0] + value + quotes[0]


def _next(precedence):
    return precedence.next()


class _FastUnparser:
    """Source text of a gast function, and {line: user line} of its statements."""

    def __init__(self):
        self.parts = []
        self.write = self.parts.append
        self.line = 1
        self.indent = 0
        self.lines = {}

    def fill(self, text, node_line):
        """Start a new line (statement text `text`; `node_line` its user line)."""
        if self.parts:
            self.write("\n" + "    " * self.indent + text)
            self.line += 1
        else:
            self.write("    " * self.indent + text)
        if node_line is not None:
            self.lines.setdefault(self.line, node_line)

    # -- statements --
    def stmts(self, stmts):
        for s in stmts:
            method = _STATEMENTS.get(s.__class__)
            if method is None:
                raise _Unsupported(s.__class__.__name__)
            method(self, s)

    def block(self, stmts):
        self.write(":")
        self.indent += 1
        self.stmts(stmts)
        self.indent -= 1

    def function_def(self, node):
        if node.decorator_list or node.returns is not None or node.type_comment is not None \
                or getattr(node, "type_params", None):
            raise _Unsupported("def")
        if self.parts:
            self.write("\n")
            self.line += 1
        self.fill("def " + node.name, _user_line(node))
        self.write("(")
        self.arguments(node.args)
        self.write(")")
        self.write(":")
        self.indent += 1
        body = node.body
        first = body[0] if body else None
        if first.__class__ is gast.Expr and first.value.__class__ is gast.Constant \
                and isinstance(first.value.value, str):
            self.docstring(first)
            body = body[1:]
        self.stmts(body)
        self.indent -= 1

    def docstring(self, node):
        self.fill("", _user_line(node))
        if node.value.kind == "u":
            self.write("u")
        text = _plain_docstring(node.value.value)
        if text is None:
            writer = ast._Unparser()
            writer._write_str_avoiding_backslashes(node.value.value,
                                                   quote_types=ast._MULTI_QUOTES)
            text = "".join(writer._source)
        self.write(text)
        self.line += text.count("\n")

    def return_(self, node):
        if node.value is None:
            self.fill("return", _user_line(node))
        else:
            self.fill("return ", _user_line(node))
            self.expr(node.value, _TEST)

    def assign(self, node):
        if node.type_comment is not None:
            raise _Unsupported("type comment")
        self.fill("", _user_line(node))
        for target in node.targets:
            self.expr(target, _TUPLE)
            self.write(" = ")
        self.expr(node.value, _TEST)

    def aug_assign(self, node):
        self.fill("", _user_line(node))
        self.expr(node.target, _TEST)
        self.write(" " + _BINOPS[node.op.__class__][0] + "= ")
        self.expr(node.value, _TEST)

    def expr_stmt(self, node):
        self.fill("", _user_line(node))
        self.expr(node.value, _YIELD)

    def clause(self, head, node, test):
        """`head test:` and the indented body of `node`."""
        self.fill(head, _user_line(node))
        self.expr(test, _TEST)
        self.block(node.body)

    def orelse(self, orelse):
        if orelse:
            self.fill("else", None)
            self.block(orelse)

    def if_(self, node):
        self.clause("if ", node, node.test)
        while node.orelse and len(node.orelse) == 1 and node.orelse[0].__class__ is gast.If:
            node = node.orelse[0]
            self.clause("elif ", node, node.test)
        self.orelse(node.orelse)

    def while_(self, node):
        self.clause("while ", node, node.test)
        self.orelse(node.orelse)

    def for_(self, node):
        if node.type_comment is not None:
            raise _Unsupported("type comment")
        self.fill("for ", _user_line(node))
        self.expr(node.target, _TUPLE)
        self.write(" in ")
        self.expr(node.iter, _TEST)
        self.block(node.body)
        self.orelse(node.orelse)

    def keyword_stmt(self, node):
        self.fill(_KEYWORD_STATEMENTS[node.__class__], _user_line(node))

    # -- expressions (`precedence`: what the enclosing expression set) --
    def expr(self, node, precedence):
        if node.__class__ is gast.Name:     # `name`, in line: the commonest expression
            self.write(node.id)
            return
        method = _EXPRESSIONS.get(node.__class__)
        if method is None:
            raise _Unsupported(node.__class__.__name__)
        method(self, node, precedence)

    def name(self, node, precedence):
        self.write(node.id)

    def constant(self, node, precedence):
        value = node.value
        cls = value.__class__
        if cls in _REPR_WRITTEN and node.kind is None:
            self.write(repr(value))        # constant_value's text, without the call
        elif cls is tuple and all(v.__class__ in _REPR_WRITTEN for v in value):
            # The names tuples generated calls pass ('total',): each item
            # would be written as its repr, so the tuple is its repr.
            self.write(repr(value))
        elif isinstance(value, tuple):
            self.write("(")
            if len(value) == 1:
                self.constant_value(value[0])
                self.write(",")
            else:
                for i, v in enumerate(value):
                    if i:
                        self.write(", ")
                    self.constant_value(v)
            self.write(")")
        elif value is ...:
            self.write("...")
        else:
            if node.kind == "u":
                self.write("u")
            self.constant_value(value)

    def constant_value(self, value):
        if isinstance(value, (float, complex)):
            self.write(repr(value).replace("inf", _INFSTR)
                       .replace("nan", f"({_INFSTR}-{_INFSTR})"))
        else:
            self.write(repr(value))

    def open_paren(self, parens):
        """Write "(" when `parens`; return the text that closes it."""
        if parens:
            self.write("(")
            return ")"
        return ""

    def items(self, elts):
        text = _names_text(elts)
        if text:
            self.write(text)
        elif len(elts) == 1:
            self.expr(elts[0], _TEST)
            self.write(",")
        else:
            for i, e in enumerate(elts):
                if i:
                    self.write(", ")
                self.expr(e, _TEST)

    def tuple_(self, node, precedence):
        text = _names_text(node.elts)
        if text:                          # names only (state tuples): one write
            self.write("(" + text + ")" if precedence > _TUPLE else text)
            return
        close = self.open_paren(not node.elts or precedence > _TUPLE)
        self.items(node.elts)
        self.write(close)

    def list_(self, node, precedence):
        self.write("[")
        for i, e in enumerate(node.elts):
            if i:
                self.write(", ")
            self.expr(e, _TEST)
        self.write("]")

    def unary(self, node, precedence):
        text, own = _UNOPS[node.op.__class__]
        close = self.open_paren(precedence > own)
        self.write(text)
        if own is not _FACTOR:
            self.write(" ")
        self.expr(node.operand, own)
        self.write(close)

    def binary(self, node, precedence):
        text, own = _BINOPS[node.op.__class__]
        close = self.open_paren(precedence > own)
        if text == "**":
            left, right = _next(own), own
        else:
            left, right = own, _next(own)
        self.expr(node.left, left)
        self.write(f" {text} ")
        self.expr(node.right, right)
        self.write(close)

    def compare(self, node, precedence):
        close = self.open_paren(precedence > _CMP)
        self.expr(node.left, _EXPR)
        for op, e in zip(node.ops, node.comparators):
            self.write(" " + _CMPOPS[op.__class__] + " ")
            self.expr(e, _EXPR)
        self.write(close)

    def bool_op(self, node, precedence):
        text, own = _BOOLOPS[node.op.__class__]
        close = self.open_paren(precedence > own)
        level = own
        for i, v in enumerate(node.values):
            if i:
                self.write(f" {text} ")
            level = _next(level)
            self.expr(v, level)
        self.write(close)

    def attribute(self, node, precedence):
        value = node.value
        self.expr(value, _ATOM)
        if value.__class__ is gast.Constant and isinstance(value.value, int):
            self.write(" ")
        self.write(".")
        self.write(node.attr)

    def call(self, node, precedence):
        func = node.func
        if func.__class__ is _ATTRIBUTE and func.value.__class__ is _NAME:
            self.write(func.value.id + "." + func.attr + "(")   # `ag__.if_stmt(`
        else:
            self.expr(func, _ATOM)
            self.write("(")
        comma = False
        for e in node.args:
            if comma:
                self.write(", ")
            comma = True
            self.expr(e, _TEST)
        for k in node.keywords:
            if comma:
                self.write(", ")
            comma = True
            if k.arg is None:
                self.write("**")
            else:
                self.write(k.arg)
                self.write("=")
            self.expr(k.value, _TEST)
        self.write(")")

    def subscript(self, node, precedence):
        self.expr(node.value, _ATOM)
        self.write("[")
        s = node.slice
        if s.__class__ is gast.Tuple and s.elts:
            self.items(s.elts)
        else:
            self.expr(s, _TEST)
        self.write("]")

    def slice_(self, node, precedence):
        if node.lower is not None:
            self.expr(node.lower, _TEST)
        self.write(":")
        if node.upper is not None:
            self.expr(node.upper, _TEST)
        if node.step is not None:
            self.write(":")
            self.expr(node.step, _TEST)

    def starred(self, node, precedence):
        self.write("*")
        self.expr(node.value, _EXPR)

    def if_exp(self, node, precedence):
        close = self.open_paren(precedence > _TEST)
        self.expr(node.body, _next(_TEST))
        self.write(" if ")
        self.expr(node.test, _next(_TEST))
        self.write(" else ")
        self.expr(node.orelse, _TEST)
        self.write(close)

    def lambda_(self, node, precedence):
        close = self.open_paren(precedence > _TEST)
        self.write("lambda")
        mark = len(self.parts)
        self.write(" ")
        self.arguments(node.args)
        if len(self.parts) == mark + 1:     # no parameters: no space either
            self.parts.pop()
        self.write(": ")
        self.expr(node.body, _TEST)
        self.write(close)

    def arg(self, node):
        if node.__class__ is not gast.Name:
            raise _Unsupported("parameter")
        self.write(node.id)
        if node.annotation is not None:
            self.write(": ")
            self.expr(node.annotation, _TEST)

    def arguments(self, node):
        args = node.args
        if not (node.posonlyargs or node.defaults or node.vararg or node.kwonlyargs
                or node.kwarg):
            # Plain parameters (every function conversion makes): one write.
            ids = [a.id for a in args if a.__class__ is _NAME and a.annotation is None]
            if len(ids) == len(args):
                if ids:
                    self.write(", ".join(ids))
                return
        first = True
        all_args = node.posonlyargs + node.args
        defaults = [None] * (len(all_args) - len(node.defaults)) + node.defaults
        for index, (a, d) in enumerate(zip(all_args, defaults), 1):
            if first:
                first = False
            else:
                self.write(", ")
            self.arg(a)
            if d is not None:
                self.write("=")
                self.expr(d, _TEST)
            if index == len(node.posonlyargs):
                self.write(", /")
        if node.vararg is not None or node.kwonlyargs:
            if first:
                first = False
            else:
                self.write(", ")
            self.write("*")
            if node.vararg is not None:
                self.arg(node.vararg)
        for a, d in zip(node.kwonlyargs, node.kw_defaults):
            self.write(", ")
            self.arg(a)
            if d is not None:
                self.write("=")
                self.expr(d, _TEST)
        if node.kwarg is not None:
            if not first:
                self.write(", ")
            self.write("**")
            self.arg(node.kwarg)


def _user_line(node):
    annos = node.__dict__.get(_ANNOTATIONS)     # anno.getanno, in line: asked per line
    return None if annos is None else annos.get(_USER_LINE)


_ANNOTATIONS, _USER_LINE = anno.ANNOTATIONS, anno.USER_LINE


def _names_text(elts):
    """The text of the items `elts` when all are names (`a, b`, `a,`), else ""."""
    ids = [e.id for e in elts if e.__class__ is _NAME]
    if not ids or len(ids) != len(elts):
        return ""
    return ids[0] + "," if len(ids) == 1 else ", ".join(ids)


_NAME, _ATTRIBUTE = gast.Name, gast.Attribute
# Constants whose text (constant_value) is their repr.
_REPR_WRITTEN = frozenset((str, int, bool, type(None)))


_KEYWORD_STATEMENTS = {gast.Pass: "pass", gast.Break: "break", gast.Continue: "continue"}


def _table(pairs):
    """{gast class: _FastUnparser method} from "Class method" pairs."""
    return {getattr(gast, cls): getattr(_FastUnparser, method)
            for cls, method in (pair.split() for pair in pairs.split(","))}


_STATEMENTS = _table("FunctionDef function_def, Return return_, Assign assign, "
                     "AugAssign aug_assign, Expr expr_stmt, If if_, While while_, For for_, "
                     "Pass keyword_stmt, Break keyword_stmt, Continue keyword_stmt")
_EXPRESSIONS = _table("Name name, Constant constant, Tuple tuple_, List list_, UnaryOp unary, "
                      "BinOp binary, Compare compare, BoolOp bool_op, Attribute attribute, "
                      "Call call, Subscript subscript, Slice slice_, Starred starred, "
                      "IfExp if_exp, Lambda lambda_")
