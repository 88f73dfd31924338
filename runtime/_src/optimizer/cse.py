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

from runtime._src.core.dtypes import DType
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.optimizer.rewrite import substitute_nodes

__all__ = ["run", "merges_were_exact"]


class _Unhashable(Exception):
    pass


def run(graph):
    """Merge duplicate pure nodes of `graph` in place; return messages."""
    _exact[0] = True
    if not _repeats_an_op(graph):
        return []             # nodes of one op each: no two share a key
    seen = {}

    def merge(node):
        key = _key(node)
        if key is None:
            return None
        first = seen.setdefault(key, node)
        if first is node:
            return None
        if _exact[0] and not _alike(first, node):
            _exact[0] = False
        return first.outputs, f"merged {node.name} into {first.name} ({node.op})"
    return substitute_nodes(graph, merge)


_exact = [True]


def merges_were_exact():
    """True when every merge of the last `run` replaced outputs by outputs
    of the same dtype and static shape (and a constant by a value of the same
    class): then no pass finds work in the merged graph that it did not find
    before (see optimizer._run_round)."""
    return _exact[0]


def _alike(first, node):
    """True when `node`'s outputs and `first`'s match in dtype and static
    shape (a refined shape, e.g. by set_shape, is not part of the key)."""
    for a, b in zip(first.outputs, node.outputs):
        if a.dtype != b.dtype or a.shape.dims != b.shape.dims:
            return False
    return first.op != "Const" or (
        first.attrs["value"].__class__ is node.attrs["value"].__class__)


def _repeats_an_op(graph):
    """True when two nodes of `graph` have the same op (placeholders aside):
    a key starts with the op, so without that no two nodes can merge."""
    ops = set()
    for node in graph.nodes:
        op = node.op
        if op in ops:
            return True
        if op != "Placeholder":
            ops.add(op)
    return False


def _key(node):
    # A node holding subgraphs would be keyed by their identity: it never matches.
    op = node.op
    subs = node._subgraphs           # node.subgraph_list(), without the call
    if op == "Placeholder" or (subs if subs is not None else node.subgraph_list()) \
            or node.opdef.stateful:
        return None
    attrs = node.attrs
    if not attrs:
        return (op, tuple(map(id, node.inputs)), ())
    if op == "Const" and len(attrs) == 2:
        value, dtype = attrs.get("value"), attrs.get("dtype")
        if value.__class__ is np.ndarray and value.dtype != object and dtype.__class__ is DType:
            # The general key below, built directly for the commonest node.
            return ("Const", (), (("dtype", ("DType", dtype.name)),
                                  ("value", ("array", value.dtype.str, value.shape,
                                             value.tobytes()))))
    try:
        attrs = tuple(sorted([(k, _attr_key(v)) for k, v in attrs.items()]))
    except _Unhashable:
        return None
    return (op, tuple(map(id, node.inputs)), attrs)


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
