"""Continue statements become a flag that skips the rest of the body.

    for x in xs:                    for x in xs:
        if x < 0:                       continue_ = False
            x = -x                      if x < 0:
            continue        ->              x = -x
        s += x                              continue_ = True
                                        if not continue_:
                                            s += x

A bare `if x < 0: continue` becomes `if not x < 0: s += x`, with no flag.
"""

import gast

from ..pyct import ast_util
from . import jumps


class _Continues(ast_util.StatementTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def _loop(self, node):
        self.generic_visit(node)
        if not ast_util.contains(node.body, gast.Continue, through_loops=False):
            return node
        flag = self.ctx.namer.new("continue_")
        self.ctx.flag_names.add(flag)
        body = jumps.guard(node.body, gast.Continue, flag) or [gast.Pass()]
        if any(isinstance(n, gast.Name) and n.id == flag for n in ast_util.walk_scope(body)):
            body = ast_util.located([ast_util.assign(flag, ast_util.constant(False))],
                                    ast_util.user_line(node)) + body
        node.body = body
        return node

    visit_While = visit_For = _loop


def transform(node, ctx):
    return _Continues(ctx).visit(node)
