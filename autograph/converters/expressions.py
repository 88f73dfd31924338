"""The expression rewrites, run as one converter after control flow: one
bottom-up walk applies the rewriters of three modules,

    x if c else y       ->  ag__.if_exp(c, lambda: x, lambda: y)   conditional_expressions
    a and b, not a      ->  ag__.and_(a, lambda: b), ag__.not_(a)  logical_expressions
    y  (maybe unbound)  ->  ag__.ld(y)                              variables

Every visit rewrites a node after its children, and no rewrite creates a node
another one matches, so the one walk gives the tree the three would give in
turn. They run after control flow because they may rewrite the tests the
control-flow converter moved into `loop_test` functions, and `variables`
needs the names that converter gave an `Undefined` placeholder.
"""

from .conditional_expressions import IfExpRewriter
from .logical_expressions import LogicalRewriter
from .variables import UndefinedLoadRewriter

__all__ = ["ExpressionRewriter", "transform"]


class ExpressionRewriter(IfExpRewriter, LogicalRewriter, UndefinedLoadRewriter):
    """`x if c else y`, `and`/`or`/`not`/chained comparisons and possibly
    unbound reads, rewritten in one walk."""


def transform(node, ctx):
    return ExpressionRewriter(ctx).visit(node)
