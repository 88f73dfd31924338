"""Optimizer rounds: later rounds revisit only the graphs a change can affect,
and that finds exactly what revisiting every graph finds."""

import numpy as np

import runtime as tf
import runtime._src.optimizer as optimizer
from runtime._src.optimizer import cse, optimize, walk_graphs

from tests.runtime.graphdata_helpers import build, run

INPUTS = [("x", tf.int32, []), ("n", tf.int32, [])]


def nested(x, n):
    """A while loop with a cond inside, duplicated pure work, x * 1, constants."""
    def body(i, total):
        a = x * 1 + 3
        b = x * 1 + 3
        total = tf.cond(total > 10, lambda: total - (a + b), lambda: total + (a + b) * 2)
        return i + 1, total
    out = tf.while_loop(lambda i, t: i < n, body, (tf.constant(0), x * 0))[1]
    unused = tf.cond(x > 0, lambda: x + 2, lambda: x - 2)  # noqa: F841 - dead
    return out + (2 * 3)


def _summary(graph):
    return [(g.name, [n.op for n in g.nodes]) for g in walk_graphs(graph)]


def test_second_optimize_finds_nothing_left():
    g = build("f", INPUTS, nested)
    first = optimize(g, check=True)
    assert sum(first.count(name) for name in first.changes) > 0
    again = optimize(g, check=True)
    assert all(again.count(name) == 0 for name in again.changes), str(again)


def test_affected_rounds_match_full_rounds(monkeypatch):
    fast = build("f", INPUTS, nested)
    fast_report = optimize(fast, check=True)
    monkeypatch.setattr(optimizer, "_affected", lambda graph, changed: None)
    full = build("f", INPUTS, nested)
    full_report = optimize(full, check=True)
    assert _summary(fast) == _summary(full)
    assert str(fast_report) == str(full_report)
    for x, n in [(1, 4), (5, 0), (-3, 7)]:
        np.testing.assert_array_equal(run(fast, x, n)[0], run(full, x, n)[0])


def test_flags_are_not_remembered_outside_the_optimizer():
    g = build("f", INPUTS, lambda x, n: x + n)
    assert not g.is_stateful()
    with g.as_default():
        tf.print(g.inputs[0])
    assert g.has_side_effects() and g.is_stateful()


def _rounds(monkeypatch):
    """A list that counts the optimizer's rounds while the test runs."""
    counted = []
    real = optimizer._run_round

    def counting(*args):
        counted.append(1)
        return real(*args)
    monkeypatch.setattr(optimizer, "_run_round", counting)
    return counted


def hoisted_twice(x, n):
    """Loop-invariant x + 3 leaves the body next to the same x + 3 outside:
    the round after the hoist merges them (a CSE-only round)."""
    def body(i, total):
        return i + 1, total + (x + 3)
    out = tf.while_loop(lambda i, t: i < n, body, (tf.constant(0), x))[1]
    return out * (x + 3)


def test_no_round_after_exact_merges_only(monkeypatch):
    counted = _rounds(monkeypatch)
    lean = build("f", INPUTS, hoisted_twice)
    lean_report = optimize(lean, check=True)
    lean_rounds = len(counted)
    counted.clear()
    monkeypatch.setattr(optimizer, "_NO_NEW_ROUND", {})    # every edit asks for a round
    full = build("f", INPUTS, hoisted_twice)
    full_report = optimize(full, check=True)
    assert (lean_rounds, len(counted)) == (2, 3)
    assert lean_report.changes["common_subexpression_elimination"] == [
        "merged Const_1 into Const_1_1 (Const)", "merged AddV2 into AddV2_1 (AddV2)"]
    assert _summary(lean) == _summary(full)
    assert str(lean_report) == str(full_report)
    for x, n in [(1, 4), (5, 0)]:
        np.testing.assert_array_equal(run(lean, x, n)[0], run(full, x, n)[0])


def test_a_merge_into_a_less_refined_shape_is_not_exact():
    def refined(x):
        a, b = tf.abs(x), tf.abs(x)
        b.set_shape([3])         # b's static shape is [3], a's [None]
        return a + b
    g = build("f", [("x", tf.float32, [None])], refined)
    assert cse.run(g) == ["merged Abs_1 into Abs (Abs)"]
    assert not cse.merges_were_exact()
    same = build("f", [("x", tf.float32, [None])], lambda x: tf.abs(x) + tf.abs(x))
    assert len(cse.run(same)) == 1 and cse.merges_were_exact()
