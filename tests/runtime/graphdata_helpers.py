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
