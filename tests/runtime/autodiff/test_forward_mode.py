"""`tf.autodiff.ForwardAccumulator` and the `keras.ops` names built on it or
added with it (`jvp`, `argpartition`, `rearrange`, `eigh`), plus `tf.where`
of a numeric condition. Expected values are TF 2.21's / Keras 3.15's,
recorded with the same calls."""

import numpy as np
import pytest

import runtime as tf
from runtime.keras import ops


def test_forward_accumulator_matches_tfs_jvps():
    x, t = tf.constant([1., 2., 3.]), tf.constant([1., 0.5, -1.])
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = tf.sin(x) * x ** 2
        z = tf.reduce_sum(y)
        w = tf.constant(5.)
    np.testing.assert_allclose(acc.jvp(y), [2.2232442, 0.9863011, 8.063212], rtol=1e-6)
    np.testing.assert_allclose(acc.jvp(z), 11.272758, rtol=1e-6)
    assert acc.jvp(w) is None and acc.jvp(w, unconnected_gradients="zero").numpy() == 0.0
    v = tf.Variable([[1., 2.], [3., 4.]])
    with tf.autodiff.ForwardAccumulator(v, tf.ones([2, 2])) as acc:
        m = tf.matmul(v, v)
        r = tf.nn.relu(m - 10.)
    assert acc.jvp(m).numpy().tolist() == [[7.0, 9.0], [11.0, 13.0]]
    assert acc.jvp([r, m])[0].numpy().tolist() == [[0.0, 0.0], [11.0, 13.0]]

    @tf.function
    def traced(x):
        with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
            y = tf.exp(x)
        return acc.jvp(y)
    np.testing.assert_allclose(traced(tf.constant([0., 1.])), [1.0, 2.7182817], rtol=1e-6)
    with pytest.raises(ValueError, match="Mismatched shape for primal and tangent"):
        tf.autodiff.ForwardAccumulator(x, tf.ones([2]))


def test_keras_jvp():
    out, tangent = ops.jvp(lambda x: x ** 2, (np.array([1., 2.]),), (np.array([1., 1.]),))
    assert out.numpy().tolist() == [1.0, 4.0] and tangent.numpy().tolist() == [2.0, 4.0]
    out, tangent, aux = ops.jvp(lambda x: (x ** 3, x), (np.array([2.]),), (np.array([1.]),),
                                has_aux=True)
    assert (out.numpy().tolist(), tangent.numpy().tolist(), aux.numpy().tolist()) == (
        [8.0], [12.0], [2.0])


def test_argpartition_is_keras_tf_backends():
    x = np.array([3, 1, 4, 1, 5, 9, 2, 6], np.float32)
    assert ops.argpartition(x, 3).numpy().tolist() == [1, 3, 6, 0, 5, 7, 4, 2]
    assert ops.argpartition(np.array([[3, 1, 2], [0, 5, 4]]), 1).numpy().tolist() == [
        [1, 2, 2], [0, 2, 1]]                  # Keras's mask is summed over the rows


def test_rearrange():
    x = np.arange(24).reshape(2, 3, 4)
    assert ops.rearrange(x, "b h w -> b (h w)").shape == (2, 12)
    assert ops.rearrange(x, "b h w -> w b h").numpy()[0].tolist() == [[0, 4, 8], [12, 16, 20]]
    assert ops.rearrange(np.arange(12), "(h w) -> h w", h=3).numpy().tolist() == [
        [0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    images = np.zeros((32, 30, 40, 3))
    assert ops.rearrange(images, "b (h1 h) (w1 w) c -> (b h1 w1) h w c", h1=2, w1=2).shape \
        == (128, 15, 20, 3)
    assert ops.rearrange(images, "b (h h1) (w w1) c -> b h w (c h1 w1)", h1=2, w1=2).shape \
        == (32, 15, 20, 12)
    inputs = tf.keras.Input((3, 4))
    model = tf.keras.Model(inputs, ops.rearrange(inputs, "b h w -> b (w h)"))
    assert model.output_shape == (None, 12)
    assert model(np.arange(24.).reshape(2, 3, 4)).shape == (2, 12)
    with pytest.raises(ValueError, match="both sides must name the same axes"):
        ops.rearrange(x, "b h w -> b h")


def test_eigh_values_and_where_of_numbers():
    values, vectors = ops.eigh(np.array([[2., 1.], [1., 3.]], np.float32))
    np.testing.assert_allclose(values, [1.3819659, 3.6180334], rtol=1e-6)
    np.testing.assert_allclose(np.abs(vectors), [[0.8506508, 0.5257311], [0.5257311, 0.8506508]],
                               rtol=1e-6)
    assert tf.where([0, 3, 0, -1]).numpy().tolist() == [[1], [3]]       # nonzero, as TF
    assert tf.where([0.0, 0.5]).numpy().tolist() == [[1]]
    with pytest.raises(TypeError, match="must be a bool tensor"):
        tf.where(tf.constant([1, 0]), 1, 2)
