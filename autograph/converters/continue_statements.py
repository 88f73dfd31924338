"""Continue statements become a flag that skips the rest of the body.

    for x in xs:                    for x in xs:
        if x < 0:                       continue_ = False
            continue        ->          if x < 0:
        s += x                              continue_ = True
                                        if not continue_:
                                            s += x
"""

import gast

from ..pyct import ast_util, templates
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
        init = ast_util.located(templates.replace(f"{flag} = False"), ast_util.user_line(node))
        node.body = init + jumps.guard(node.body, gast.Continue, flag)
        return node

    visit_While = visit_For = _loop


def transform(node, ctx):
    return _Continues(ctx).visit(node)
