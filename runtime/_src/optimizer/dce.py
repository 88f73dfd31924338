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
    needed = needed_nodes(graph)
    dead = []                 # a loop: this runs on every graph, every round
    for n in graph.nodes:
        if id(n) not in needed:
            dead.append(n)
    if not dead:
        return []             # the common case: every node is needed
    fed = fed_placeholders(graph)
    dead = [n for n in dead if id(n) not in fed]
    remove_nodes(graph, {id(n) for n in dead})
    return [f"removed unused {n.name} ({n.op})" for n in dead]
