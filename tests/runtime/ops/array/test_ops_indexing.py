"""Tensor indexing and slicing (`t[...]`): numpy's basic-indexing results, the
same in eager and graph mode, static shapes, tensor indices and errors."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.exec import executor
from runtime._src.graph.graph import Graph

X = np.arange(24, dtype=np.int32).reshape(2, 3, 4)

KEYS = [
    1, -1, (0, 2), (1, -1, 3), slice(None), slice(1, None), slice(None, None, -1),
    (slice(None), 1), (Ellipsis, 0), (0, Ellipsis), (Ellipsis,), (None,), (slice(None), None),
    (0, None, slice(1, 3)), (slice(None), slice(None, None, 2), slice(-2, None)),
    (1, slice(5, 10)), (slice(None, None, -2), Ellipsis, slice(3, 0, -1)), (Ellipsis, None),
    (1, 2, 3), (), (slice(10, 20),),
]


def _graph_index(shape, key, value=X):
    """Trace `x[key]` with a placeholder of `shape`; return (static shape, run value)."""
    g = Graph("index")
    with g.as_default():
        x = g.add_placeholder(tf.int32, shape, "x")
        y = x[key]
    g.outputs = [y]
    return y.shape, executor.run(g, [value])[0]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_index_eager_matches_numpy(key):
    out = tf.constant(X)[key]
    assert out.dtype == tf.int32
    np.testing.assert_array_equal(out.numpy(), X[key])
    assert out.shape == X[key].shape


@pytest.mark.parametrize("relaxed", [False, True], ids=["known", "unknown_dims"])
@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_index_graph_matches_numpy(key, relaxed):
    shape = [None, None, None] if relaxed else X.shape
    static, value = _graph_index(shape, key)
    np.testing.assert_array_equal(value, X[key])
    assert static.is_compatible_with(np.shape(value))
    if not relaxed:
        assert static.dims == np.shape(X[key])
    else:
        assert static.rank == np.ndim(X[key])


def test_unknown_rank_gives_unknown_shape():
    static, value = _graph_index(None, (0, slice(1, 3)))
    assert static.dims is None
    np.testing.assert_array_equal(value, X[0, 1:3])


def test_scalar_tensor_indices_in_graph():
    g = Graph("index")
    with g.as_default():
        x = g.add_placeholder(tf.int32, X.shape, "x")
        i = g.add_placeholder(tf.int32, [], "i")
        y = x[i, 1:i + 2, -1]
    g.outputs = [y]
    assert y.shape.dims == (None,)   # the slice length depends on i
    for iv in (0, 1, -1):
        np.testing.assert_array_equal(executor.run(g, [X, np.int32(iv)])[0], X[iv, 1:iv + 2, -1])


def test_eager_tensor_indices():
    t = tf.constant(X)
    np.testing.assert_array_equal(t[tf.constant(1), tf.constant(-1)].numpy(), X[1, -1])
    np.testing.assert_array_equal(t[:, tf.constant(1):].numpy(), X[:, 1:])
    np.testing.assert_array_equal(t[np.int64(1)].numpy(), X[1])


@pytest.mark.parametrize("key", [5, (0, 3), (0, 0, -5), (Ellipsis, 4)], ids=repr)
def test_out_of_range_index_eager(key):
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"slice index -?\d+ of dimension \d "
                       r"out of bounds"):
        tf.constant(X)[key]


def test_out_of_range_index_known_shape_fails_while_tracing():
    with pytest.raises(ValueError, match=r"StridedSlice: slice index 3 of dimension 1 out of "
                       r"bounds \(dimension 1 has size 3\)"):
        _graph_index(X.shape, (0, 3))


def test_out_of_range_index_unknown_shape_fails_at_run_time():
    with pytest.raises(tf.errors.InvalidArgumentError, match="slice index 3 of dimension 1"):
        _graph_index([None, None, None], (0, 3))


def test_out_of_range_tensor_index_fails_at_run_time():
    g = Graph("index")
    with g.as_default():
        x = g.add_placeholder(tf.int32, X.shape, "x")
        i = g.add_placeholder(tf.int32, [], "i")
        y = x[i]
    g.outputs = [y]
    with pytest.raises(tf.errors.InvalidArgumentError, match="slice index 7 of dimension 0"):
        executor.run(g, [X, np.int32(7)])


def test_too_many_indices():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Index out of range using input dim 3"):
        tf.constant(X)[0, 0, 0, 0]
    with pytest.raises(ValueError, match="input has only 0 dims"):
        _graph_index([], 0, np.int32(1))


@pytest.mark.parametrize("key", [[0, 1], 1.5, True, np.array([0, 1]), "a"], ids=repr)
def test_invalid_key_types(key):
    with pytest.raises(TypeError, match="Only integers, slices"):
        tf.constant(X)[key]


def test_invalid_tensor_keys():
    with pytest.raises(TypeError, match="Only integers, slices"):
        tf.constant(X)[tf.constant(1.0)]
    with pytest.raises(TypeError, match="Only integers, slices"):
        tf.constant(X)[tf.constant([0, 1])]


def test_multiple_ellipses_and_zero_step():
    with pytest.raises(ValueError, match="Multiple ellipses"):
        tf.constant(X)[..., 0, ...]
    with pytest.raises(ValueError, match="step cannot be zero"):
        tf.constant(X)[::0]


def test_index_result_is_independent_of_later_ops():
    t = tf.constant([1.0, 2.0, 3.0])
    first = t[0]
    assert first.dtype == tf.float32 and first.shape == ()
    assert float(first) == 1.0
    np.testing.assert_array_equal((t[1:] * 2).numpy(), np.array([4.0, 6.0], np.float32))
