"""Helpers for the graph-as-data tests (text forms, optimizer, pictures, save).

`call_subgraph(body, *args)` stages a test-only op, `TestCall<n>` (n = number
of outputs), that runs a
nested `Graph` on its inputs, so subgraph handling can be tested before and
independently of the real `cond`/`while_loop` ops. `nested_graph()` (one
subgraph capturing the outer placeholder) and `two_level_graph(...)` (a
subgraph inside a subgraph) show how to build them.
"""

import numpy as np

import runtime as tf
from runtime._src.exec import executor
from runtime._src.graph.graph import Graph
from runtime._src.graph.op_registry import OPS, apply, define_op

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


def nested_graph():
    """f(x) = TestCall(body, x + 1) where body(a) = a + x (x captured)."""
    g = Graph("f")
    with g.as_default():
        x = g.add_placeholder(tf.int32, [], "x")
        body = Graph("body", outer=g)
        with body.as_default():
            a = body.add_placeholder(tf.int32, [], "a")
            body.outputs = [a + x]
        y = call_subgraph(body, x + 1)
    g.outputs = [y]
    return g


def two_level_graph(name, inner_output, body_argument, outputs=lambda y, x: [y]):
    """name(x) = TestCall(body, -x); body(a) = TestCall(inner, body_argument(a, x));
    inner(b) = inner_output(b, x). x is an int32 scalar, so the functions may
    capture it from one or two levels up."""
    g = Graph(name)
    with g.as_default():
        x = g.add_placeholder(tf.int32, [], "x")
        body = Graph("body", outer=g)
        with body.as_default():
            a = body.add_placeholder(tf.int32, [], "a")
            inner = Graph("inner", outer=body)
            with inner.as_default():
                b = inner.add_placeholder(tf.int32, [], "b")
                inner.outputs = [inner_output(b, x)]
            body.outputs = [call_subgraph(inner, body_argument(a, x))]
        y = call_subgraph(body, -x)
    g.outputs = outputs(y, x)
    return g


def build(name, inputs, fn):
    """A graph with placeholders (name, dtype, shape) whose outputs are fn(*placeholders)."""
    g = Graph(name)
    with g.as_default():
        phs = [g.add_placeholder(d, s, n) for n, d, s in inputs]
        out = fn(*phs)
    g.outputs = list(out) if isinstance(out, (list, tuple)) else [out]
    return g


def trace_specs(fn, *specs):
    """A graph "f" with placeholders x0, x1... of (dtype, shape) `specs`, whose
    outputs are fn(*placeholders)."""
    return build("f", [(f"x{i}", d, s) for i, (d, s) in enumerate(specs)], fn)


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
