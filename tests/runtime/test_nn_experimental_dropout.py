"""tf.nn.experimental's stateless_dropout and general_dropout against TF 2.21's
values (printed by tools/record_dropout.py under TF 2.21, kept as literals): the seeded keep/drop pattern (TF's Philox numbers), the
scale 1 / (1 - rate) computed as TF computes it, noise_shape, a float64 rate
tensor, rate 0, a caller's sampler, tf.function and the gradient."""

import numpy as np
import pytest

import runtime as tf

X = tf.reshape(tf.range(12.0), [3, 4]) - 5.0
TF_221 = {
    "seed_1_2": [[-10.0, 0.0, -6.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]],
    "noise_shape": [[-7.142857551574707, -5.714285850524902, -4.285714149475098, -2.857142925262451], [-1.4285714626312256, 0.0, 1.4285714626312256, 2.857142925262451], [4.285714149475098, 5.714285850524902, 7.142857551574707, 8.571428298950195]],
    "float64_rate_tensor": [[0.0, -13.333333333333332, 0.0, 0.0], [-3.333333333333333, 0.0, 3.333333333333333, 6.666666666666666], [9.999999999999998, 13.333333333333332, 16.666666666666664, 0.0]],
    "rate_0": [[-5.0, -4.0, -3.0, -2.0], [-1.0, 0.0, 1.0, 2.0], [3.0, 4.0, 5.0, 6.0]],
    "general": [[0.0, 0.0, 0.0, -2.6666667461395264], [-1.3333333730697632, 0.0, 1.3333333730697632, 2.6666667461395264], [4.0, 5.333333492279053, 6.6666669845581055, 8.0]],
    "gradient": [[1.4285714626312256, 1.4285714626312256, 1.4285714626312256, 1.4285714626312256], [1.4285714626312256, 0.0, 1.4285714626312256, 0.0], [1.4285714626312256, 1.4285714626312256, 1.4285714626312256, 0.0]],
}


def _cases():
    sampler = lambda shape, dtype: tf.reshape(tf.range(12.0, dtype=dtype) / 12.0, shape)  # noqa: E731
    drop = tf.nn.experimental.stateless_dropout
    return {
        "seed_1_2": lambda x: drop(x, 0.5, seed=[1, 2]),
        "noise_shape": lambda x: drop(x, 0.3, seed=[7, 3], noise_shape=[3, 1]),
        "float64_rate_tensor": lambda x: drop(tf.cast(x, tf.float64),
                                              tf.constant(0.7, tf.float64), seed=[5, 5]),
        "rate_0": lambda x: drop(x, 0.0, seed=[1, 2]),
        "general": lambda x: tf.nn.experimental.general_dropout(x, 0.25,
                                                                uniform_sampler=sampler),
    }


@pytest.mark.parametrize("mode", ["eager", "function"])
@pytest.mark.parametrize("name", ["seed_1_2", "noise_shape", "float64_rate_tensor", "rate_0",
                                  "general"])
def test_dropout_values_are_tfs(name, mode):
    fn = _cases()[name]
    if mode == "function":
        fn = tf.function(fn, autograph=False)
    got = fn(X)
    want = np.array(TF_221[name])
    assert got.dtype == (tf.float64 if name == "float64_rate_tensor" else tf.float32)
    np.testing.assert_array_equal(got.numpy(), want.astype(got.dtype.as_numpy_dtype))


def test_dropout_gradient_is_tfs():
    with tf.GradientTape() as tape:
        tape.watch(X)
        y = tf.reduce_sum(tf.nn.experimental.stateless_dropout(X, 0.3, seed=[7, 3]))
    np.testing.assert_array_equal(tape.gradient(y, X).numpy(),
                                  np.array(TF_221["gradient"], np.float32))


@pytest.mark.parametrize("call, message", [
    (lambda: tf.nn.experimental.stateless_dropout(X, 1.0, seed=[1, 2]),
     "must be a scalar tensor or a float in the range"),
    (lambda: tf.nn.experimental.stateless_dropout(tf.constant([1, 2]), 0.5, seed=[1, 2]),
     "must be a floating point tensor"),
    (lambda: tf.nn.experimental.stateless_dropout(tf.cast(X, tf.float64), tf.constant(0.7),
                                                  seed=[1, 2]),
     "must be compatible with `rate.dtype`"),
])
def test_bad_arguments_raise_tfs_messages(call, message):
    with pytest.raises(ValueError, match=message):
        call()
