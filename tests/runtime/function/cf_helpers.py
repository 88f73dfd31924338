"""Helpers for the control-flow tests: run a function eagerly and as a graph.

`in_graph(fn, *args)` traces `fn` with one placeholder per numpy argument,
runs the graph with those values and returns numpy results in `fn`'s output
structure; `eagerly(fn, *args)` calls `fn` on eager tensors and converts the
results the same way, so the two can be compared.
"""

import numpy as np

import runtime as tf
from runtime._src.exec import executor
from runtime import nest
from runtime._src.graph.graph import Graph
from runtime._src.graph.op_registry import OPS, define_op
from runtime._src.core.tensor import EagerTensor, Tensor


def trace(fn, *args):
    """The graph of `fn` and its output structure, with placeholders for args."""
    g = Graph("f")
    with g.as_default():
        phs = [g.add_placeholder(tf.dtypes.as_dtype(np.asarray(a).dtype), np.shape(a),
                                 f"arg{i}") for i, a in enumerate(args)]
        out = fn(*phs)
        leaves = nest.flatten(out)
        flat = []
        for leaf in leaves:
            if isinstance(leaf, tf.TensorArray):
                leaf = leaf.stack()
            flat.append(leaf)
    g.outputs = [t for t in flat if t is not None]
    return g, out, flat


def in_graph(fn, *args):
    g, out, flat = trace(fn, *args)
    values = iter(executor.run(g, [np.asarray(a) for a in args]))
    results = [None if t is None else next(values) for t in flat]
    return nest.pack_sequence_as(out, results)


def eagerly(fn, *args):
    out = fn(*[EagerTensor(np.asarray(a)) for a in args])
    return nest.map_structure(_to_numpy_leaf, out)


def _to_numpy_leaf(value):
    if isinstance(value, tf.TensorArray):
        return np.asarray(value.stack())
    if isinstance(value, Tensor):
        return np.asarray(value)
    return value


def _tf_numpy(value):
    """A numpy value with TensorFlow's dtype for Python scalars (int -> int32)."""
    if isinstance(value, (bool, int, float)):
        return np.asarray(tf.convert_to_tensor(value))
    return np.asarray(value)


def assert_same(a, b):
    """Equal structure, values and numpy dtypes."""
    fa, fb = nest.flatten(a), nest.flatten(b)
    assert len(fa) == len(fb), (a, b)
    for x, y in zip(fa, fb):
        if x is None or y is None:
            assert x is None and y is None, (a, b)
            continue
        x, y = _tf_numpy(x), _tf_numpy(y)
        assert x.dtype == y.dtype, (x, y)
        np.testing.assert_array_equal(x, y)


# A test-only op that doubles a vector's length ([1, 2] -> [1, 2, 1, 2]), so
# loop-variable growth can be tested without depending on other op families.
if "TestTwice" not in OPS:
    def _infer_twice(inputs, attrs):
        (x,) = inputs
        dims = x.shape.dims
        if dims is None or not dims:
            return [(x.dtype, x.shape)]
        first = None if dims[0] is None else 2 * dims[0]
        return [(x.dtype, (first,) + tuple(dims[1:]))]

    @define_op("TestTwice", infer=_infer_twice)
    def _twice(x):
        return np.concatenate([x, x])

    # A test-only op that always fails at run time.
    @define_op("TestFail", infer=lambda inputs, attrs: [(inputs[0].dtype, inputs[0].shape)])
    def _fail(x):
        raise ValueError("TestFail always fails")


def twice(x):
    from runtime._src.graph.op_registry import apply
    return apply("TestTwice", [x])
