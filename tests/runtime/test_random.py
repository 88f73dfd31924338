"""random.uniform / normal / set_seed and nn.dropout: stateful in graphs."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.exec import executor
from runtime._src.ops.random_ops import dropout

from graphdata_helpers import trace_specs as trace


@pytest.mark.parametrize("make, dtype, shape", [
    (lambda: tf.random.uniform([2, 3]), tf.float32, (2, 3)),
    (lambda: tf.random.uniform((4,), dtype=tf.float64), tf.float64, (4,)),
    (lambda: tf.random.uniform([5], minval=-1, maxval=2, dtype=tf.int32), tf.int32, (5,)),
    (lambda: tf.random.uniform([], maxval=10, dtype=tf.int64), tf.int64, ()),
    (lambda: tf.random.uniform(tf.TensorShape([2]), dtype=tf.float16), tf.float16, (2,)),
    (lambda: tf.random.normal([3, 2]), tf.float32, (3, 2)),
    (lambda: tf.random.normal([3], dtype=tf.float64), tf.float64, (3,)),
])
def test_dtype_and_shape(make, dtype, shape):
    t = make()
    assert t.dtype == dtype and t.shape.as_list() == list(shape)
    assert t.numpy().dtype == dtype.np_dtype


def test_uniform_range():
    x = tf.random.uniform([1000], minval=2.0, maxval=3.0).numpy()
    assert x.min() >= 2.0 and x.max() < 3.0
    i = tf.random.uniform([1000], minval=-1, maxval=2, dtype=tf.int32).numpy()
    assert set(np.unique(i)) == {-1, 0, 1}


def test_normal_statistics():
    x = tf.random.normal([20000], mean=5.0, stddev=2.0).numpy()
    assert abs(x.mean() - 5.0) < 0.1 and abs(x.std() - 2.0) < 0.1


def test_set_seed_makes_sequences_reproducible():
    tf.random.set_seed(1234)
    a1, a2 = tf.random.uniform([3]).numpy(), tf.random.normal([3]).numpy()
    tf.random.set_seed(1234)
    b1, b2 = tf.random.uniform([3]).numpy(), tf.random.normal([3]).numpy()
    np.testing.assert_array_equal(a1, b1)
    np.testing.assert_array_equal(a2, b2)
    assert not np.array_equal(a1, tf.random.uniform([3]).numpy())


def test_op_seed_reproducible_after_set_seed():
    tf.random.set_seed(7)
    a = [tf.random.uniform([2], seed=3).numpy() for _ in range(2)]
    tf.random.set_seed(7)
    b = [tf.random.uniform([2], seed=3).numpy() for _ in range(2)]
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert not np.array_equal(a[0], a[1])


def test_graph_gives_new_values_every_run():
    g = trace(lambda: tf.random.uniform([4]))
    first, second = executor.run(g, [])[0], executor.run(g, [])[0]
    assert first.shape == (4,) and first.dtype == np.float32
    assert not np.array_equal(first, second)


def test_graph_with_seed_replays_after_set_seed():
    g = trace(lambda: (tf.random.normal([3]), tf.random.uniform([3], maxval=100, dtype=tf.int32)))
    tf.random.set_seed(5)
    a = executor.run(g, [])
    tf.random.set_seed(5)
    b = executor.run(g, [])
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


def test_random_in_graph_runs_even_if_unused():
    generator = tf.random.Generator.from_seed(3)
    g = trace(lambda: (generator.normal([2]), tf.constant(1))[1])
    before = generator.state.numpy().copy()
    executor.run(g, [])
    assert generator.state.numpy()[0] == before[0] + 2 * 256     # TF's advance, 2 values


def test_dynamic_shape_from_tensor():
    def body(n):
        return tf.random.uniform(n)
    g = trace(body, (tf.int32, [2]))
    assert g.outputs[0].shape.as_list() == [None, None]
    assert executor.run(g, [np.array([2, 5], np.int32)])[0].shape == (2, 5)


def test_seed_tutorial_np_random_vs_random_normal():
    """Seed 001: np.random while tracing is a constant; random.normal is not."""
    g_np = trace(lambda: tf.convert_to_tensor(np.eye(5, dtype=np.float32))
                 + np.random.randn(5, 5))
    g_tf = trace(lambda: tf.convert_to_tensor(np.eye(5, dtype=np.float32))
                 + tf.random.normal((5, 5)))
    np.testing.assert_array_equal(executor.run(g_np, [])[0], executor.run(g_np, [])[0])
    assert not np.array_equal(executor.run(g_tf, [])[0], executor.run(g_tf, [])[0])


@pytest.mark.parametrize("call, error, match", [
    (lambda: tf.random.uniform([2], dtype=tf.int32), ValueError, "Must specify maxval"),
    (lambda: tf.random.uniform([2], dtype=tf.string), ValueError,
     "Argument `dtype` got invalid value tf.string"),
    (lambda: tf.random.normal([2], dtype=tf.int32), TypeError, "floating type, got int32"),
    (lambda: tf.random.uniform([2.5]), TypeError, "not an integer"),
    (lambda: tf.random.uniform([[2]]), ValueError, "shape must be a vector"),
    (lambda: tf.random.uniform([2], minval=tf.convert_to_tensor(1), maxval=2.0),
     TypeError, "minval has dtype int32, expected float32"),
    (lambda: tf.random.uniform([2], minval=5, maxval=5, dtype=tf.int32),
     tf.errors.InvalidArgumentError, "Need minval < maxval, got 5 >= 5"),
])
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_dropout_keeps_and_scales():
    tf.random.set_seed(0)
    x = tf.convert_to_tensor(np.ones(10000, np.float32))
    y = dropout(x, 0.25).numpy()
    assert y.dtype == np.float32
    assert set(np.unique(y)) == {0.0, np.float32(1 / 0.75)}
    assert abs((y == 0).mean() - 0.25) < 0.02


def test_dropout_noise_shape_shares_decisions():
    x = tf.convert_to_tensor(np.ones((50, 4), np.float32))
    y = dropout(x, 0.5, noise_shape=[None, 1]).numpy()
    assert all(len(set(row)) == 1 for row in y)


def test_dropout_rate_zero_returns_input_and_errors():
    x = tf.convert_to_tensor([1.0, 2.0])
    assert dropout(x, 0) is x
    with pytest.raises(ValueError, match=r"range \[0, 1\). Received: rate=1"):
        dropout(x, 1)
    with pytest.raises(ValueError, match="floating point tensor.*int32"):
        dropout(tf.convert_to_tensor([1, 2]), 0.5)
    with pytest.raises(ValueError, match="noise_shape"):
        dropout(x, 0.5, noise_shape=[3])


def test_dropout_in_graph_changes_every_run():
    g = trace(lambda x: dropout(x, 0.5), (tf.float32, [64]))
    ones = np.ones(64, np.float32)
    a, b = executor.run(g, [ones])[0], executor.run(g, [ones])[0]
    assert set(np.unique(a)) <= {0.0, 2.0} and not np.array_equal(a, b)


def test_nn_dropout_is_exported():
    assert tf.nn.dropout is dropout
