"""Break statements become a flag checked by the loop.

    while x > 0:                    break_ = False
        if x == 5:                  while x > 0:       # extra test: not break_
            break                       if x == 5:
        x -= 1              ->              break_ = True
    else:                               if not break_:
        done()                              x -= 1
                                    if not break_:
                                        done()

A loop `else:` without any break simply follows the loop. The loop's extra
test (`anno.EXTRA_LOOP_TEST`) is turned into code by the control-flow
converter.
"""

import gast

from ..pyct import anno, ast_util
from . import jumps


class _Breaks(ast_util.StatementTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def _loop(self, node):
        self.generic_visit(node)
        line = ast_util.user_line(node)
        orelse, node.orelse = node.orelse, []
        if not ast_util.contains(node.body, gast.Break, through_loops=False):
            return [node] + orelse
        flag = self.ctx.namer.new("break_")
        self.ctx.flag_names.add(flag)
        node.body = jumps.guard(node.body, gast.Break, flag) or [gast.Pass()]
        tests = anno.getanno(node, anno.EXTRA_LOOP_TEST, [])
        anno.setanno(node, anno.EXTRA_LOOP_TEST,
                     tests + [ast_util.not_(ast_util.name(flag))], replace=True)
        out = ast_util.located([ast_util.assign(flag, ast_util.constant(False))], line) + [node]
        if orelse:
            out += ast_util.located([ast_util.if_(ast_util.not_(ast_util.name(flag)), orelse)],
                                    line)
        return out

    visit_While = visit_For = _loop


def transform(node, ctx):
    return _Breaks(ctx).visit(node)
