"""Reads of variables that may be unbound go through `ld`.

Control flow passes its variables in and out of functions, so a variable not
yet bound holds an `ag__.Undefined` placeholder. A read that may see the
placeholder raises the same UnboundLocalError Python would:

    if c:                                 y = ag__.Undefined('y')
        y = 1                  ->         ... if_stmt ...
    return y                              return ag__.ld(y)

Only reads that definedness analysis marked MAYBE_UNDEFINED, of names given a
placeholder by the control-flow converter, are wrapped. The return value slot
is never wrapped: `do_return` guarantees it is set when it is read.
"""

import gast

from ..pyct import anno, ast_util, templates


class UndefinedLoadRewriter(ast_util.NodeTransformer):
    def __init__(self, ctx):
        super().__init__()
        self.ctx = ctx

    def visit_Name(self, node):
        if (isinstance(node.ctx, gast.Load) and node.id in self.ctx.undefined_names
                and node.id not in self.ctx.return_names
                and anno.getanno(node, anno.MAYBE_UNDEFINED, False)):
            return templates.replace_as_expression("ag__.ld(name)", name=node.id)
        return node
