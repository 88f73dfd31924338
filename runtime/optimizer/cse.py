"""Common subexpression elimination: two pure nodes with the same op, the same
inputs and equal attrs compute the same value; keep the first.

Before:                               After:
    %0 = mul %x, %y : int32[]             %0 = mul %x, %y : int32[]
    %1 = mul %x, %y : int32[]             %2 = add %0, %0 : int32[]
    %2 = add %0, %1 : int32[]

Equal constants (same dtype, shape and bytes) merge too. Never merged:
stateful or side-effecting nodes (two `random.uniform` calls differ), and
nodes holding subgraphs (compared by identity only, so they never match).
"""

import numpy as np

from ..dtypes import DType
from ..tensor_shape import TensorShape
from .rewrite import remove_nodes, replace_uses

__all__ = ["run"]


class _Unhashable(Exception):
    pass


def run(graph):
    """Merge duplicate pure nodes of `graph` in place; return messages."""
    seen = {}
    mapping = {}
    dead = set()
    messages = []
    for node in graph.nodes:
        if node.inputs and any(id(t) in mapping for t in node.inputs):
            node.inputs = tuple(mapping.get(id(t), t) for t in node.inputs)
        key = _key(node)
        if key is None:
            continue
        first = seen.setdefault(key, node)
        if first is node:
            continue
        for old, new in zip(node.outputs, first.outputs):
            mapping[id(old)] = new
        dead.add(id(node))
        messages.append(f"merged {node.name} into {first.name} ({node.op})")
    replace_uses(graph, mapping)
    remove_nodes(graph, dead)
    return messages


def _key(node):
    if node.op == "Placeholder" or node.stateful:
        return None
    try:
        attrs = tuple(sorted((k, _attr_key(v)) for k, v in node.attrs.items()))
    except _Unhashable:
        return None
    return (node.op, tuple(id(t) for t in node.inputs), attrs)


def _attr_key(value):
    """A hashable key equal for equal attr values; identity for other objects."""
    if isinstance(value, (np.ndarray, np.generic)):
        arr = np.asarray(value)
        if arr.dtype == object:
            return ("array", "object", arr.shape, tuple(arr.reshape(-1).tolist()))
        return ("array", arr.dtype.str, arr.shape, arr.tobytes())
    if isinstance(value, (bool, int, float, str, bytes, type(None), DType, TensorShape)):
        return (type(value).__name__, value if not isinstance(value, DType) else value.name)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_attr_key(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, _attr_key(v)) for k, v in value.items())))
    return ("object", id(value))
