"""tf.name_scope names graph nodes the way TensorFlow does; tf.init_scope
leaves the graph being traced."""

import pytest

import runtime as tf


def _names(f, *specs):
    graph = f.get_concrete_function(*specs).graph
    return [n.name for n in graph.nodes]


def test_nested_scopes_prefix_node_names_and_return_the_scope():
    scopes = []

    @tf.function
    def f(x):
        with tf.name_scope("outer") as outer:
            y = x * 2.0
            with tf.name_scope("inner") as inner:
                z = y - 1.0
        scopes.extend([outer, inner])
        return z + 1.0

    names = _names(f, tf.TensorSpec([], tf.float32))
    assert scopes == ["outer/", "outer/inner/"]
    assert "outer/Mul" in names and "outer/inner/Sub" in names
    assert any(n.startswith("AddV2") for n in names)   # outside every scope
    assert 'name: "outer/inner/Sub"' in str(f.get_concrete_function(
        tf.TensorSpec([], tf.float32)).graph.as_graph_def())


def test_reentered_scope_is_made_unique_and_absolute_scope_is_reused():
    @tf.function
    def f(x):
        with tf.name_scope("s"):
            a = x * 2.0
        with tf.name_scope("s"):
            b = a * 3.0
        with tf.name_scope("s/"):
            c = b * 4.0
        with tf.name_scope("x"):            # the placeholder x took the name
            d = c * 5.0
        with tf.name_scope("s"):
            with tf.name_scope(""):          # back to the root
                e = d * 6.0
        return e

    names = _names(f, tf.TensorSpec([], tf.float32))
    for expected in ("s/Mul", "s_1/Mul", "s/Mul_1", "x_1/Mul"):
        assert expected in names, names
    assert "Mul" in names


def test_cond_branches_inherit_the_scope():
    @tf.function
    def f(x):
        with tf.name_scope("pick"):
            return tf.cond(x > 0, lambda: x + 1, lambda: x - 1)

    graph = f.get_concrete_function(tf.TensorSpec([], tf.int32)).graph
    node = next(n for n in graph.nodes if n.op == "If")
    assert node.name.startswith("pick/")
    assert all(n.name.startswith("pick/") for n in node.attrs["then_branch"].nodes
               if n.op != "Placeholder")
    assert f(tf.constant(3)).numpy() == 4


def test_eager_scope_and_errors():
    with tf.name_scope("a") as a:
        with tf.name_scope("b") as b:
            pass
    assert (a, b) == ("a/", "a/b/")
    assert tf.name_scope("layer").name == "layer"
    with pytest.raises(ValueError, match="name for name_scope must be a string"):
        tf.name_scope(None)

    @tf.function
    def f(x):
        with tf.name_scope("a b"):
            return x

    with pytest.raises(ValueError, match="'a b' is not a valid root scope name"):
        f(tf.constant(1))


def test_scope_is_restored_after_an_error():
    @tf.function
    def f(x):
        try:
            with tf.name_scope("broken"):
                raise KeyError("boom")
        except KeyError:
            pass
        return x + 1

    assert "AddV2" in _names(f, tf.TensorSpec([], tf.int32))


def test_init_scope_runs_eagerly_inside_a_function():
    seen = []

    @tf.function
    def f(x):
        with tf.init_scope():
            c = tf.constant(2.0) * 3.0
            seen.append(c.numpy())
        return x * c

    assert f(tf.constant(1.0)).numpy() == 6.0
    assert seen == [6.0]
