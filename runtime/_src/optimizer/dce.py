"""Dead code elimination: drop nodes that neither the outputs nor any
side-effecting node (print, assert, variable writes, random, py_function)
needs, directly or indirectly.

Before:                               After:
    %0 = mul %x, %x : int32[]             %1 = add %x, %x : int32[]
    %1 = add %x, %x : int32[]             return %1
    return %1

Placeholders that are inputs or captures always stay: they are the graph's
calling convention. Nested graphs are cleaned by running the pass on them.
"""

from runtime._src.graph.graph import needed_nodes
from runtime._src.optimizer.rewrite import fed_placeholders, remove_nodes

__all__ = ["run"]


def run(graph):
    """Remove unneeded nodes of `graph` in place; return messages."""
    if _nothing_to_remove(graph):
        return []             # the common case: every node is needed or fed
    needed = needed_nodes(graph)
    dead = []                 # a loop: this runs on every graph, every round
    for n in graph.nodes:
        if n not in needed:
            dead.append(n)
    if not dead:
        return []
    fed = fed_placeholders(graph)
    dead = [n for n in dead if n not in fed]
    remove_nodes(graph, set(dead))
    return [f"removed unused {n.name} ({n.op})" for n in dead]


def _nothing_to_remove(graph):
    """True when every node of `graph` is an input of another node, returned,
    side-effecting or a fed placeholder: then the pass removes nothing, and
    this costs less than finding the needed nodes.

    Why: were some node removable, take the last one in the order "is an
    input of" (a graph has no cycles) among the unneeded nodes that are not
    fed placeholders. A node it is an input of would be unneeded (else it is
    needed too) and not a placeholder (they have no inputs), so it would
    come later in that order. So nothing reads it, nothing returns it and it
    has no side effect: the test below finds it. (False only says: look.)"""
    used = set()
    add = used.add
    for n in graph.nodes:
        for t in n.inputs:
            add(t.node)
    for t in graph.outputs:
        add(t.node)
    fed = None
    for n in graph.nodes:
        if n in used or n.side_effect:
            continue
        if n.op != "Placeholder":
            return False
        if fed is None:
            fed = fed_placeholders(graph)
        if n not in fed:
            return False
    return True
