"""Optimizer passes: each pass on a purpose-built graph (expected node counts),
switches, reports, lint after every pass, and results identical with all
passes on and off for random inputs."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.graph.graph import Graph
from runtime._src.optimizer import LintError, enabled_passes, lint, optimize

from tests.runtime.graphdata_helpers import build, call_subgraph, counter, positive, record, run, RECORDED

ALL_OFF = {"disable_meta_optimizer": True}


def only(pass_name):
    """Options turning every pass off except `pass_name`."""
    names = ["arithmetic_optimization", "constant_folding",
             "common_subexpression_elimination", "loop_optimization",
             "dead_code_elimination"]
    return {n: n == pass_name for n in names}


def c(v, dtype=np.int32):
    return tf.convert_to_tensor(np.asarray(v, dtype))


def ops_of(graph):
    return [n.op for n in graph.nodes]


# --- purpose-built graphs, one per pass ------------------------------------------

def test_constant_folding_folds_pure_constant_chains():
    g = build("f", [("x", tf.int32, [])], lambda x: x + (c(2) * c(3) - c(1)))
    report = optimize(g, only("constant_folding"), check=True)
    assert report.count("constant_folding") == 2          # Mul, then Sub
    assert run(g, 10) == [15]
    optimize(g, only("dead_code_elimination"), check=True)
    assert ops_of(g) == ["Placeholder", "Const", "AddV2"]


def test_constant_folding_never_folds_stateful_ops():
    g = build("f", [("x", tf.int32, [])], lambda x: x + counter(c(5)))
    report = optimize(g, check=True)
    assert report.count("constant_folding") == 0
    assert "TestCounter" in ops_of(g)
    first, second = run(g, 0)[0], run(g, 0)[0]
    assert second == first + 1                              # still runs every time


def test_constant_folding_leaves_failing_ops_for_run_time():
    g = build("f", [("x", tf.int32, [])], lambda x: x + positive(c(-1)))
    report = optimize(g, check=True)
    assert report.count("constant_folding") == 0
    with pytest.raises(tf.errors.InvalidArgumentError, match="TestPositive.*expected positive"):
        run(g, 1)


def test_cse_merges_duplicate_pure_nodes_and_constants():
    g = build("f", [("x", tf.int32, [2]), ("y", tf.int32, [2])],
              lambda x, y: (x * y + c(1)) - (x * y + c(1)))
    report = optimize(g, only("common_subexpression_elimination"), check=True)
    assert report.count("common_subexpression_elimination") == 3   # Const, Mul, AddV2
    assert ops_of(g) == ["Placeholder", "Placeholder", "Mul", "Const", "AddV2", "Sub"]
    np.testing.assert_array_equal(run(g, [1, 2], [3, 4])[0], [0, 0])


def test_cse_keeps_stateful_duplicates_apart():
    g = build("f", [("x", tf.int32, [])], lambda x: counter(x) - counter(x))
    report = optimize(g, check=True)
    assert report.count("common_subexpression_elimination") == 0
    assert ops_of(g).count("TestCounter") == 2
    assert run(g, 0)[0] == -1


def test_cse_distinguishes_constants_by_dtype_and_value():
    g = build("f", [("x", tf.float32, [])], lambda x: (x + c(1.0, np.float32),
                                                       x + c(2.0, np.float32),
                                                       x + c(-0.0, np.float32) * c(0.0, np.float32)))
    report = optimize(g, only("common_subexpression_elimination"), check=True)
    assert report.count("common_subexpression_elimination") == 0


@pytest.mark.parametrize("name, dtype, fn, expected_ops", [
    ("x*1", tf.int32, lambda x: x * 1, ["Placeholder"]),
    ("1*x", tf.float32, lambda x: 1.0 * x, ["Placeholder"]),
    ("x+0 int", tf.int32, lambda x: x + 0, ["Placeholder"]),
    ("0+x int", tf.int32, lambda x: 0 + x, ["Placeholder"]),
    ("x-0 float", tf.float32, lambda x: x - 0.0, ["Placeholder"]),
    ("x+(-0.0) float", tf.float32, lambda x: x + -0.0, ["Placeholder"]),
    ("--x", tf.int32, lambda x: -(-x), ["Placeholder"]),
    ("---x", tf.int32, lambda x: -(-(-x)), ["Placeholder", "Neg"]),
    # Not simplified: these would change -0.0, NaN or shapes.
    ("x+0 float", tf.float32, lambda x: x + 0.0, ["Placeholder", "Const", "AddV2"]),
    ("x-(-0.0) float", tf.float32, lambda x: x - -0.0, ["Placeholder", "Const", "Sub"]),
    ("x*0 float", tf.float32, lambda x: x * 0.0, ["Placeholder", "Const", "Mul"]),
    ("x*0 int", tf.int32, lambda x: x * 0, ["Placeholder", "Const", "Mul"]),
    ("scalar*ones[3]", tf.int32, lambda x: x * c([1, 1, 1]), ["Placeholder", "Const", "Mul"]),
])
def test_arithmetic_rules(name, dtype, fn, expected_ops):
    g = build("f", [("x", dtype, [])], fn)
    optimize(g, {**only("arithmetic_optimization"), "dead_code_elimination": True}, check=True)
    assert ops_of(g) == expected_ops, name


def test_arithmetic_keeps_negative_zero_nan_and_inf():
    values = np.array([-0.0, 0.0, np.nan, np.inf, -np.inf, 1.5], np.float32)
    fns = [lambda x: x * 1.0, lambda x: x + 0.0, lambda x: x - 0.0, lambda x: x + -0.0,
           lambda x: -(-x), lambda x: x * 0.0]
    for fn in fns:
        plain = build("f", [("x", tf.float32, [6])], fn)
        optimized = build("f", [("x", tf.float32, [6])], fn)
        optimize(optimized, check=True)
        with np.errstate(all="ignore"):
            a, b = run(plain, values)[0], run(optimized, values)[0]
        assert a.dtype == b.dtype == np.float32
        np.testing.assert_array_equal(np.signbit(a), np.signbit(b))
        np.testing.assert_array_equal(a, b)


def test_arithmetic_chains_collapse_in_one_pass():
    g = build("f", [("x", tf.int32, [4])], lambda x: -(-(x * 1)) + 0)
    report = optimize(g, check=True)
    assert report.count("arithmetic_optimization") == 3     # x*1, -(-x), x+0
    assert ops_of(g) == ["Placeholder"]
    assert g.outputs[0] is g.inputs[0]


def test_dce_removes_unused_but_keeps_side_effects():
    def f(x):
        unused = x * x  # noqa: F841 - dead code, for DCE to remove
        record(x + 1)                                     # side effect: stays
        return x - 1
    g = build("f", [("x", tf.int32, [])], f)
    report = optimize(g, only("dead_code_elimination"), check=True)
    assert report.count("dead_code_elimination") == 1
    assert "Mul" not in ops_of(g) and "TestRecord" in ops_of(g)
    RECORDED.clear()
    assert run(g, 4) == [3]
    assert [int(v) for v in RECORDED] == [5]


def test_dce_keeps_unused_inputs_and_cleans_subgraphs():
    g = Graph("f")
    with g.as_default():
        x = g.add_placeholder(tf.int32, [], "x")
        g.add_placeholder(tf.int32, [], "unused")
        body = Graph("body", outer=g)
        with body.as_default():
            a = body.add_placeholder(tf.int32, [], "a")
            a * a                                          # dead inside the body
            body.outputs = [a + x]
        y = call_subgraph(body, x)
    g.outputs = [y]
    report = optimize(g, only("dead_code_elimination"), check=True)
    assert report.changes["dead_code_elimination"] == ["removed unused Mul (Mul)"]
    assert [n.op for n in body.nodes] == ["Placeholder", "Placeholder", "AddV2"]
    assert len(g.inputs) == 2
    assert run(g, 3, 0) == [6]


def test_passes_reach_into_subgraphs_and_remap_captures():
    g = Graph("f")
    with g.as_default():
        x = g.add_placeholder(tf.int32, [], "x")
        k = x * 1                                           # simplified to x
        body = Graph("body", outer=g)
        with body.as_default():
            a = body.add_placeholder(tf.int32, [], "a")
            body.outputs = [(a + k) * (c(2) + c(3))]       # 2+3 folds in the body
        y = call_subgraph(body, x)
    g.outputs = [y]
    report = optimize(g, check=True)
    assert body.captures[0][0] is x                         # capture now refers to x
    assert report.count("constant_folding") == 1
    assert run(g, 4) == [40]


# --- switches and reports ----------------------------------------------------------

def test_meta_switch_and_pruning_switch():
    assert enabled_passes(ALL_OFF) == []
    names = [n for n, _ in enabled_passes({"disable_model_pruning": True})]
    assert "dead_code_elimination" not in names and "constant_folding" in names
    g = build("f", [("x", tf.int32, [])], lambda x: x * 1)
    report = optimize(g, ALL_OFF, check=True)
    assert ops_of(g) == ["Placeholder", "Const", "Mul"]
    assert report.nodes_before == report.nodes_after == 3


def test_unknown_option_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown optimizer option.*'constant_foldng'"):
        optimize(Graph("f"), {"constant_foldng": False})


def test_tensorflow_only_options_are_accepted():
    assert len(enabled_passes({"remapping": False, "layout_optimizer": True})) == 5


def test_report_text():
    g = build("f", [("x", tf.int32, [])], lambda x: x * 1 + c(2) * c(3))
    report = optimize(g, {"common_subexpression_elimination": False}, check=True)
    text = str(report)
    assert text.startswith("optimized 'f': 7 -> 3 nodes\n")
    assert "  arithmetic_optimization: 1 change(s)\n    Mul by a neutral constant: " \
           "replaced Mul by x:0" in text
    assert "  constant_folding: 1 change(s)\n    folded Mul_1 (Mul) into a constant" in text
    assert "  common_subexpression_elimination: off" in text
    assert g.optimization_report is report


# --- lint ------------------------------------------------------------------------

def test_lint_accepts_valid_graphs_and_reports_problems():
    g = build("f", [("x", tf.int32, [])], lambda x: x + 1)
    lint(g)
    g.nodes.insert(1, g.nodes.pop())                        # use before definition
    g.nodes.append(g.nodes[0])                              # duplicate name
    with pytest.raises(LintError) as e:
        lint(g)
    msg = str(e.value)
    assert "node 'AddV2' (AddV2): input 1 (Const:0) is not defined earlier" in msg
    assert "node 'x' (Placeholder): name is used twice" in msg


def test_lint_reports_foreign_outputs_and_bad_captures():
    other = build("g", [("y", tf.int32, [])], lambda y: y)
    g = build("f", [("x", tf.int32, [])], lambda x: x)
    g.outputs = [other.inputs[0]]
    with pytest.raises(LintError, match=r"f: output 0 \(y:0\) does not belong to the graph"):
        lint(g)


# --- property test: all passes on == all passes off ----------------------------------

def _cases():
    return [
        ("arith", [("x", tf.int32, [5]), ("y", tf.int32, [5])],
         lambda x, y: (x * 1 + y * (c(2) * c(3)), -(-y) - 0, x * y + x * y)),
        ("floats", [("x", tf.float32, [4])],
         lambda x: (x * 1.0 + 0.0, x - x * 0.0, -(-(x + c(0.5, np.float32))))),
        ("compare", [("x", tf.int32, [3]), ("y", tf.int32, [3])],
         lambda x, y: (x < y, (x + 0) > (y * 1), x * c([1, 2, 3]))),
        ("broadcast", [("x", tf.int64, [2, 3])],
         lambda x: (x * c([1, 1, 1], np.int64), x + c([[0], [0]], np.int64))),
        ("overflow", [("x", tf.int32, [3])],
         lambda x: (x * c(2) * c(1) - x, -(-x) + c(2147483647))),
    ]


def _random(dtype, shape, rng):
    if dtype.is_floating:
        v = rng.standard_normal(shape).astype(dtype.np_dtype)
        v.reshape(-1)[:2] = [np.nan, -0.0][:v.size]
        return v
    info = np.iinfo(dtype.np_dtype)
    return rng.integers(info.min, info.max, size=shape, dtype=dtype.np_dtype, endpoint=True)


@pytest.mark.parametrize("case", _cases(), ids=lambda case: case[0])
def test_all_passes_on_equals_all_passes_off(case):
    name, inputs, fn = case
    plain = build(name, inputs, fn)
    optimized = build(name, inputs, fn)
    optimize(plain, ALL_OFF)
    report = optimize(optimized, check=True)
    assert report.nodes_after < report.nodes_before
    rng = np.random.default_rng(0)
    for _ in range(20):
        values = [_random(d, s, rng) for _, d, s in inputs]
        with np.errstate(all="ignore"):
            expected, got = run(plain, *values), run(optimized, *values)
        for a, b in zip(expected, got):
            assert a.dtype == b.dtype and a.shape == b.shape
            np.testing.assert_array_equal(a, b)
