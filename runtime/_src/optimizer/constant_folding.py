"""Constant folding: run pure ops whose inputs are all constants, once, at
optimization time, and replace them by `Const` nodes.

Before:                               After:
    %0 = const 2 : int32[]                %0 = const 2 : int32[]
    %1 = const 3 : int32[]                %1 = const 3 : int32[]
    %2 = mul %0, %1 : int32[]             %2 = const 6 : int32[]
    %3 = add %x, %2 : int32[]             %3 = add %x, %2 : int32[]

(The now-unused constants %0, %1 are left for dead code elimination.)

Never folded: stateful or side-effecting ops (random, variable reads and
writes, print, assert, py_function) and ops whose subgraphs are stateful;
ops whose kernel raises (the error stays a run-time error, as without the
optimizer); results larger than `MAX_ELEMENTS` (folding would bloat the graph);
control flow (`If`, `While`: running a loop at optimization time could take
as long as the program, or never end, on a path the program never takes).
"""

import numpy as np

from runtime._src.optimizer.rewrite import insert_nodes, make_node, remove_nodes, replace_uses

__all__ = ["run", "MAX_ELEMENTS"]

MAX_ELEMENTS = 100_000

# Ops that are never folded even though they are pure.
_NEVER_FOLD = {"Placeholder", "Const"}


def run(graph):
    """Fold constant subexpressions of `graph` in place; return messages."""
    if not _has_candidate(graph):
        return []             # a first fold needs a node reading constants only
    messages = []
    mapping = {}
    dead = set()
    position = 0
    while position < len(graph.nodes):
        node = graph.nodes[position]
        position += 1
        if node.inputs and any(id(t) in mapping for t in node.inputs):
            node.inputs = tuple(mapping.get(id(t), t) for t in node.inputs)
        values = _fold(node)
        if values is None:
            continue
        consts = [make_node(graph, "Const", [], {"value": v, "dtype": t.dtype},
                            [(t.dtype, np.shape(v))], name="Const", location=node.location)
                  for t, v in zip(node.outputs, values)]
        insert_nodes(graph, position, consts)
        position += len(consts)
        for t, c in zip(node.outputs, consts):
            mapping[id(t)] = c.outputs[0]
        dead.add(node)
        messages.append(f"folded {node.name} ({node.op}) into a constant")
    replace_uses(graph, mapping, inputs_done=True)
    remove_nodes(graph, dead)
    return messages


def _has_candidate(graph):
    """True when some node (not a Placeholder or Const) reads only constants."""
    for node in graph.nodes:
        inputs = node.inputs
        if inputs and node.op not in _NEVER_FOLD:
            for t in inputs:
                if t.node.op != "Const":
                    break
            else:
                return True
    return False


def _fold(node):
    """The output values of `node` if it can be folded, else None."""
    if node.op in _NEVER_FOLD or not node.inputs or node.subgraph_list():
        return None
    for t in node.inputs:
        if t.node.op != "Const":
            return None
    if node.opdef.stateful:
        return None
    args = [t.node.attrs["value"] for t in node.inputs]
    try:
        with np.errstate(all="ignore"):
            out = node.opdef.kernel(*args, **node.attrs)
    except Exception:  # noqa: BLE001 - the op keeps failing at run time, as before
        return None
    values = [out] if node.opdef.num_outputs == 1 else list(out)
    for t, v in zip(node.outputs, values):
        if not isinstance(v, (np.ndarray, np.generic)):
            return None
        if v.dtype != t.dtype.np_dtype and not t.dtype.is_string:
            return None
        if np.size(v) > MAX_ELEMENTS:
            return None
    return values
