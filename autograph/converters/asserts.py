"""Assert statements become `assert_stmt`, which stages a graph assertion
when the condition is a tensor.

    assert x > 0, "x must be positive"
    ->  ag__.assert_stmt(x > 0, lambda: 'x must be positive')
"""


from ..pyct import ast_util, templates


class _Asserts(ast_util.StatementTransformer):
    def visit_Assert(self, node):
        self.generic_visit(node)
        if node.msg is None:
            new = templates.replace("ag__.assert_stmt(test)", test=node.test)
        else:
            new = templates.replace("ag__.assert_stmt(test, lambda: msg)", test=node.test, msg=node.msg)
        return ast_util.located(new, ast_util.user_line(node))


def transform(node, ctx):
    return _Asserts().visit(node)
