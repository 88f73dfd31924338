"""A graph's first run is interpreted (runtime/_src/exec/interpreter.py), its
later runs compiled: both give the same values, dtypes, side effects in the
same order, and the same errors naming the node and the user's line."""

import sys

import numpy as np
import pytest

import runtime as tf
from runtime._src.exec import codegen, executor, interpreter
from runtime._src.exec.control_flow_ops import IF, WHILE  # noqa: F401 - registers If, While
from runtime._src.function.control_flow import cond, while_loop
from runtime._src.graph.graph import PRUNED, Graph
from runtime._src.graph.op_registry import OPS, apply, define_op
from runtime._src.ops.shape_rules import same_as_first
from runtime.errors import InvalidArgumentError

I32, F32 = tf.int32, tf.float32
LOG = []


def _define_test_ops():
    if "InterpreterTestLog" in OPS:
        return

    @define_op("InterpreterTestLog", infer=same_as_first, side_effect=True)
    def _log(x, *, tag):
        LOG.append((tag, np.asarray(x).tolist()))
        return x

    @define_op("InterpreterTestFail", infer=same_as_first)
    def _fail(x):
        raise ValueError("kernel exploded")

    @define_op("InterpreterTestPair", infer=lambda inputs, attrs: [
        (inputs[0].dtype, inputs[0].shape)] * 2, num_outputs=2)
    def _pair(x, *, step):
        return x + step, x - step


_define_test_ops()


def build(name, specs, body):
    g = Graph(name)
    with g.as_default():
        xs = [g.add_placeholder(d, s, f"x{i}") for i, (d, s) in enumerate(specs)]
        outs = body(*xs)
    g.outputs = list(outs)
    return g


def _log(x, tag):
    return apply("InterpreterTestLog", (x,), {"tag": tag})


