"""The variance-scaling family, TruncatedNormal and Orthogonal. Seeded values
need not match TF's bit for bit; the statistics, bounds and configs below are
TF 2.21's Keras 3 for the same shapes."""

import numpy as np
import pytest

import runtime as tf

I = tf.keras.initializers

# (class, TF 2.21's std of a (400, 300) draw with seed=1, the bound |w| stays under)
FAMILY = [(I.HeNormal, 0.07095, 2 * np.sqrt(2 / 400) / 0.87962566103423978),
          (I.HeUniform, 0.07067, np.sqrt(6 / 400)),
          (I.LecunNormal, 0.05017, 2 * np.sqrt(1 / 400) / 0.87962566103423978),
          (I.LecunUniform, 0.04997, np.sqrt(3 / 400)),
          (I.GlorotNormal, 0.05363, 2 * np.sqrt(1 / 350) / 0.87962566103423978)]


@pytest.mark.parametrize("cls, std, bound", FAMILY)
def test_variance_scaling_family_statistics(cls, std, bound):
    w = cls(seed=1)((400, 300))
    assert w.dtype == tf.float32 and w.shape == (400, 300)
    w = w.numpy()
    assert abs(w.std() - std) < 0.02 * std and abs(w.mean()) < 0.003
    assert np.abs(w).max() <= bound * (1 + 1e-6)
    assert np.abs(w).max() > 0.9 * bound                          # the tails are reached
    assert cls(seed=1).get_config() == {"seed": 1, "input_axes": None, "output_axes": None}


def test_truncated_normal_and_variance_scaling():
    w = I.TruncatedNormal(seed=1)((400, 300)).numpy()
    assert abs(w.std() - 0.04413) < 0.001 and np.abs(w).max() <= 0.1    # TF: 0.04413, < 0.1
    assert I.TruncatedNormal().get_config() == {"seed": None, "mean": 0.0, "stddev": 0.05}
    w = I.VarianceScaling(2.0, "fan_out", "untruncated_normal", seed=2)((1000, 50)).numpy()
    assert abs(w.std() - 0.2) < 0.004                                   # TF: 0.2005
    assert I.VarianceScaling().get_config() == {
        "seed": None, "scale": 1.0, "mode": "fan_in", "distribution": "truncated_normal",
        "input_axes": None, "output_axes": None}
    with pytest.raises(ValueError, match="Invalid `mode` argument: fan"):
        I.VarianceScaling(mode="fan")


@pytest.mark.parametrize("traced", [False, True])
def test_orthogonal_is_orthogonal(traced):
    make = (lambda init, shape: tf.function(lambda: init(shape))()) if traced else \
        (lambda init, shape: init(shape))
    w = make(I.Orthogonal(gain=2.0, seed=1), (3, 3, 4, 5)).numpy()
    assert w.shape == (3, 3, 4, 5)
    m = w.reshape(-1, 5)
    np.testing.assert_allclose(m.T @ m, 4 * np.eye(5), atol=1e-4)   # TF 2.21: 4 * identity
    w = make(I.Orthogonal(seed=1), (3, 7)).numpy()
    np.testing.assert_allclose(w @ w.T, np.eye(3), atol=1e-5)
    assert I.Orthogonal().get_config() == {"seed": None, "gain": 1.0}


def test_orthogonal_needs_two_dimensions_and_names_resolve():
    with pytest.raises(ValueError, match=r"at least two-dimensional. Received: shape=\(3,\) of "
                                         "rank 1"):
        I.Orthogonal()((3,))
    for name, cls in [("he_normal", I.HeNormal), ("orthogonal", I.Orthogonal),
                      ("truncated_normal", I.TruncatedNormal), ("lecun_uniform", I.LecunUniform)]:
        assert type(I.get(name)) is cls


def test_dense_with_orthogonal_kernel_trains():
    layer = tf.keras.layers.Dense(4, kernel_initializer="orthogonal")
    x = tf.constant(np.eye(4, dtype="float32"))
    layer(x)
    k = layer.kernel.numpy()
    np.testing.assert_allclose(k.T @ k, np.eye(4), atol=1e-5)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(x))
    grad = tape.gradient(loss, layer.kernel)
    np.testing.assert_allclose(grad.numpy(), np.ones((4, 4)))
    config = tf.keras.layers.Dense.from_config(layer.get_config()).get_config()
    assert config["kernel_initializer"]["class_name"] == "Orthogonal"


@pytest.mark.parametrize("cls", [I.HeNormal, I.LecunUniform, I.Orthogonal, I.TruncatedNormal,
                                 I.RandomUniform, I.RandomNormal, I.GlorotUniform])
def test_a_seeded_initializer_repeats_its_values(cls):
    # Keras 3 (TF 2.21): the same seed gives the same values on every call
    first = cls(seed=1)((4, 3)).numpy()
    np.testing.assert_array_equal(cls(seed=1)((4, 3)).numpy(), first)
    init = cls(seed=1)
    np.testing.assert_array_equal(init((4, 3)).numpy(), init((4, 3)).numpy())
    traced = tf.function(lambda: cls(seed=1)((4, 3)))().numpy()
    np.testing.assert_array_equal(traced, first)
    assert not np.array_equal(cls(seed=2)((4, 3)).numpy(), first)
    unseeded = cls()
    assert not np.array_equal(unseeded((4, 3)).numpy(), unseeded((4, 3)).numpy())
