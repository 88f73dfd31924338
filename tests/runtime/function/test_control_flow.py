"""cond and while_loop: eager vs graph equivalence, error messages, shape
relaxation, side effects only where they run, and flat-memory loops."""

import collections
import gc
import tracemalloc

import numpy as np
import pytest

import runtime as tf
from runtime._src.exec import executor
from runtime._src.graph.graph import Graph

from tests.runtime.function.cf_helpers import assert_same, eagerly, in_graph, trace, twice
from runtime._src.graph.op_registry import apply

I32, F32 = np.int32, np.float32
Pair = collections.namedtuple("Pair", ["a", "b"])


def fail(x):
    return apply("TestFail", [x])  # the user's line errors should name


def _recorder(log, tag):
    """A py_function that appends `tag` to `log` at every run."""
    def record(x):
        log.append(tag)
        return x
    return lambda x: tf.py_function(record, [x], Tout=x.dtype)


# --- cond: eager vs graph ----------------------------------------------------------

COND_CASES = [
    ("scalar", lambda x: tf.cond(x > 2, lambda: x * 2, lambda: x - 1), [I32(5), I32(1)]),
    ("nested", lambda x: tf.cond(x > 0, lambda: {"a": (x, x + 1), "b": [x * 3]},
                                 lambda: {"a": (x - 1, x), "b": [x]}), [I32(4), I32(-4)]),
    ("python_ints", lambda x: tf.cond(x > 0, lambda: (1, x), lambda: (2, x)), [I32(1), I32(-1)]),
    ("namedtuple", lambda x: tf.cond(x > 0, lambda: Pair(x, x * 2), lambda: Pair(x * 3, x)),
     [F32(1.5), F32(-2.0)]),
    ("none_in_both", lambda x: tf.cond(x > 0, lambda: (None, x), lambda: (None, -x)),
     [I32(3), I32(-3)]),
]


@pytest.mark.parametrize("name,fn,inputs", COND_CASES, ids=[c[0] for c in COND_CASES])
def test_cond_graph_matches_eager(name, fn, inputs):
    for x in inputs:
        assert_same(in_graph(fn, x), eagerly(fn, x))


def test_cond_vector_branches_use_captured_pred():
    def f(v, p):
        return tf.cond(p > 0, lambda: v + v, lambda: v * v * v)
    for p in (I32(1), I32(0)):
        v = np.array([1, 2, 3], I32)
        assert_same(in_graph(f, v, p), eagerly(f, v, p))
    np.testing.assert_array_equal(in_graph(f, np.array([2, 3], I32), I32(0)), [8, 27])


def test_cond_python_outputs_become_tensors_in_graph():
    g, out, _ = trace(lambda x: tf.cond(x > 0, lambda: (1, 2.0, True), lambda: (3, 4.0, False)),
                      I32(0))
    assert [t.dtype for t in out] == [tf.int32, tf.float32, tf.bool]


def test_cond_eager_runs_only_the_chosen_branch_and_returns_it_as_is():
    calls = []
    out = tf.cond(tf.convert_to_tensor(False), lambda: calls.append("t") or 1,
                  lambda: calls.append("f") or 2)
    assert (out, calls) == (2, ["f"])
    assert tf.cond(True, lambda: "yes", lambda: "no") == "yes"


def test_cond_branches_capture_different_outer_tensors():
    def f(p, a, b):
        return tf.cond(p > 0, lambda: a * 10, lambda: b + a * 0 + b)
    for p in (I32(1), I32(-1)):
        assert_same(in_graph(f, p, I32(3), I32(4)), eagerly(f, p, I32(3), I32(4)))
    g, _, _ = trace(f, I32(1), I32(3), I32(4))
    node = next(n for n in g.nodes if n.op == "If")
    then_g, else_g = node.attrs["then_branch"], node.attrs["else_branch"]
    outers = [o for o, _ in then_g.captures]
    assert [o for o, _ in else_g.captures] == outers
    assert list(node.inputs[1:]) == outers


def test_cond_merges_branch_shapes():
    g, out, _ = trace(lambda p, v: tf.cond(p > 0, lambda: v, lambda: twice(v)),
                      I32(1), np.array([1, 2], I32))
    assert out.shape == tf.TensorShape([None])
    np.testing.assert_array_equal(executor.run(g, [I32(0), np.array([1, 2], I32)])[0],
                                  [1, 2, 1, 2])


