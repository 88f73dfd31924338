"""Conv1DTranspose against TF 2.21's Keras 3: outputs and the
kernel gradient for the same inputs and weights."""

import numpy as np
import pytest

import runtime as tf

X = np.arange(30, dtype="float32").reshape(2, 5, 3) / 10
KERNEL = np.arange(18, dtype="float32").reshape(3, 2, 3) / 10

# TF 2.21: output[1] and d(sum(y**2))/d kernel[0]
STRIDE2 = [[1.0, 1.440000057220459], [3.880000114440918, 4.320000171661377],
           [7.349999904632568, 9.5], [4.510000228881836, 5.21999979019165],
           [8.609999656677246, 11.300000190734863], [5.139999866485596, 6.119999885559082],
           [9.869999885559082, 13.100000381469727], [5.769999980926514, 7.019999980926514],
           [11.130000114440918, 14.899999618530273], [6.400000095367432, 7.920000076293945],
           [11.4399995803833, 12.960000038146973]]
CASES = [("valid", 2, STRIDE2, [[194.52000427246094, 204.57400512695312, 214.6280059814453],
                                [253.9199981689453, 266.45599365234375, 278.99200439453125]]),
         ("same", 2, STRIDE2[:10], [[194.52000427246094, 204.57400512695312, 214.6280059814453],
                                    [253.9199981689453, 266.45599365234375,
                                     278.99200439453125]]),
         ("valid", 1, [[1.0, 1.440000057220459], [4.46999979019165, 6.619999885559082],
                       [11.449999809265137, 15.579999923706055],
                       [13.34000015258789, 18.280000686645508],
                       [15.229999542236328, 20.979999542236328],
                       [16.170000076293945, 19.940000534057617],
                       [11.4399995803833, 12.960000038146973]],
          [[237.2519989013672, 248.96800231933594, 260.6839904785156],
           [323.8680114746094, 339.3080139160156, 354.74798583984375]])]


def _layer(padding, strides):
    return tf.keras.layers.Conv1DTranspose(
        2, 3, strides=strides, padding=padding,
        kernel_initializer=tf.keras.initializers.Constant(KERNEL),
        bias_initializer=tf.keras.initializers.Constant([0.5, -0.5]))


@pytest.mark.parametrize("padding, strides, want, want_grad", CASES)
def test_conv1d_transpose_matches_keras(padding, strides, want, want_grad):
    layer = _layer(padding, strides)

    def step(x):
        with tf.GradientTape() as tape:
            y = layer(x)
            loss = tf.reduce_sum(y * y)
        return y, tape.gradient(loss, layer.kernel)
    for y, grad in (step(tf.constant(X)), tf.function(step)(tf.constant(X))):
        np.testing.assert_allclose(y.numpy()[1], want, rtol=1e-5)
        np.testing.assert_allclose(grad.numpy()[0], want_grad, rtol=1e-5)
    assert [tuple(w.shape) for w in layer.weights] == [(3, 2, 3), (2,)]


def test_conv1d_transpose_shape_and_config():
    layer = tf.keras.layers.Conv1DTranspose(2, 3, strides=2)
    assert tuple(layer(tf.keras.Input((5, 3))).shape) == (None, 11, 2)
    config = layer.get_config()
    assert {k: config[k] for k in ("filters", "kernel_size", "strides", "padding",
                                   "output_padding", "dilation_rate")} == {
        "filters": 2, "kernel_size": (3,), "strides": (2,), "padding": "valid",
        "output_padding": None, "dilation_rate": (1,)}
    clone = tf.keras.layers.deserialize(tf.keras.layers.serialize(layer))
    assert clone.get_config() == config
    padded = tf.keras.layers.Conv1DTranspose(2, 3, strides=2, output_padding=1)
    assert tuple(padded(tf.keras.Input((5, 3))).shape) == (None, 12, 2)   # Keras 3.15's
    with pytest.raises(ValueError, match="`output_padding` must be strictly less than "
                                         "`strides`"):
        tf.keras.layers.Conv1DTranspose(2, 3, output_padding=1)