def _collatz(n):
    def step(i, x):
        odd = tf.equal(x % 2, 1)
        return [i + 1, cond(odd, lambda: x * 3 + 1, lambda: x // 2)]
    return while_loop(lambda i, x: tf.greater(x, 1), step, [tf.constant(0), n])[:1]


def _nested(n, v):
    def outer(i, acc):
        def inner(j, a):
            a = cond(tf.greater(j, i), lambda: a + v * j, lambda: _log(a - 1, "inner"))
            return [j + 1, a]
        j, acc = while_loop(lambda j, a: tf.less(j, 3), inner, [tf.constant(0), acc])
        return [i + 1, acc]
    return while_loop(lambda i, acc: tf.less(i, n), outer, [tf.constant(0), v * 0])[1:]


def _long_shared_start(n):
    """Two loop variables starting from one tensor (one value at two input
    positions), running past the interpreter's LONG_LOOP into compiled code."""
    zero = tf.constant(0)
    out = while_loop(lambda i, s: tf.less(i, n), lambda i, s: [i + 1, s + i * 2],
                     [zero, zero], maximum_iterations=90)
    return list(out)


def _limited(n):
    out = while_loop(lambda i, s: tf.less(i, n), lambda i, s: [i + 1, s + i],
                     [tf.constant(0), tf.constant(0)], maximum_iterations=4)
    return [out[1]]


# (name, input specs, body, inputs, expected outputs)
CASES = [
    ("scalar_arith", [(I32, []), (I32, [])], lambda a, b: [a * 2 + b - 7, -a],
     [np.int32(5), np.int32(3)], [6, -5]),
    ("int32_wraps", [(I32, []), (I32, [])], lambda a, b: [a + b, a * b],
     [np.int32(2**31 - 1), np.int32(2)], [-2**31 + 1, -2]),
    ("vector_float", [(F32, [3]), (F32, [3])], lambda a, b: [a * b + a, tf.reduce_sum(a)],
     [np.float32([1, 2, 3]), np.float32([0.5, -1, 2])], [[1.5, 0, 9], 6]),
    ("collatz_27", [(I32, [])], _collatz, [np.int32(27)], [111]),
    ("collatz_1", [(I32, [])], _collatz, [np.int32(1)], [0]),
    ("nested_loops_if", [(I32, []), (I32, [])], _nested, [np.int32(3), np.int32(2)], [4]),
    ("limited_loop", [(I32, [])], _limited, [np.int32(100)], [6]),
    ("long_loop_limited", [(I32, [])], _long_shared_start, [np.int32(1000)], [90, 8010]),
    ("long_loop_cond_ends", [(I32, [])], _long_shared_start, [np.int32(40)], [40, 1560]),
    ("limited_loop_cond_first", [(I32, [])], _limited, [np.int32(2)], [1]),
    ("cond_captures", [(I32, []), (F32, [2])],
     lambda p, x: [cond(tf.greater(p, 0), lambda: x * 2.0, lambda: x - 1.0)],
     [np.int32(-1), np.float32([3, 4])], [[2, 3]]),
    ("two_outputs", [(I32, [2])],
     lambda x: list(apply("InterpreterTestPair", (x,), {"step": 3}, )),
     [np.int32([1, 2])], [[4, 5], [-2, -1]]),
]


def _outputs(graph, inputs):
    return [np.asarray(v) for v in executor.run(graph, inputs)]


@pytest.mark.parametrize("name,specs,body,inputs,expected", CASES, ids=[c[0] for c in CASES])
def test_first_run_interpreted_then_compiled_same_values(name, specs, body, inputs, expected):
    g = build(name, specs, body)
    LOG.clear()
    first = executor.run(g, inputs)
    assert g._compiled is interpreter.INTERPRETED
    log_first = list(LOG)
    LOG.clear()
    second = executor.run(g, inputs)
    assert isinstance(g._compiled, codegen.CompiledGraph)
    assert LOG == log_first
    for a, b, e in zip(first, second, expected):
        assert type(a) is type(b) and np.asarray(a).dtype == np.asarray(b).dtype
        np.testing.assert_array_equal(a, b)
        np.testing.assert_allclose(np.asarray(a), np.asarray(e, dtype=np.asarray(a).dtype))


def test_side_effects_in_program_order_and_unused_ops_skipped():
    def body(a):
        _log(a, "first")
        apply("InterpreterTestFail", (a,))            # needed by nothing: never runs
        b = _log(a * 2, "second")
        _log(a - 1, "third")
        return [b + 1]
    g = build("effects", [(I32, [])], body)
    LOG.clear()
    assert executor.run(g, [np.int32(5)])[0] == 11
    assert executor.run(g, [np.int32(1)])[0] == 3
    assert LOG == [("first", 5), ("second", 10), ("third", 4),
                   ("first", 1), ("second", 2), ("third", 0)]


def _failing_in_loop(x):
    def loop_body(i):
        _failing_in_loop.line = sys._getframe().f_lineno + 1
        return [apply("InterpreterTestFail", (i,)) + 1]
    return while_loop(lambda i: tf.less(i, 5), loop_body, [x])


def test_errors_name_the_innermost_node_and_user_line_in_both_runs():
    g = build("failloop", [(I32, [])], _failing_in_loop)
    messages = []
    for _ in range(2):                                # interpreted, then compiled
        with pytest.raises(InvalidArgumentError) as info:
            executor.run(g, [np.int32(0)])
        assert isinstance(info.value.__cause__, ValueError)
        assert info.value.op_name.endswith("InterpreterTestFail")
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert "InterpreterTestFail failed on inputs (int32[])" in messages[0]
    assert f"{__file__}:{_failing_in_loop.line}" in messages[0]


def _failing_late(x):
    def loop_body(i):
        _failing_late.line = sys._getframe().f_lineno + 1
        bad = cond(tf.equal(i, 40), lambda: apply("InterpreterTestFail", (i,)), lambda: i)
        return [bad + 1]
    return while_loop(lambda i: tf.less(i, 50), loop_body, [x])


def test_an_error_in_the_compiled_rest_of_a_long_loop_names_its_node():
    assert interpreter.LONG_LOOP < 40
    g = build("faillate", [(I32, [])], _failing_late)
    messages = []
    for _ in range(2):                                # interpreted, then compiled
        with pytest.raises(InvalidArgumentError) as info:
            executor.run(g, [np.int32(0)])
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert "InterpreterTestFail failed on inputs (int32[])" in messages[0]
    assert f"{__file__}:{_failing_late.line}" in messages[0]


def test_placeholder_fed_by_nothing_is_refused_before_running():
    g = build("unfed", [(I32, [])], lambda a: [a + 1])
    g.inputs = []
    with pytest.raises(ValueError, match="placeholder x0 is neither an input nor a capture"):
        executor.run(g, [])


def test_a_traced_function_marks_its_pruned_graphs_and_recompiles_after_edits():
    @tf.function
    def f(x):
        i = tf.constant(0)
        while i < x:
            i += 2
        return i
    assert int(f(tf.constant(7))) == 8                 # interpreted
    graph = f.get_concrete_function(tf.constant(7)).graph
    loop = next(n for n in graph.nodes if n.op == "While")
    body = loop.attrs["body"]
    assert body._compiled is PRUNED                    # the optimizer's mark, untouched
    assert int(f(tf.constant(3))) == 4                 # compiled: the body is inlined
    compiled = graph._compiled
    assert body._compiled is codegen.INLINED
    body._compiled = PRUNED                            # edited, then optimized again
    assert compiled.is_stale()
    assert int(f(tf.constant(3))) == 4 and graph._compiled is not compiled


def test_first_call_of_a_converted_function_then_later_calls_agree():
    @tf.function
    def f(x, n):
        total = x * 0
        for k in tf.range(n):
            if x > k:
                total += x * k
            else:
                total -= 1
        return total
    results = [int(f(tf.constant(x), tf.constant(4))) for x in (3, 3, 0, 2)]
    assert results == [8, 8, -4, 0]
    assert "def graph_" in f.get_concrete_function(tf.constant(3), tf.constant(4)) \
        .graph.python_source()