def test_cond_python_number_takes_the_other_branch_dtype():
    f = lambda p, x: tf.cond(p > 0, lambda: 0, lambda: x)
    g, out, _ = trace(f, I32(1), F32(2.5))
    assert out.dtype == tf.float32
    assert executor.run(g, [I32(1), F32(2.5)])[0] == F32(0)


# --- cond: errors ----------------------------------------------------------------------

def _traced(fn, *specs):
    g = Graph("f")
    with g.as_default():
        args = [g.add_placeholder(d, s, f"a{i}") for i, (d, s) in enumerate(specs)]
        return fn(*args)


def test_cond_dtype_mismatch_names_the_output():
    def f(x, y):
        return tf.cond(x > 0, lambda: (x, x), lambda: (x, y), names=("a", "y"))
    with pytest.raises(TypeError, match=r"'y' has dtype int32 in the true branch but "
                                        r"float32 in the false branch"):
        _traced(f, (tf.int32, []), (tf.float32, []))


def test_cond_dtype_mismatch_without_names_names_the_position():
    def f(x, y):
        return tf.cond(x > 0, lambda: {"k": [x]}, lambda: {"k": [y]})
    with pytest.raises(TypeError, match=r"'output\['k'\]\[0\]' has dtype int32"):
        _traced(f, (tf.int32, []), (tf.float32, []))


@pytest.mark.parametrize("true_value,where", [(None, "if"), ("x", "else")])
def test_cond_none_in_one_branch_names_it(true_value, where):
    def f(x):
        t = None if true_value is None else x
        e = x if true_value is None else None
        return tf.cond(x > 0, lambda: (x, t), lambda: (x, e), names=("x", "y"))
    other = "else" if where == "if" else "if"
    with pytest.raises(ValueError, match=rf"'y' is None in the {where} branch but an int32 "
                                         rf"tensor in the {other} branch"):
        _traced(f, (tf.int32, []))


def test_cond_structure_mismatch_is_a_value_error():
    def f(x):
        return tf.cond(x > 0, lambda: (x, (x, x)), lambda: (x, x), names=("a", "b"))
    with pytest.raises(ValueError, match="'b' has a different structure"):
        _traced(f, (tf.int32, []))


def test_cond_rejects_non_scalar_pred_and_non_callables():
    with pytest.raises(ValueError, match="pred must be a scalar"):
        _traced(lambda v: tf.cond(v > 0, lambda: v, lambda: v), (tf.int32, [2]))
    with pytest.raises(TypeError, match="must be callables"):
        tf.cond(True, 1, lambda: 2)


# --- cond: tracing order and side effects -----------------------------------------------

def test_cond_traces_true_branch_first(capsys):
    def f(x):
        def t():
            print("true branch")
            return x
        def e():
            print("false branch")
            return x
        return tf.cond(x > 0, t, e)
    _traced(f, (tf.int32, []))
    assert capsys.readouterr().out == "true branch\nfalse branch\n"


def test_cond_side_effects_happen_only_in_the_taken_branch():
    log = []
    t_rec, f_rec = _recorder(log, "true"), _recorder(log, "false")
    g, _, _ = trace(lambda x: tf.cond(x > 0, lambda: t_rec(x), lambda: f_rec(x)), I32(0))
    assert log == []
    executor.run(g, [I32(1)])
    executor.run(g, [I32(-1)])
    executor.run(g, [I32(2)])
    assert log == ["true", "false", "true"]


def test_cond_branch_without_outputs_still_runs_its_side_effects():
    log = []
    rec = _recorder(log, "ran")
    g = Graph("f")
    with g.as_default():
        x = g.add_placeholder(tf.int32, [], "x")
        out = tf.cond(x > 0, lambda: (rec(x), None)[1], lambda: None)
    assert out is None
    executor.run(g, [I32(1)])
    executor.run(g, [I32(0)])
    assert log == ["ran"]


def test_cond_run_time_error_names_op_and_user_line():
    g, _, _ = trace(lambda x: tf.cond(x > 0, lambda: fail(x), lambda: x), I32(0))
    assert executor.run(g, [I32(-1)]) == [I32(-1)]
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        executor.run(g, [I32(1)])
    assert "TestFail" in str(info.value) and "always fails" in str(info.value)
    assert "test_control_flow.py" in str(info.value)


