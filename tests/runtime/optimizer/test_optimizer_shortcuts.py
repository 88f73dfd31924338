"""The passes' shortcuts (a graph skipped when no node could change: no op a
rule applies to, or none that simplifies; no two nodes of one op; no node
reading only constants; every node needed or fed) leave every graph as the
full passes do."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.graph.graph import needed_nodes
from runtime._src.optimizer import arithmetic, constant_folding, cse, dce, optimize, walk_graphs

from tests.runtime.graphdata_helpers import build, run

INPUTS = [("x", tf.float32, []), ("n", tf.int32, [])]


def loops_and_branches(x, n):
    def body(i, total):
        a = x * 1.0 + 3.0
        b = x * 1.0 + 3.0
        total = tf.cond(total > 10.0, lambda: total - (a + b), lambda: total + (a + b) * 2.0)
        return i + 1, total
    out = tf.while_loop(lambda i, t: i < n, body, (tf.constant(0), x * 0.0))[1]
    unused = tf.cond(x > 0.0, lambda: x + 2.0, lambda: x - 2.0)  # noqa: F841 - dead
    return out + (2.0 * 3.0)


def constants_only(x, n):
    c = tf.constant([1.0, 2.0]) * tf.constant(2.0) + tf.constant(-0.0)
    return x + tf.reduce_sum(c), tf.identity(n)


def one_op_each(x, n):
    return tf.cast(n, tf.float32) - x


def signed_zeros(x, n):
    z = tf.constant([0.0, -0.0])
    return (x + tf.constant(-0.0)) - tf.constant(0.0), x + z, x - z, x * tf.constant([])


CASES = {"loops_and_branches": loops_and_branches, "constants_only": constants_only,
         "one_op_each": one_op_each, "signed_zeros": signed_zeros}


def _summary(graph):
    return [(g.name, [(n.op, n.name) for n in g.nodes]) for g in walk_graphs(graph)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_shortcuts_change_nothing(name, monkeypatch):
    fast = build("f", INPUTS, CASES[name])
    fast_report = optimize(fast, check=True)
    monkeypatch.setattr(cse, "_repeats_an_op", lambda graph: True)
    monkeypatch.setattr(constant_folding, "_has_candidate", lambda graph: True)
    monkeypatch.setattr(dce, "_nothing_to_remove", lambda graph: False)
    monkeypatch.setattr(arithmetic, "_RULE_OPS", _Everything(arithmetic._RULE_OPS))
    monkeypatch.setattr(arithmetic, "_some_node_simplifies", lambda graph: True)
    full = build("f", INPUTS, CASES[name])
    full_report = optimize(full, check=True)
    assert _summary(fast) == _summary(full)
    assert str(fast_report) == str(full_report)
    for x, n in [(1.5, 3), (-0.0, 0)]:
        for a, b in zip(run(fast, x, n), run(full, x, n)):
            np.testing.assert_array_equal(a, b)
            assert np.signbit(a).tolist() == np.signbit(b).tolist()


class _Everything(frozenset):
    """Every op is a candidate for the graph-level check (the per-node check
    in `_simplify` still reads the real set)."""

    def __contains__(self, op):
        return True


def _effect_and_dead(x, n):
    tf.print(x)                                    # unused, but a side effect
    unused = x * 2.0                               # noqa: F841 - dead
    return tf.identity(n)


def _all_used(x, n):
    tf.print(x)
    return (x + 1.0,)                              # n: read by nothing, but fed: kept


@pytest.mark.parametrize("body,removable", [(_effect_and_dead, True), (_all_used, False)])
def test_dead_code_proof_agrees_with_needed_nodes(body, removable):
    g = build("f", INPUTS, body)
    needed, fed = needed_nodes(g), {t.node for t in g.inputs}
    assert any(n not in needed and n not in fed for n in g.nodes) == removable
    assert dce._nothing_to_remove(g) == (not removable)
    messages = dce.run(g)
    assert bool(messages) == removable
    assert dce._nothing_to_remove(g)               # after the pass: nothing left


def test_dead_code_proof_looks_at_an_unfed_placeholder():
    g = build("f", INPUTS, lambda x, n: (x,))
    g.inputs = g.inputs[:1]                        # n: neither input nor capture now
    assert not dce._nothing_to_remove(g)
    assert dce.run(g) == ["removed unused n (Placeholder)"]


def test_arithmetic_looks_past_rule_ops_that_do_not_simplify():
    g = build("f", INPUTS, lambda x, n: ((x + 2.0) * 1.0,))
    assert arithmetic._some_node_simplifies(g)       # the Mul, after the AddV2
    assert arithmetic.run(g) == ["Mul by a neutral constant: replaced Mul by AddV2:0"]
    assert not arithmetic._some_node_simplifies(g)
    assert arithmetic.run(g) == []


def test_traced_sources_hold_no_graph_from_the_start():
    g = build("f", INPUTS, lambda x, n: (tf.cond(x > 0.0, lambda: x + 1.0, lambda: x - 1.0),))
    sources = [node for node in g.nodes if node.op in ("Placeholder", "Const")]
    assert sources and all(node._subgraphs == () for node in sources)   # known, not looked for
    assert all(node.subgraphs() == [] for node in sources)
    (if_node,) = [node for node in g.nodes if node.op == "If"]
    assert len(if_node.subgraphs()) == 2
    assert [sub.name for sub in walk_graphs(g)][1:] == [sub.name for sub in if_node.subgraphs()]
    optimize(g, check=True)
    assert run(g, 2.0, 0) == [3.0] and run(g, -2.0, 0) == [-3.0]


@pytest.mark.parametrize("value", [np.array(1, np.int32), np.array(0, np.int64), np.array(2, np.uint8),
                                   np.array(True), np.array(1.0, np.float16), np.array(-0.0, np.float32),
                                   np.array(0.0, np.float64), np.array(np.nan, np.float32)])
def test_constant_tests_read_a_scalar_as_its_array(value):
    fast = arithmetic._test_value(value)             # the shortcut: a Python scalar
    assert not isinstance(fast, np.ndarray)
    dtype = tf.as_dtype(value.dtype)
    for _, _, test in arithmetic.CONSTANT_RULES:
        assert test(fast, dtype) == test(np.asarray(value), dtype)


def test_constant_tests_read_arrays_as_arrays():
    assert isinstance(arithmetic._test_value(np.ones([3], np.float32)), np.ndarray)
    g = build("f", [("x", tf.float32, [3])],
              lambda x: (x * tf.constant([1.0, 1.0, 1.0]), x + tf.constant([-0.0, 0.0, -0.0])))
    assert arithmetic.run(g) == ["Mul by a neutral constant: replaced Mul by x:0"]
