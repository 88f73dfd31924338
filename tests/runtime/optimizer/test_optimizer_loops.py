"""Loop-invariant hoisting (`loop_optimization`) on purpose-built While loops:
expected node counts per subgraph, what must never move, the While layout
after hoisting, and results identical with the pass on and off."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.optimizer import lint, optimize

from tests.runtime.graphdata_helpers import build, run

ONLY_LICM = {"arithmetic_optimization": False, "constant_folding": False,
             "common_subexpression_elimination": False, "loop_optimization": True,
             "dead_code_elimination": False}
ALL_OFF = {"disable_meta_optimizer": True}


def while_node(graph):
    (node,) = [n for n in graph.nodes if n.op == "While"]
    return node


def body_ops(graph):
    return [n.op for n in while_node(graph).attrs["body"].nodes if n.op != "Placeholder"]


def sum_loop(x, w):
    """s += reduce_sum(w * w) + x, five times: `w * w`, the sum and `+ x` are invariant."""
    def body(i, s):
        return i + 1, s + (tf.reduce_sum(w * w) + x)
    return tf.while_loop(lambda i, s: i < 5, body, (tf.constant(0), tf.constant(0.0)))[1]


SUM_INPUTS = [("x", tf.float32, []), ("w", tf.float32, [3])]


def test_invariant_ops_leave_the_body():
    g = build("f", SUM_INPUTS, sum_loop)
    assert body_ops(g) == ["Const", "AddV2", "Mul", "Sum", "AddV2", "AddV2"]
    report = optimize(g, ONLY_LICM, check=True)
    assert report.count("loop_optimization") == 3          # Mul, Sum, AddV2
    assert body_ops(g) == ["Const", "AddV2", "AddV2"]      # i + 1 and s + hoisted
    outer = [n.op for n in g.nodes]
    assert outer.index("Mul") < outer.index("Sum") < outer.index("AddV2") < outer.index("While")
    assert run(g, 1.0, [1.0, 2.0, 3.0]) == [np.float32(75.0)]


def test_hoisting_adds_one_aligned_capture_to_cond_and_body():
    g = build("f", SUM_INPUTS, sum_loop)
    before = len(while_node(g).inputs)
    optimize(g, ONLY_LICM, check=True)
    node = while_node(g)
    cond, body = node.attrs["cond"], node.attrs["body"]
    assert len(node.inputs) == before + 1                   # only the final AddV2 is captured
    assert len(cond.captures) == len(body.captures) == len(node.inputs) - 2
    assert body.captures[-1][0] is node.inputs[-1]
    assert cond.captures[-1][0] is node.inputs[-1]


def test_hoisting_inserts_captures_before_maximum_iterations():
    def f(x):
        def body(i, s):
            return i + 1, s + x * x
        return tf.while_loop(lambda i, s: i < 100, body, (tf.constant(0), tf.constant(0)),
                             maximum_iterations=tf.constant(4))[1]
    g = build("f", [("x", tf.int32, [])], f)
    optimize(g, ONLY_LICM, check=True)
    node = while_node(g)
    assert node.attrs["has_maximum_iterations"]
    assert node.inputs[-1].node.op == "Const"              # the limit stays last
    assert body_ops(g) == ["Const", "AddV2", "AddV2"]
    assert run(g, 3) == [36]


def test_cond_invariants_are_hoisted_too():
    def f(n):
        return tf.while_loop(lambda i: i < n * n, lambda i: (i + 1,), (tf.constant(0),))[0]
    g = build("f", [("n", tf.int32, [])], f)
    report = optimize(g, ONLY_LICM, check=True)
    assert report.changes["loop_optimization"] == ["hoisted while_cond/Mul (Mul) out of While"]
    cond = while_node(g).attrs["cond"]
    assert [n.op for n in cond.nodes if n.op != "Placeholder"] == ["Less"]
    assert run(g, 3) == [9]


def test_nested_loops_hoist_to_the_outermost_level():
    def f(x):
        def outer_body(i, s):
            def inner_body(j, t):
                return j + 1, t + x * x
            t = tf.while_loop(lambda j, t: j < 3, inner_body, (tf.constant(0), s))[1]
            return i + 1, t
        return tf.while_loop(lambda i, s: i < 2, outer_body, (tf.constant(0), tf.constant(0)))[1]
    g = build("f", [("x", tf.int32, [])], f)
    optimize(g, ONLY_LICM, check=True)
    assert [n.op for n in g.nodes].index("Mul") < [n.op for n in g.nodes].index("While")
    assert run(g, 2) == [24]


@pytest.mark.parametrize("make,why", [
    (lambda x, w: tf.random.uniform([]) * x, "stateful"),
    (lambda x, w: tf.gather(w, [1]), "may fail (not in HOISTABLE)"),
    (lambda x, w: tf.cast(x, tf.int32) // 2, "integer division may fail"),
], ids=["random", "gather", "floordiv"])
def test_what_never_moves(make, why):
    def f(x, w):
        def body(i, s):
            return i + 1, s + tf.reduce_sum(tf.cast(make(x, w), tf.float32))
        return tf.while_loop(lambda i, s: i < 2, body, (tf.constant(0), tf.constant(0.0)))[1]
    g = build("f", SUM_INPUTS, f)
    before = body_ops(g)
    optimize(g, ONLY_LICM, check=True)
    moved = [op for op in before if op not in body_ops(g)]
    assert not ({"RandomUniform", "GatherV2", "FloorDiv"} & set(moved)), why


def test_unknown_shapes_stay_in_the_loop():
    g = build("f", [("x", tf.float32, [None]), ("w", tf.float32, [None])],
              lambda x, w: tf.while_loop(lambda i, s: i < 2,
                                         lambda i, s: (i + 1, s + tf.reduce_sum(x + w)),
                                         (tf.constant(0), tf.constant(0.0)))[1])
    report = optimize(g, ONLY_LICM, check=True)
    assert report.count("loop_optimization") == 0          # x + w may fail to broadcast


def test_zero_iterations_and_side_effect_order_are_unchanged(capsys):
    """A hoisted op runs even when the loop does not; only total ops may move."""
    def f(x, n):
        def body(i, s):
            tf.print("step", i)
            return i + 1, s + tf.math.log(x)
        return tf.while_loop(lambda i, s: i < n, body, (tf.constant(0), tf.constant(0.0)))[1]
    inputs = [("x", tf.float32, []), ("n", tf.int32, [])]
    plain, hoisted = build("f", inputs, f), build("f", inputs, f)
    optimize(plain, ALL_OFF)
    assert optimize(hoisted, check=True).count("loop_optimization") == 1
    for x, n in [(-1.0, 0), (2.0, 2), (0.0, 1)]:
        with np.errstate(all="ignore"):
            expected = run(plain, x, n)
            err_plain = capsys.readouterr().err
            got = run(hoisted, x, n)
        assert capsys.readouterr().err == err_plain
        np.testing.assert_array_equal(got, expected)


def test_function_graphs_are_hoisted_by_default():
    @tf.function
    def f(x, w):
        s = tf.constant(0.0)
        for _ in tf.range(4):
            s += tf.reduce_sum(w) * x
        return s
    args = (tf.constant(2.0), tf.constant([1.0, 2.0]))
    assert f(*args).numpy() == 24.0
    graph = f.get_concrete_function(*args).graph
    lint(graph)
    assert graph.optimization_report.count("loop_optimization") == 2   # Sum, Mul