# --- while_loop: eager vs graph ---------------------------------------------------------

def _count_to(n):
    return tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i), (0, 0))


WHILE_CASES = [
    ("count", _count_to, [I32(0), I32(1), I32(10)]),
    ("vector", lambda v: tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * 2 + 1),
                                       [I32(0), v]),
     [np.array([1.5, -2.0], F32)]),
    ("nested_dict", lambda n: tf.while_loop(
        lambda s: s["i"] < n,
        lambda s: {"i": s["i"] + 1, "acc": (s["acc"][0] * 2, s["acc"][1] + s["i"])},
        {"i": 0, "acc": (1, 0)}), [I32(5)]),
    ("namedtuple", lambda n: tf.while_loop(lambda p: p.a < n,
                                           lambda p: (Pair(p.a + 1, p.b * 3),), (Pair(0, 1),)),
     [I32(4)]),
    ("dict_loop_vars", lambda n: tf.while_loop(lambda d: d["i"] < n,
                                               lambda d: {"i": d["i"] + 1, "x": d["x"] * 2},
                                               {"i": 0, "x": 1.5}), [I32(3)]),
    ("single_var_bare_result", lambda n: tf.while_loop(lambda i: i < n, lambda i: i + 2, [0]),
     [I32(7)]),
    ("max_iterations", lambda n: tf.while_loop(lambda i: i < n, lambda i: (i + 1,), (0,),
                                               maximum_iterations=4), [I32(2), I32(100)]),
    ("none_var_passes_through", lambda n: tf.while_loop(
        lambda i, z: i < n, lambda i, z: (i + 1, None), (0, None)), [I32(3)]),
]


@pytest.mark.parametrize("name,fn,inputs", WHILE_CASES, ids=[c[0] for c in WHILE_CASES])
def test_while_graph_matches_eager(name, fn, inputs):
    for x in inputs:
        assert_same(in_graph(fn, x), eagerly(fn, x))


def test_while_maximum_iterations_values():
    f = lambda n: tf.while_loop(lambda i: i < n, lambda i: (i + 1,), (0,),
                                maximum_iterations=4)
    assert in_graph(f, I32(100)) == (4,)
    assert in_graph(f, I32(2)) == (2,)
    g = lambda n, m: tf.while_loop(lambda i: i < n, lambda i: (i + 1,), (0,),
                                   maximum_iterations=m)
    assert in_graph(g, I32(100), I32(7)) == (7,)
    assert eagerly(g, I32(100), I32(7)) == (7,)


def test_while_returns_the_loop_vars_structure_with_python_values_as_tensors():
    g, out, _ = trace(_count_to, I32(3))
    assert isinstance(out, tuple) and len(out) == 2
    assert [t.dtype for t in out] == [tf.int32, tf.int32]
    assert eagerly(_count_to, I32(4)) == (4, 6)


def test_while_body_and_cond_capture_outer_tensors():
    def f(n, step):
        return tf.while_loop(lambda i: i < n, lambda i: (i + step,), (0,))
    assert in_graph(f, I32(10), I32(3)) == (12,)
    g, _, _ = trace(f, I32(10), I32(3))
    node = next(n for n in g.nodes if n.op == "While")
    cond_g, body_g = node.attrs["cond"], node.attrs["body"]
    assert [o for o, _ in cond_g.captures] == [o for o, _ in body_g.captures] \
        == list(node.inputs[1:])


def test_nested_cond_in_while_and_while_in_cond():
    def collatz(n):
        def body(x, steps):
            x = tf.cond(x - (x * 0 + 2) * _half(x) > 0, lambda: 3 * x + 1, lambda: _half(x))
            return x, steps + 1
        return tf.while_loop(lambda x, s: x > 1, body, (n, 0))

    def f(p, n):
        return tf.cond(p > 0, lambda: _count_to(n), lambda: (n, n))
    for p in (I32(1), I32(0)):
        assert_same(in_graph(f, p, I32(5)), eagerly(f, p, I32(5)))
    assert in_graph(collatz, I32(6)) == eagerly(collatz, I32(6)) == (1, 8)


