"""Runs a graph on numpy values, non-strictly.

A run executes only the nodes its outputs need plus every node with a side
effect (print, assert, variable writes, random, py_function) and what those
need, in program order. The plan (which nodes, in which order) is computed
once per graph and cached on it.

    values = run(graph, [np.int32(3)])   # -> list of numpy outputs
"""

from .errors import OpError
from .graph import kernel_error

__all__ = ["run", "plan"]


def plan(graph):
    """The nodes a run of `graph` executes, in program order."""
    needed = set()
    stack = [t.node for t in graph.outputs]
    stack.extend(n for n in graph.nodes if n.side_effect)
    while stack:
        n = stack.pop()
        if id(n) in needed:
            continue
        needed.add(id(n))
        stack.extend(t.node for t in n.inputs)
    return [n for n in graph.nodes if id(n) in needed]


def run(graph, inputs):
    """Run `graph` with numpy values for `graph.inputs` (then captures).

    Returns the list of numpy values of `graph.outputs`.
    """
    nodes = graph._compiled
    if nodes is None:
        nodes = graph._compiled = plan(graph)
    env = {}
    placeholders = graph.inputs + [inner for _, inner in graph.captures]
    if len(inputs) != len(placeholders):
        raise ValueError(f"graph {graph.name!r} takes {len(placeholders)} inputs, "
                         f"got {len(inputs)}")
    for t, v in zip(placeholders, inputs):
        env[id(t)] = v
    for node in nodes:
        if node.op == "Placeholder":
            continue
        args = [env[id(t)] for t in node.inputs]
        try:
            out = node.opdef.kernel(*args, **node.attrs)
        except OpError:
            raise
        except Exception as e:  # noqa: BLE001 - re-raised naming the op and the user's line
            raise kernel_error(node.name, node.inputs, e, node.location) from e
        if node.opdef.num_outputs == 1:
            env[id(node.outputs[0])] = out
        else:
            for t, v in zip(node.outputs, out):
                env[id(t)] = v
    return [env[id(t)] for t in graph.outputs]
