"""Return statements become an assignment to `retval_`; the function ends
with a single `return retval_`.

    def f(x):                       def f(x):
        if x > 0:                       if x > 0:
            return x                        retval_ = x
        return -x           ->          else:
                                            retval_ = -x
                                        return retval_

What follows an `if` whose branch always returns moves into the other
branch. Elsewhere (returns inside loops, or an `if` that returns on some
paths only) a `do_return` flag stops the loop and guards what follows:

    for x in xs:                    do_return = False
        if x > 0:                   for x in xs:        # extra test: not do_return
            return x        ->          if x > 0:
    return 0                                do_return = True
                                            retval_ = x
                                    if not do_return:
                                        retval_ = 0
                                    return retval_

Inside a `try`, `retval_` is assigned before the flag is set: when the
value raises and an `except` clause goes on, the function has not returned.

`retval_` starts as None only when some path falls off the end of the
function (Python returns None there). A function whose only return is its
last statement is left alone.
"""

import gast

from ..pyct import anno, ast_util, templates


class _Returns:
    def __init__(self, ctx, retval, flag):
        self.ctx = ctx
        self.retval = retval
        self.flag = flag
        self.flag_used = False
        self.in_try = 0         # inside a try statement: a return's value may raise

    def block(self, stmts):
        out = []
        for i, s in enumerate(stmts):
            rest = stmts[i + 1:]
            line = ast_util.user_line(s)
            if isinstance(s, gast.Return):
                value = s.value if s.value is not None else ast_util.constant(None)
                if self.in_try:
                    # The value first: if it raises and an except clause goes
                    # on, the function has not returned (`return f()` in try).
                    template = "retval = value\nflag = True"
                else:
                    template = "flag = True\nretval = value"
                new = templates.replace(template, value=value, retval=self.retval,
                                        flag=self.flag)
                out.extend(ast_util.located(new, line))
                return out
            if not ast_util.contains([s], gast.Return):
                out.append(s)
                continue
            if isinstance(s, gast.If):
                body_exits, else_exits = ast_util.always_exits(s.body), ast_util.always_exits(s.orelse)
                if body_exits and not else_exits:
                    s.body, s.orelse = self.block(s.body), self.block(s.orelse + rest)
                    return out + [s]
                if else_exits and not body_exits:
                    s.body, s.orelse = self.block(s.body + rest), self.block(s.orelse)
                    return out + [s]
                s.body, s.orelse = self.block(s.body), self.block(s.orelse)
                out.append(s)
                if body_exits and else_exits:
                    return out
            else:
                self._inside(s)
                out.append(s)
            if rest:
                self.flag_used = True
                guard = templates.replace("if not flag:\n    rest", flag=self.flag,
                                          rest=self.block(rest))
                out.extend(ast_util.located(guard, ast_util.user_line(rest[0])))
            return out
        return out

    def _inside(self, s):
        if isinstance(s, ast_util.LOOPS):
            s.body = self.block(s.body) or [gast.Pass()]
            self.flag_used = True
            tests = anno.getanno(s, anno.EXTRA_LOOP_TEST, [])
            anno.setanno(s, anno.EXTRA_LOOP_TEST,
                         tests + [templates.replace_as_expression("not flag", flag=self.flag)], replace=True)
        elif isinstance(s, (gast.With, gast.AsyncWith)):
            s.body = self.block(s.body) or [gast.Pass()]
        elif isinstance(s, gast.Match):
            for case in s.cases:
                case.body = self.block(case.body) or [gast.Pass()]
        elif isinstance(s, gast.Try):
            self.in_try += 1
            returns = ast_util.contains(s.body, gast.Return)
            s.body = self.block(s.body) or [gast.Pass()]
            for h in s.handlers:
                h.body = self.block(h.body) or [gast.Pass()]
            orelse = self.block(s.orelse)
            if orelse and returns:
                # A return from the try body skips its else clause.
                self.flag_used = True
                orelse = templates.replace("if not flag:\n    orelse", flag=self.flag, orelse=orelse)
            s.orelse = orelse
            s.finalbody = self.block(s.finalbody)
            self.in_try -= 1


class _DropFlag(ast_util.NodeTransformer):
    """Remove assignments to the flag when nothing reads it."""

    def __init__(self, flag):
        self.flag = flag

    def visit_Assign(self, node):
        t = node.targets[0]
        if len(node.targets) == 1 and isinstance(t, gast.Name) and t.id == self.flag:
            return None
        return node

    def visit_FunctionDef(self, node):
        return node    # nested functions have their own flags


def _convert_function(node, ctx):
    returns = [n for n in ast_util.walk_scope(node.body) if isinstance(n, gast.Return)]
    if not returns or (len(returns) == 1 and node.body[-1] is returns[0]):
        return node
    line = ast_util.user_line(node)
    conv = _Returns(ctx, ctx.namer.new("retval_"), ctx.namer.new("do_return"))
    ctx.return_names.add(conv.retval)
    ctx.flag_names.add(conv.flag)
    falls_off = not ast_util.always_exits(node.body)
    body = conv.block(node.body)
    prefix = []
    if conv.flag_used:
        prefix += templates.replace("flag = False", flag=conv.flag)
    else:
        body = [_DropFlag(conv.flag).visit(s) for s in body]
        body = [s for s in body if s is not None]
    if falls_off:
        prefix += templates.replace("retval = None", retval=conv.retval)
    node.body = (ast_util.located(prefix, line) + body
                 + ast_util.located(templates.replace("return retval", retval=conv.retval), line))
    return node


class _Functions(ast_util.StatementTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def visit_FunctionDef(self, node):
        self.generic_visit(node)
        return _convert_function(node, self.ctx)


def transform(node, ctx):
    return _Functions(ctx).visit(node)