def _half(x):
    """x // 2 for small non-negative ints, using only add/sub/mul/less."""
    q, _ = tf.while_loop(lambda q, r: r > 1, lambda q, r: (q + 1, r - 2), (0 * x, x))
    return q


def test_while_body_side_effects_run_every_iteration():
    log = []
    rec = _recorder(log, "step")
    f = lambda n: tf.while_loop(lambda i: i < n, lambda i: (rec(i) + 1,), (0,))
    g, _, _ = trace(f, I32(0))
    executor.run(g, [I32(3)])
    assert log == ["step"] * 3


# --- while_loop: shapes ------------------------------------------------------------------

def test_while_relaxes_a_growing_loop_var_to_unknown_dims():
    def f(v):
        return tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, twice(v)), (0, v))
    g, out, _ = trace(f, np.array([1, 2], I32))
    assert out[1].shape == tf.TensorShape([None])
    body = next(n for n in g.nodes if n.op == "While").attrs["body"]
    assert [t.shape for t in body.inputs] == [tf.TensorShape([]), tf.TensorShape([None])]
    v = np.array([1, 2], I32)
    assert_same(in_graph(f, v), eagerly(f, v))
    assert in_graph(f, v)[1].shape == (16,)


def test_while_shape_invariants_are_the_placeholder_shapes():
    def f(v):
        return tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * 2), (0, v),
                             shape_invariants=(tf.TensorShape([]), tf.TensorShape([None])))
    g, out, _ = trace(f, np.array([1, 3], I32))
    body = next(n for n in g.nodes if n.op == "While").attrs["body"]
    assert body.inputs[1].shape == tf.TensorShape([None])
    assert out[1].shape == tf.TensorShape([None])
    np.testing.assert_array_equal(in_graph(f, np.array([1, 3], I32))[1], [8, 24])


def test_while_shape_invariant_incompatible_with_initial_value():
    with pytest.raises(ValueError, match="'loop_vars\\[0\\]' enters the loop with shape"):
        _traced(lambda v: tf.while_loop(lambda v: True, lambda v: (v,), (v,),
                                        shape_invariants=(tf.TensorShape([3]),)),
                (tf.int32, [2]))


# --- while_loop: errors --------------------------------------------------------------

def test_while_dtype_change_names_the_var_and_both_dtypes():
    def f(n):
        return tf.while_loop(lambda i, x: i < n,
                             lambda i, x: (i + 1, tf.convert_to_tensor(1.5)), (0, 1),
                             names=("i", "x"))
    with pytest.raises(TypeError, match=r"'x' has dtype int32 before the loop \(the Python "
                                        r"int 1\) but float32 after the loop body"):
        _traced(f, (tf.int32, []))


def test_while_structure_change_is_a_type_error_naming_the_var():
    def f(n):
        return tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, (x, x)), (0, 1),
                             names=("i", "x"))
    with pytest.raises(TypeError, match="'x' does not have the same nested structure after one "
                                        "iteration"):
        _traced(f, (tf.int32, []))


def test_while_none_before_the_loop_names_the_var():
    def f(n):
        return tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, i), (0, None),
                             names=("i", "y"))
    with pytest.raises(ValueError, match="'y' is None before the loop but an int32 tensor"):
        _traced(f, (tf.int32, []))


def test_while_cond_must_return_a_bool():
    with pytest.raises(TypeError, match="cond must return a bool scalar, got an int32 tensor"):
        _traced(lambda n: tf.while_loop(lambda i: i, lambda i: (i + 1,), (n,)), (tf.int32, []))


def test_while_run_time_error_in_body_names_op_and_line():
    g, _, _ = trace(lambda n: tf.while_loop(lambda i: i < n, lambda i: (fail(i),), (0,)), I32(0))
    assert executor.run(g, [I32(0)]) == [I32(0)]
    with pytest.raises(tf.errors.InvalidArgumentError, match="TestFail") as info:
        executor.run(g, [I32(2)])
    assert "test_control_flow.py" in str(info.value)


# --- while_loop: a long loop in flat memory ---------------------------------------------

@pytest.mark.long
def test_million_iterations_run_in_flat_memory():
    g, _, _ = trace(lambda n: tf.while_loop(lambda i: i < n, lambda i: (i + 1,), (0,)), I32(0))
    assert executor.run(g, [I32(10)]) == [10]  # compile outside the measurement
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        (result,) = executor.run(g, [I32(1_000_000)])
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert result == 1_000_000
    assert peak < 1 << 20, f"peak extra memory {peak} bytes"


