"""Directives: `set_loop_options(...)` as the first statement(s) of a loop
body is removed, and its arguments go to the loop operator as `opts`.

    while i < n:                                  while i < n:
        tf.autograph.experimental.set_loop_options(       i += 1
            maximum_iterations=3)            ->   (the loop node keeps LOOP_OPTIONS:
        i += 1                                     {'maximum_iterations': <3>}, and
                                                   the control-flow converter writes
                                                   opts={'maximum_iterations': 3})

The call is recognised by what its function is (resolved from the
function's globals and closure when converting), whatever the name it is
reached by. Anywhere else (after another statement of the body, outside a
loop) it is an error (a SyntaxError, which conversion reports as a
ConversionError naming the function), as in TensorFlow.
"""

import gast

from ..operators import directives
from ..pyct import anno, ast_util

LOOP_OPTIONS = "loop_options"       # annotation of a loop: {option name: expression}


def _directive(stmt, ctx):
    """The call of stmt when it is a set_loop_options call, else None."""
    if not (isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call)):
        return None
    found, value = ctx.resolve(stmt.value.func)
    return stmt.value if found and value is directives.set_loop_options else None


def _options(call, ctx):
    """{option name: expression} of a set_loop_options call."""
    where = _where(call, ctx)
    if len(call.args) > len(directives.LOOP_OPTIONS) or any(
            isinstance(a, gast.Starred) for a in call.args) or any(
            k.arg is None for k in call.keywords):
        raise SyntaxError(f"set_loop_options takes the options {', '.join(directives.LOOP_OPTIONS)}"
                          f" as arguments written out ({where})")
    options = dict(zip(directives.LOOP_OPTIONS, call.args))
    for k in call.keywords:
        if k.arg not in directives.LOOP_OPTIONS:
            raise SyntaxError(f"set_loop_options got an unknown option {k.arg!r}; the options are "
                              f"{', '.join(directives.LOOP_OPTIONS)} ({where})")
        if k.arg in options:
            raise SyntaxError(f"set_loop_options got {k.arg!r} twice ({where})")
        options[k.arg] = k.value
    return options


def _where(node, ctx):
    line = ast_util.user_line(node) or getattr(node, "lineno", 0)
    return f"{ctx.info.filename}:{line}: {ctx.info.line_text(line)}"


class _Directives(ast_util.StatementTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def _loop(self, node):
        options = {}
        body = list(node.body)
        while body and (call := _directive(body[0], self.ctx)) is not None:
            options.update(_options(call, self.ctx))
            body.pop(0)
        if options:
            anno.setanno(node, LOOP_OPTIONS, options)
            node.body = body or ast_util.located([gast.Pass()], ast_util.user_line(node))
        return self.generic_visit(node)

    visit_While = visit_For = _loop

    def visit_Expr(self, node):
        if _directive(node, self.ctx) is not None:
            raise SyntaxError(f"set_loop_options must be the first statement of a loop body "
                              f"({_where(node, self.ctx)}): move it to the top of the loop "
                              f"it sets options for")
        return node


def transform(node, ctx):
    return _Directives(ctx).visit(node)
