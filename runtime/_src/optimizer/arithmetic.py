"""Arithmetic simplification: drop ops that return one of their inputs
unchanged, bit for bit.

Before:                               After:
    %0 = const 1 : int32[]                return %x
    %1 = mul %x, %0 : int32[]
    %2 = neg %1 : int32[]
    %3 = neg %2 : int32[]
    %4 = identity %3 : int32[]
    return %4

Only exact identities are used: nothing that changes NaN, inf, the sign of
zero, or integer overflow. So `x * 0` is *not* 0 (NaN * 0 is NaN), float
`x + 0` is *not* x (-0.0 + 0.0 is +0.0; `x + -0.0` is), and a rule applies
only when the result has x's dtype and shape (a broadcasting `x * ones([3])`
on a scalar x stays).
"""

import numpy as np

from runtime._src.optimizer.rewrite import substitute_nodes

__all__ = ["run", "CONSTANT_RULES", "CHAIN_RULES", "PASSTHROUGH_RULES"]


def _every(mask):
    """np.all(mask) as a bool; a scalar (what most constants are) without
    numpy's dispatch through np.all."""
    if getattr(mask, "ndim", 0) == 0:
        return bool(mask)
    return bool(mask.all())


def _all_ones(value, dtype):
    return _every(value == 1)


def _additive_identity(value, dtype):
    """0 for ints and bools; only -0.0 for floats (x + -0.0 == x bitwise)."""
    if dtype.is_floating:
        return _every(value == 0) and _every(np.signbit(value))
    return _every(value == 0)


def _subtractive_identity(value, dtype):
    """0 for ints; only +0.0 for floats (x - 0.0 == x bitwise, -0.0 - 0.0 = -0.0)."""
    if dtype.is_floating:
        return _every(value == 0) and _every(~np.signbit(value))
    return _every(value == 0)


def _int_ones(value, dtype):
    return dtype.is_integer and _all_ones(value, dtype)


# (op, index of the constant operand, test on the constant) -> the other operand.
# A test gets the constant's value as `_test_value` gives it: a Python scalar
# for a 0-d numeric array (the commonest constant), else an array.
CONSTANT_RULES = [
    ("Mul", 1, _all_ones),                # x * 1 -> x
    ("Mul", 0, _all_ones),                # 1 * x -> x
    ("AddV2", 1, _additive_identity),     # x + 0 -> x   (floats: x + -0.0 only)
    ("AddV2", 0, _additive_identity),     # 0 + x -> x   (floats: -0.0 + x only)
    ("Sub", 1, _subtractive_identity),    # x - 0 -> x   (floats: x - +0.0 only)
    ("RealDiv", 1, _all_ones),            # x / 1 -> x
    ("FloorDiv", 1, _int_ones),           # x // 1 -> x  (ints only)
    ("Pow", 1, _all_ones),                # x ** 1 -> x
]

# (outer op, inner op): outer(inner(x)) -> x.
CHAIN_RULES = [
    ("Neg", "Neg"),                       # -(-x) -> x
    ("LogicalNot", "LogicalNot"),         # not (not x) -> x
]

# (op, test on (node, x)): op(x) -> x.
PASSTHROUGH_RULES = [
    ("Identity", lambda node, x: True),                               # identity(x) -> x
    ("Cast", lambda node, x: node.outputs[0].dtype == x.dtype),       # cast(x, x.dtype) -> x
]


# The ops some rule applies to: other nodes are skipped at once.
_RULE_OPS = frozenset([op for op, _, _ in CONSTANT_RULES] + [outer for outer, _ in CHAIN_RULES]
                      + [op for op, _ in PASSTHROUGH_RULES])


def run(graph):
    """Apply the rules to `graph` in place; return messages."""
    if not _some_node_simplifies(graph):
        return []             # most graphs: an AddV2 or Mul, but by no neutral constant
    return substitute_nodes(graph, _replacement, _RULE_OPS)


def _some_node_simplifies(graph):
    """True when a rule applies to a node of `graph` as it stands. Until its
    first replacement the pass sees the nodes as they are: when no node
    simplifies now, the pass replaces nothing (cheaper to know first)."""
    for node in graph.nodes:
        if node.op in _RULE_OPS and _simplify(node) is not None:
            return True
    return False


def _replacement(node):
    if node.op not in _RULE_OPS:      # most nodes: no rule applies
        return None
    found = _simplify(node)
    if found is None:
        return None
    x, rule = found
    return [x], f"{rule}: replaced {node.name} by {x.name}"


def _simplify(node):
    """(replacement tensor, rule text) for `node`, or None. (The rules of
    its op only, in the lists' order: see _BY_OP.)"""
    op = node.op
    rules = _BY_OP.get(op)
    if rules is None or node.stateful or len(node.outputs) != 1:
        return None
    out = node.outputs[0]
    constant, chains, passthrough = rules
    if len(node.inputs) == 2:
        for const_index, test in constant:
            c, x = node.inputs[const_index], node.inputs[1 - const_index]
            if c.node.op == "Const" and _same_type(out, x, c) \
                    and test(_test_value(c.node.attrs["value"]), x.dtype):
                return x, f"{op} by a neutral constant"
    for inner in chains:
        if len(node.inputs) == 1 and node.inputs[0].node.op == inner:
            x = node.inputs[0].node.inputs[0]
            if _same_type(out, x):
                return x, f"{op}({inner}(x))"
    for test in passthrough:
        if len(node.inputs) >= 1:
            x = node.inputs[0]
            if _same_type(out, x) and test(node, x):
                return x, f"{op} of the same type"
    return None


def _test_value(value):
    """`value` as a rule's test reads it: a 0-d boolean, integer or float
    array as its Python scalar (`.item()`, equal to it: numpy's comparison
    of a 0-d array costs about ten times more), else `np.asarray(value)`."""
    if value.__class__ is np.ndarray and value.ndim == 0 and value.dtype.kind in "biuf":
        return value.item()
    return np.asarray(value)


def _rules_by_op():
    """{op: ([(constant index, test)], [inner op], [test])}: each list's
    rules for that op, in order."""
    found = {op: ([], [], []) for op in _RULE_OPS}
    for op, const_index, test in CONSTANT_RULES:
        found[op][0].append((const_index, test))
    for outer, inner in CHAIN_RULES:
        found[outer][1].append(inner)
    for op, test in PASSTHROUGH_RULES:
        found[op][2].append(test)
    return found


_BY_OP = _rules_by_op()


def _same_type(out, x, const=None):
    """True when replacing `out` by `x` keeps dtype and shape exactly."""
    if out.dtype != x.dtype:
        return False
    if const is None:  # unary elementwise ops keep their input's shape
        return out.shape.dims == x.shape.dims
    value = const.node.attrs["value"]
    if (value.ndim if isinstance(value, (np.ndarray, np.generic)) else np.ndim(value)) == 0:
        return True  # a scalar never changes the other operand's shape
    return x.shape.is_fully_defined() and out.shape.dims == x.shape.dims