@pytest.mark.long
def test_while_kernel_itself_loops_without_growth():
    """The While kernel (used where the executor does not inline the loop)."""
    from runtime._src.exec.control_flow_ops import _while_kernel
    g, _, _ = trace(lambda n: tf.while_loop(lambda i: i < n, lambda i: (i + 1,), (0,)), I32(0))
    attrs = next(n for n in g.nodes if n.op == "While").attrs
    assert _while_kernel(I32(0), I32(10), **attrs) == [10]
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        (result,) = _while_kernel(I32(0), I32(200_000), **attrs)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert result == 200_000
    assert peak < 1 << 20, f"peak extra memory {peak} bytes"


# --- the If/While kernels themselves ------------------------------------------------
# The executor may inline If/While as Python code; these run every node through
# its kernel (nested subgraphs still go through executor.run), so the kernels
# are checked against eager results too.

def _run_with_kernels(g, inputs):
    env = {id(t): v for t, v in zip(g.inputs, inputs)}
    for node in g.nodes:
        if node.op == "Placeholder":
            continue
        out = node.opdef.kernel(*[env[id(t)] for t in node.inputs], **node.attrs)
        outs = [out] if node.opdef.num_outputs == 1 else list(out)
        env.update((id(t), v) for t, v in zip(node.outputs, outs))
    return [env[id(t)] for t in g.outputs]


KERNEL_CASES = [
    ("cond", lambda p, a, b: tf.cond(p > 0, lambda: (a * 10, b), lambda: (b, a + b)),
     [(I32(1), I32(3), I32(4)), (I32(-1), I32(3), I32(4))]),
    ("while_with_captures", lambda n, step: tf.while_loop(lambda i, s: i < n,
                                                          lambda i, s: (i + step, s + i),
                                                          (0, 0)),
     [(I32(10), I32(3)), (I32(0), I32(1))]),
    ("while_max_iterations", lambda n, m: tf.while_loop(lambda i: i < n, lambda i: (i + 1,),
                                                        (0,), maximum_iterations=m),
     [(I32(100), I32(7)), (I32(3), I32(7))]),
]


@pytest.mark.parametrize("name,fn,arg_sets", KERNEL_CASES, ids=[c[0] for c in KERNEL_CASES])
def test_kernels_match_eager(name, fn, arg_sets):
    for args in arg_sets:
        g, out, flat = trace(fn, *args)
        got = _run_with_kernels(g, list(args))
        want = list(eagerly(fn, *args))
        assert_same(got, want)


def test_if_kernel_rejects_a_non_scalar_condition():
    from runtime._src.exec.control_flow_ops import _if_kernel
    g, _, _ = trace(lambda p: tf.cond(p > 0, lambda: p, lambda: p), I32(1))
    attrs = next(n for n in g.nodes if n.op == "If").attrs
    with pytest.raises(ValueError, match=r"condition must be a scalar, got a value of shape \(2,\)"):
        _if_kernel(np.array([True, False]), I32(1), **attrs)


def test_variable_writes_happen_only_where_they_run():
    v = tf.Variable(0)
    g = Graph("f")
    with g.as_default():
        x = g.add_placeholder(tf.int32, [], "x")
        out = tf.cond(x > 0, lambda: v.assign_add(1), lambda: v.assign_add(100))
        (i,) = tf.while_loop(lambda i: i < x, lambda i: (v.assign_add(i) * 0 + i + 1,), (0,))
    g.outputs = [out, i]
    assert v.numpy() == 0  # tracing wrote nothing
    assert executor.run(g, [I32(1)]) == [1, 1] and v.numpy() == 1
    assert executor.run(g, [I32(-1)]) == [101, 0] and v.numpy() == 101
    assert executor.run(g, [I32(3)]) == [102, 3] and v.numpy() == 105  # + 0 + 1 + 2


def test_loop_body_is_traced_once_when_shapes_are_stable(capsys):
    def body(i):
        print("tracing body")
        return (i + 1,)
    _traced(lambda n: tf.while_loop(lambda i: i < n, body, (0,)), (tf.int32, []))
    assert capsys.readouterr().out == "tracing body\n"
