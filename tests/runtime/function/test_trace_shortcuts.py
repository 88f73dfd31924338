"""Tracing's shortcuts give what the long way gives: each is exercised with
a case it takes and a case it leaves to the general code (staged ifs of flat
and nested outputs, symbolic and converted branch values, aligned and
reordered captures, Python numbers made constants at once, bool and other
conditions, graphs entered without a context manager, device scopes, new and
taken node names, captures from the direct outer graph and from further out,
binary ops of equal and broadcast shapes)."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.core.dtypes import float32, int32
from runtime._src.core.tensor import EagerTensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.function import control_flow
from runtime._src.graph.graph import Graph, current_graph


def _run(fn, *args):
    return tf.function(fn)(*args).numpy()


# --- staged if: one leaf per name, or nested outputs --------------------------------

def test_flat_and_nested_cond_outputs_agree():
    def flat(x):
        a, b = tf.cond(x > 0, lambda: (x + 1, x * 2), lambda: (x - 1, x * 3), names=("a", "b"))
        return a + b

    def nested(x):
        out = tf.cond(x > 0, lambda: {"s": (x + 1, [x * 2])}, lambda: {"s": (x - 1, [x * 3])})
        return out["s"][0] + out["s"][1][0]

    for v in (4, -4):
        x = tf.constant(v)
        assert _run(flat, x) == _run(nested, x) == (v + 1 + v * 2 if v > 0 else v - 1 + v * 3)


def test_one_leaf_per_name_takes_only_plain_tuples_of_leaves():
    g = Graph("g")
    with g.as_default():
        x = g.add_placeholder(int32, [], "x")
    assert control_flow._one_leaf_per_name((x, 1), (x, None), ("a", "b"))
    assert control_flow._one_leaf_per_name([x], [x], ("a",))
    assert not control_flow._one_leaf_per_name((x, (x,)), (x, (x,)), ("a", "b"))   # nested
    assert not control_flow._one_leaf_per_name((x,), [x], ("a",))          # two kinds
    assert not control_flow._one_leaf_per_name((x,), (x,), ("a", "b"))     # a name short
    assert not control_flow._one_leaf_per_name((x,), (x,), None)
    assert not control_flow._one_leaf_per_name(x, x, ("a",))                # not a sequence


def test_a_structure_mismatch_under_names_is_still_refused():
    def f(x):
        return tf.cond(x > 0, lambda: (x, (x,)), lambda: (x, x), names=("a", "b"))
    with pytest.raises(ValueError, match="'b' has a different structure in the true and "
                                         "false branches"):
        tf.function(f)(tf.constant(1))


# --- branch values: two symbolic tensors, or values converted -------------------------

def test_symbolic_and_converted_branch_values_agree():
    def symbolic(x):
        return tf.cond(x > 0, lambda: x + 2, lambda: x - 2)

    def converted(x):                   # a Python number in one branch takes x's dtype
        return tf.cond(x > 0, lambda: x + 2, lambda: 7)

    assert _run(symbolic, tf.constant(3)) == _run(converted, tf.constant(3)) == 5
    assert _run(converted, tf.constant(-3)) == 7
    both_none = tf.function(lambda x: tf.cond(x > 0, lambda: (None, x), lambda: (None, x)))
    assert both_none(tf.constant(1))[0] is None


def test_branch_dtypes_must_agree_on_either_road():
    def f(x):
        return tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.float32))
    with pytest.raises(TypeError, match="has dtype int32 in the true branch but float32"):
        tf.function(f)(tf.constant(1))


# --- captures: already aligned, or made to agree -------------------------------------

def _capturing(outer, name, tensors):
    g = Graph(name, outer=outer)
    for t in tensors:
        g.capture(t)
    return g


def test_align_captures_keeps_an_aligned_pair_and_reorders_another():
    outer = Graph("outer")
    with outer.as_default():
        a, b, c = (outer.add_placeholder(int32, [], n) for n in "abc")
    same = [_capturing(outer, "t", [a, b]), _capturing(outer, "f", [a, b])]
    assert control_flow._align_captures(same) == [a, b]
    assert [len(g.nodes) for g in same] == [2, 2]          # nothing captured again
    mixed = [_capturing(outer, "t", [a, b]), _capturing(outer, "f", [c, a])]
    assert control_flow._align_captures(mixed) == [a, b, c]
    for g in mixed:
        assert [o for o, _ in g.captures] == [a, b, c]
        assert all(inner.node.graph is g for _, inner in g.captures)
        assert [inner for _, inner in g.captures] == [g.capture(o) for o in (a, b, c)]
    assert [len(g.nodes) for g in mixed] == [3, 3]


# --- constants: a Python number at once, an eager tensor captured --------------------

def test_a_python_number_becomes_the_const_a_captured_eager_tensor_would():
    g = Graph("g")
    with g.as_default():
        x = g.add_placeholder(int32, [], "x")
        by_number = x + 1
        by_tensor = x + tf.constant(1)
    numbered, captured = by_number.node.inputs[1].node, by_tensor.node.inputs[1].node
    for node in (numbered, captured):
        assert node.op == "Const" and node.attrs["dtype"] is int32
        assert node.outputs[0].shape == TensorShape([])
        assert np.asarray(node.attrs["value"]).dtype == np.int32
        assert node.attrs["value"] == 1
    assert (numbered.name, captured.name) == ("Const", "Const_1")
    vector = g.add_constant(np.array([1.5, 2.5], np.float32), float32)
    assert vector.shape == TensorShape([2]) and vector.node.name == "Const_2"


def test_a_captured_eager_tensor_is_captured_once():
    g = Graph("g")
    t = EagerTensor(np.float32(2.0))
    assert g.capture(t) is g.capture(t)
    assert len(g.nodes) == 1


# --- conditions: a bool scalar as it is, another value tested ------------------------

@tf.function
def _truths(x, flag):
    out = 0
    if flag:             # a bool scalar
        out += 1
    if x:                # an int scalar: x != 0
        out += 10
    return out


@pytest.mark.parametrize("x,flag,want", [(0, False, 0), (3, False, 10), (0, True, 1),
                                         (-2, True, 11)])
def test_bool_and_other_conditions(x, flag, want):
    assert _truths(tf.constant(x), tf.constant(flag)).numpy() == want


# --- graphs entered without a context manager ---------------------------------------

def test_call_as_default_restores_the_graph_on_return_and_on_error():
    outer, inner = Graph("outer"), Graph("inner")
    with outer.as_default():
        assert inner.call_as_default(current_graph) is inner
        assert current_graph() is outer

        def fail():
            raise KeyError("x")
        with pytest.raises(KeyError):
            inner.call_as_default(fail)
        assert current_graph() is outer
    assert current_graph() is None


# --- device scopes -------------------------------------------------------------------

def test_nodes_record_the_device_scope_they_were_made_in():
    g = Graph("g")
    with g.as_default():
        x = g.add_placeholder(int32, [], "x")
        with tf.device("/cpu:0"):
            y = x + 1
        z = x * 2
    assert y.node.device == "/device:CPU:0"
    assert x.node.device == z.node.device == ""


# --- node names, captures, binary ops ------------------------------------------------

def test_node_names_new_and_taken_in_a_name_scope():
    g = Graph("g")
    with g.as_default():
        x = g.add_placeholder(int32, [], "x")
        a, b = x + 1, x + 2                 # a new name, then a taken one
        with tf.name_scope("s"):
            c, d = x + 3, x + 4
    assert [t.node.name for t in (a, b, c, d)] == ["AddV2", "AddV2_1", "s/AddV2", "s/AddV2_1"]
    assert [n.name for n in g.nodes if n.op == "Const"] == ["Const", "Const_1", "s/Const",
                                                           "s/Const_1"]


def test_a_bad_shape_from_a_rule_leaves_the_graph_as_it_was(monkeypatch):
    g = Graph("g")
    with g.as_default():
        g.add_placeholder(int32, [], "x")
    opdef = g.nodes[0].opdef
    monkeypatch.setattr(opdef, "infer", lambda inputs, attrs: [(int32, ["two"])])
    with pytest.raises(ValueError):
        g.add_node(opdef, [], {"dtype": int32, "shape": TensorShape(())}, name="bad")
    assert len(g.nodes) == 1


def test_captures_from_the_outer_graph_and_from_further_out():
    outer = Graph("outer")
    with outer.as_default():
        x = outer.add_placeholder(int32, [], "x")
    mid = Graph("mid", outer=outer)
    with mid.as_default():
        y = mid.add_placeholder(int32, [], "y")
    inner = Graph("inner", outer=mid)
    with inner.as_default():
        s = x + y                           # one from the direct outer graph, one from further out
        assert inner.capture(x) is s.node.inputs[0]     # captured once
    assert [o for o, _ in inner.captures] == [x, y]
    other = Graph("other")
    with other.as_default():
        z = other.add_placeholder(int32, [], "z")
    with inner.as_default(), pytest.raises(TypeError, match="belongs to graph 'other'"):
        inner.capture(z)


def test_traced_binary_ops_broadcast_and_check_dtypes_as_eagerly():
    g = Graph("g")
    with g.as_default():
        a = g.add_placeholder(float32, [2, 3], "a")
        b = g.add_placeholder(float32, [3], "b")
        c = g.add_placeholder(float32, [None, 3], "c")
        i = g.add_placeholder(int32, [2, 3], "i")
        assert (a + a).shape.as_list() == [2, 3]          # equal shapes: the shortcut
        assert (a + b).shape.as_list() == [2, 3]          # broadcast
        assert (a > c).shape.as_list() == [2, 3]
        assert (c * c).shape.as_list() == [None, 3]
        with pytest.raises(TypeError, match="inputs must have the same dtype"):
            a + i
        with pytest.raises(TypeError, match="inputs must have the same dtype"):
            a < i
        with pytest.raises(ValueError, match="Incompatible shapes"):
            a + g.add_placeholder(float32, [4], "d")


# --- Python numbers a cond or loop meets: Consts made at the statement's line ----------

def test_python_numbers_of_loops_and_branches_are_consts_at_the_statement_line():
    def f(x):
        a, b, c = tf.while_loop(lambda a, b, c: a < x, lambda a, b, c: (a + 1, b, 2.5),
                                [0, np.float32(1.5), 0.5])
        d = tf.cond(x > 0, lambda: 1.5, lambda: b)
        return a, b, c, d

    graph = tf.function(f).get_concrete_function(tf.constant(3)).graph
    nodes = {n.name: n for n in graph.nodes}
    loop = next(n for n in graph.nodes if n.op == "While")
    consts = [t.node for t in loop.inputs[:3]]
    # a Python int and float (made at once) and a numpy number (converted and captured)
    assert [c.op for c in consts] == ["Const"] * 3
    assert [c.outputs[0].dtype for c in consts] == [int32, float32, float32]
    assert all(c.location == loop.location for c in consts)
    body = loop.attrs["body"]
    two = body.outputs[2].node                                  # the body's 2.5
    assert two.op == "Const"
    assert two.outputs[0].dtype == float32 and two.location == loop.location
    cond = next(n for n in nodes.values() if n.op == "If")
    one = next(n for n in cond.attrs["then_branch"].nodes if n.op == "Const")
    assert one.outputs[0].dtype == float32 and one.location == cond.location
    assert [v.numpy() for v in tf.function(f)(tf.constant(3))] == [3, 1.5, 2.5, 1.5]
