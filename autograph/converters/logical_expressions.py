"""`and`, `or`, `not` and chained comparisons become operators that keep
Python's short-circuit evaluation and work on tensors.

    a and b and c      ->  ag__.and_(a, lambda: b, lambda: c)
    a or b             ->  ag__.or_(a, lambda: b)
    not a              ->  ag__.not_(a)
    0 < x < n          ->  ag__.and_(0 < x, lambda: x < n)

A chained comparison is split only when its middle operands are names or
constants, which can be evaluated twice without changing the meaning. An
`and`/`or` whose later operands hold `:=` stays as it is: in a lambda the
assignment would bind inside the lambda.
"""

import copy

import gast

from ..pyct import ast_util


class LogicalRewriter(ast_util.NodeTransformer):
    def visit_BoolOp(self, node):
        self.generic_visit(node)
        if any(isinstance(n, gast.NamedExpr) for v in node.values[1:] for n in ast_util.walk(v)):
            # `a and (v := f())`: in a lambda, := would bind v inside it, so
            # the expression stays Python's `and` / `or`.
            return node
        op = "and_" if isinstance(node.op, gast.And) else "or_"
        return ast_util.operator_call(
            op, [node.values[0]] + [ast_util.lambda_(v) for v in node.values[1:]])

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, gast.Not):
            return ast_util.operator_call("not_", [node.operand])
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        middle = node.comparators[:-1]
        if len(node.ops) < 2 or not all(isinstance(m, (gast.Name, gast.Constant)) for m in middle):
            return node
        left = node.left
        parts = []
        for op, right in zip(node.ops, node.comparators):
            parts.append(gast.Compare(left=left, ops=[op], comparators=[right]))
            left = copy.deepcopy(right)       # a middle operand: a name or a constant
        return ast_util.operator_call("and_", [parts[0]] + [ast_util.lambda_(p) for p in parts[1:]])
