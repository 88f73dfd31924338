"""Conditional expressions become `if_exp`, which stages a `cond` on tensors.

    y = a if x > 0 else b   ->   y = ag__.if_exp(x > 0, lambda: a, lambda: b)
"""


from ..pyct import ast_util, templates


class IfExpRewriter(ast_util.NodeTransformer):
    def visit_IfExp(self, node):
        self.generic_visit(node)
        return templates.replace_as_expression(
            "ag__.if_exp(test, lambda: body, lambda: orelse)",
            test=node.test, body=node.body, orelse=node.orelse)
