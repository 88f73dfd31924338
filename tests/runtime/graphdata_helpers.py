"""Helpers for the graph-as-data tests (text forms, optimizer, pictures, save).

`call_subgraph(body, *args)` stages a test-only op, `TestCall<n>` (n = number
of outputs), that runs a
nested `Graph` on its inputs, so subgraph handling can be tested before and
independently of the real `cond`/`while_loop` ops.

    g = Graph("f")
    with g.as_default():
        x = g.add_placeholder(tf.int32, [], "x")
        body = Graph("body", outer=g)
        with body.as_default():
            a = body.add_placeholder(tf.int32, [], "a")
            body.outputs = [a + x]          # x is captured
        y = call_subgraph(body, x)
"""

import numpy as np

from runtime import executor
from runtime.graph import Graph
from runtime.op_registry import OPS, apply, define_op

def _infer(inputs, attrs):
    return [(t.dtype, t.shape) for t in attrs["body"].outputs]


def _kernel(*values, body):
    out = executor.run(body, list(values))
    return out[0] if len(out) == 1 else tuple(out)


def _op_for(num_outputs):
    name = f"TestCall{num_outputs}"
    if name not in OPS:
        define_op(name, infer=_infer, num_outputs=num_outputs)(_kernel)
    return name


def call_subgraph(body, *args):
    """Stage TestCall(body) on args + the body's captured outer tensors."""
    inputs = list(args) + [outer for outer, _ in body.captures]
    return apply(_op_for(len(body.outputs)), inputs, {"body": body})


def build(name, inputs, fn):
    """A graph with placeholders (name, dtype, shape) whose outputs are fn(*placeholders)."""
    g = Graph(name)
    with g.as_default():
        phs = [g.add_placeholder(d, s, n) for n, d, s in inputs]
        out = fn(*phs)
    g.outputs = list(out) if isinstance(out, (list, tuple)) else [out]
    return g


def run(graph, *values):
    """executor.run with each value converted to its placeholder's dtype."""
    feeds = [np.asarray(v, dtype=t.dtype.np_dtype) for v, t in zip(values, graph.inputs)]
    return executor.run(graph, feeds)


# --- test-only stateful ops: a counter (stateful) and a recorder (side effect) ---

COUNTER = [0]
RECORDED = []


def _scalar_like(inputs, attrs):
    return [(inputs[0].dtype, inputs[0].shape)]


if "TestCounter" not in OPS:
    @define_op("TestCounter", infer=_scalar_like, stateful=True)
    def _counter(x):
        COUNTER[0] += 1
        return (x + COUNTER[0]).astype(x.dtype)

    @define_op("TestRecord", infer=_scalar_like, side_effect=True)
    def _record(x):
        RECORDED.append(np.array(x))
        return x

    @define_op("TestPositive", infer=_scalar_like)
    def _positive(x):
        if np.any(x <= 0):
            raise ValueError("expected positive values")
        return x


def counter(x):
    """A stateful op: x + (how many times any counter ran)."""
    return apply("TestCounter", [x])


def record(x):
    """A side-effecting op: appends x to RECORDED, returns x."""
    return apply("TestRecord", [x])


def positive(x):
    """A pure op whose kernel raises on values <= 0."""
    return apply("TestPositive", [x])
