"""Editing helpers shared by the optimizer passes.

Passes edit a graph in place: they build a mapping from old tensors to the
tensors that replace them, call `replace_uses` (which rewrites node inputs,
the graph's outputs, and the `captures` of every nested graph that refers to
a replaced tensor), then drop nodes nobody needs with `remove_nodes`.
New nodes (folded constants, hoisted ops) are made with `make_node` and
inserted at a chosen position with `insert_nodes`, which keeps program order.

    mapping = {id(old): new}
    replace_uses(graph, mapping)
    remove_nodes(graph, {old.node})
"""

import contextlib
import itertools
import threading

from runtime._src.graph.graph import Graph, Node, forget_flags
from runtime._src.graph.op_registry import get_op
from runtime._src.core.tensor import SymbolicTensor
from runtime._src.core.tensor_shape import TensorShape

__all__ = ["replace_uses", "substitute_nodes", "remove_nodes", "make_node", "insert_nodes", "walk_graphs",
           "consumers", "fed_placeholders", "invalidate"]


def walk_graphs(graph):
    """`graph` and every graph nested in it (subgraph attrs), parents first."""
    stack = [graph]
    while stack:
        g = stack.pop()
        yield g
        for node in reversed(g.nodes):
            if node.attrs:
                subs = node._subgraphs           # node.subgraph_list(), without the call
                if subs is None:
                    subs = node.subgraph_list()
                if subs:
                    stack.extend(reversed(subs))


_stamps = itertools.count(1)


# next_stamp(): a number larger than every stamp handed out before (edit
# order). The counter's own method: the optimizer asks after every pass run.
next_stamp = _stamps.__next__


def invalidate(graph):
    """Forget any cached run plan or compiled form of `graph` (and the
    optimizer's remembered statefulness of graphs); stamp the edit.

    Whether graphs have side effects is kept: the passes never add or
    remove a side-effecting node (they leave stateful nodes alone, and
    side-effecting ops are stateful; dead code elimination keeps every node
    with a side effect). Removing a dead stateful node can change statefulness."""
    graph._compiled = None
    graph._edit_stamp = next(_stamps)
    forget_flags("stateful")


def resolve(mapping, t):
    """Follow `mapping` (id(tensor) -> tensor) until a tensor that stays."""
    seen = 0
    while id(t) in mapping:
        t = mapping[id(t)]
        seen += 1
        if seen > 10_000:
            raise RuntimeError("optimizer: cyclic tensor replacement")
    return t


def replace_uses(graph, mapping, inputs_done=False):
    """Make every user of a tensor in `mapping` use its replacement instead.
    `inputs_done`: the caller already rewrote every node's inputs (as
    substitute_nodes and constant folding do, in program order, as they go):
    only the outputs and the nested graphs' captures are left."""
    if not mapping:
        return
    if not inputs_done:
        # Loops, not generators: this runs for every edit, over every nested graph.
        for node in graph.nodes:
            for t in node.inputs:
                if id(t) in mapping:
                    node.inputs = tuple(resolve(mapping, t) for t in node.inputs)
                    break
    graph.outputs = [resolve(mapping, t) for t in graph.outputs]
    for g in nested_graphs(graph):
        for outer, _ in g.captures:
            if id(outer) in mapping:
                g.captures = [(resolve(mapping, o), inner) for o, inner in g.captures]
                g._capture_map = {id(o): inner for o, inner in g.captures}
                break
    invalidate(graph)


# .nesting: while `optimize` runs on this thread, the nesting of the graphs
# it optimizes (its _Nesting: children found once, not by a walk of every
# nested graph's nodes for each edit).
_known = threading.local()


@contextlib.contextmanager
def nesting_known(nesting):
    """Within this block, `nested_graphs` asks `nesting.below(graph)` first."""
    previous = getattr(_known, "nesting", None)
    _known.nesting = nesting
    try:
        yield
    finally:
        _known.nesting = previous


def nested_graphs(graph):
    """The graphs nested in `graph` at any depth (not `graph` itself)."""
    nesting = getattr(_known, "nesting", None)
    if nesting is not None:
        found = nesting.below(graph)
        if found is not None:
            return found
    found = list(walk_graphs(graph))
    return found[1:]                # walk_graphs yields `graph` first


def substitute_nodes(graph, replacement, ops=None):
    """One pass over `graph` in program order: `replacement(node)` returns
    None to keep the node, or (tensors equal to its outputs, message) to
    replace it. Later nodes already read the replacements; replaced nodes
    are removed. Returns the messages. `ops`: the only op names
    `replacement` may replace (it is not asked about other nodes)."""
    mapping = {}
    dead = set()
    messages = []
    for node in graph.nodes:
        if mapping:
            for t in node.inputs:
                if id(t) in mapping:
                    node.inputs = tuple(mapping.get(id(t), t) for t in node.inputs)
                    break
        if ops is not None and node.op not in ops:
            continue
        found = replacement(node)
        if found is None:
            continue
        outputs, message = found
        for old, new in zip(node.outputs, outputs):
            mapping[id(old)] = new
        dead.add(node)
        messages.append(message)
    replace_uses(graph, mapping, inputs_done=True)
    remove_nodes(graph, dead)
    return messages


def remove_nodes(graph, dead):
    """Drop the nodes in the set `dead` (callers checked they are unused)."""
    if dead:
        kept = []
        for n in graph.nodes:
            if n not in dead:
                kept.append(n)
            elif n.subgraph_list():
                _nesting[0] += 1
        graph.nodes = kept
        invalidate(graph)


_nesting = [0]      # edits that added or removed a node holding subgraphs


def nesting_edits():
    """A number that changes whenever graphs stop or start being nested
    (a node holding subgraphs removed or inserted by these helpers)."""
    return _nesting[0]


def make_node(graph, op, inputs, attrs, out_specs, name=None, location=None):
    """A new node of `graph` (not yet in `graph.nodes`); out_specs = [(dtype, shape)]."""
    node = Node(graph, graph.unique_name(name or op), get_op(op), inputs, attrs, location)
    node.outputs = tuple(SymbolicTensor(node, i, d, TensorShape(s))
                         for i, (d, s) in enumerate(out_specs))
    return node


def insert_nodes(graph, position, new_nodes):
    """Insert nodes before the node currently at `position` in program order."""
    new_nodes = list(new_nodes)
    if any(n.subgraph_list() for n in new_nodes):
        _nesting[0] += 1
    graph.nodes[position:position] = new_nodes
    invalidate(graph)


def consumers(graph):
    """id(tensor) -> number of uses by nodes, outputs and nested captures."""
    counts = {}
    for node in graph.nodes:
        for t in node.inputs:
            counts[id(t)] = counts.get(id(t), 0) + 1
    for t in graph.outputs:
        counts[id(t)] = counts.get(id(t), 0) + 1
    return counts


def fed_placeholders(graph):
    """The placeholder nodes the caller feeds: inputs, then captures."""
    return {t.node for t in graph.inputs} | {inner.node for _, inner in graph.captures}


def is_graph(value):
    return isinstance(value, Graph)
