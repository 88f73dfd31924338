"""Loop-invariant code motion: pure ops in a `While` loop's `cond` or `body`
that depend only on values captured from outside the loop (and constants)
are computed once, before the loop, and captured by the loop instead.

Before:                                   After:
    %w = ...                                  %w = ...
    %1, %2 = while %i, %s, %w {               %3 = sum %w : float32[]
      body(%i, %s; %cw <- %w) {               %4 = mul %3, %3 : float32[]
        %3 = sum %cw : float32[]              %1, %2 = while %i, %s, %w, %4 {
        %4 = mul %3, %3 : float32[]             body(%i, %s; %cw <- %w, %c4 <- %4) {
        %5 = add %s, %4 : float32[]               %5 = add %s, %c4 : float32[]
        ...                                       ...

Layout kept (see runtime/_src/exec/control_flow_ops.py): `cond.captures[k]` and
`body.captures[k]` both stand for the While node's input
`num_loop_vars + k`, so a value newly captured by one subgraph gets an
unused placeholder in the other, and the node's inputs grow before the
optional `maximum_iterations` input.

Only ops in `HOISTABLE` move, and only when every input shape is fully
known: their kernels cannot fail on such inputs. So hoisting never raises
an error the loop would not have raised (a loop may run zero times, and a
failing op must stay after the side effects that precede it in the body).
Stateful ops, side effects and nested control flow never move.
"""

from runtime._src.exec.control_flow_ops import WHILE
from runtime._src.optimizer.rewrite import insert_nodes, make_node, remove_nodes, replace_uses

__all__ = ["run", "HOISTABLE"]

# Pure ops whose kernels cannot fail once their input shapes are fully known
# and were checked by shape inference (numpy returns inf/nan where TF does).
HOISTABLE = frozenset({
    "AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum",
    "Neg", "Abs", "Sign", "Square", "Sqrt", "Exp", "Log", "Tanh",
    "Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual",
    "LogicalAnd", "LogicalOr", "LogicalNot", "Cast", "Identity",
    "MatMul", "Sum", "Prod", "Mean", "Relu", "Sigmoid", "Softmax", "SelectV2",
    "Transpose",
    "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh",
    "Expm1", "Log1p", "Rsqrt", "Reciprocal", "Floor", "Ceil", "Round", "Rint", "Erf", "Erfc",
    "IsNan", "IsInf", "IsFinite", "Atan2", "SquaredDifference", "ClipByValue", "Softplus",
    "Softsign",
})


def run(graph):
    """Hoist invariant ops out of every While node of `graph`; return messages."""
    messages = []
    loops = []                # a loop: most graphs have no While node
    for n in graph.nodes:
        if n.op == WHILE:
            loops.append(n)
    for node in loops:
        for key in ("cond", "body"):
            messages.extend(_hoist(graph, node, key))
    return messages


def _hoist(graph, node, key):
    """Move the invariant ops of `node.attrs[key]` in front of `node`."""
    sub = node.attrs[key]
    n = node.attrs["num_loop_vars"]
    outer_of = {id(inner): node.inputs[n + k] for k, (_, inner) in enumerate(sub.captures)}
    invariant, moving = _invariant_nodes(sub, outer_of)
    if not moving:
        return []
    # Clone the moving ops (and the constants they read) into `graph`, in order.
    mapping = dict(outer_of)         # id(subgraph tensor) -> outer tensor
    clones = []
    for sub_node in sub.nodes:
        if sub_node not in invariant or sub_node.op == "Placeholder":
            continue
        if sub_node.op == "Const" and not _feeds(sub_node, moving):
            continue
        clone = make_node(graph, sub_node.op, [mapping[id(t)] for t in sub_node.inputs],
                          dict(sub_node.attrs), [(t.dtype, t.shape) for t in sub_node.outputs],
                          name=sub_node.name, location=sub_node.location)
        clones.append(clone)
        for old, new in zip(sub_node.outputs, clone.outputs):
            mapping[id(old)] = new
    insert_nodes(graph, graph.nodes.index(node), clones)
    # Capture each moved value the rest of the subgraph still uses.
    used = _uses_outside(sub, moving)
    replacements = {}
    for t in used:
        replacements[id(t)] = _add_capture(graph, node, key, mapping[id(t)])
    replace_uses(sub, replacements)
    remove_nodes(sub, moving)
    return [f"hoisted {sub.name}/{m.name} ({m.op}) out of {node.name}"
            for m in clones if m.op != "Const"]


def _invariant_nodes(sub, outer_of):
    """(the invariant nodes, the non-Const ones that can move): sets of nodes."""
    invariant = {inner.node for _, inner in sub.captures}
    moving = set()
    for node in sub.nodes:
        if node.op == "Const":
            invariant.add(node)
            continue
        if node.op not in HOISTABLE or node.subgraph_list() or node.stateful:
            continue
        if not node.inputs or not all(t.node in invariant for t in node.inputs):
            continue
        if not all(t.shape.is_fully_defined() for t in node.inputs):
            continue
        invariant.add(node)
        moving.add(node)
    return invariant, moving


def _feeds(const_node, moving):
    """True when a constant is an input of a moving node."""
    out = const_node.outputs[0]
    return any(out is t for m in const_node.graph.nodes if m in moving
               for t in m.inputs)


def _uses_outside(sub, moving):
    """Outputs of moving nodes read by nodes that stay, or returned by `sub`."""
    found = {}
    for node in sub.nodes:
        if node in moving:
            continue
        for t in node.inputs:
            if t.node in moving:
                found[id(t)] = t
    for t in sub.outputs:
        if t.node in moving:
            found[id(t)] = t
    return list(found.values())


def _add_capture(graph, node, key, outer):
    """Make `outer` an input of the While `node`; return its placeholder in `key`."""
    n = node.attrs["num_loop_vars"]
    cond, body = node.attrs["cond"], node.attrs["body"]
    position = n + len(body.captures)
    node.inputs = node.inputs[:position] + (outer,) + node.inputs[position:]
    result = None
    for name, sub in (("cond", cond), ("body", body)):
        placeholder = make_node(sub, "Placeholder", [], {"dtype": outer.dtype, "shape": outer.shape},
                                [(outer.dtype, outer.shape)], name="hoisted")
        insert_nodes(sub, _first_non_placeholder(sub), [placeholder])
        inner = placeholder.outputs[0]
        sub.captures.append((outer, inner))
        sub._capture_map.setdefault(id(outer), inner)
        if name == key:
            result = inner
    return result


def _first_non_placeholder(sub):
    for i, node in enumerate(sub.nodes):
        if node.op != "Placeholder":
            return i
    return len(sub.nodes)
