"""`tf.image` dtype conversion, colour and crops, `tf.saturate_cast`,
`tf.histogram_fixed_width(_bins)` and `tf.timestamp`: values recorded from
TensorFlow 2.21 for the same inputs, eagerly and inside `tf.function`."""

import time

import numpy as np
import pytest

import runtime as tf

U8 = np.array([[[0, 128, 255], [10, 20, 30]]], np.uint8)
F = np.array([[[0.0, 0.5, 1.0], [-0.2, 1.3, 0.999]]], np.float32)

# (name, call, input, TF 2.21's dtype and value)
CASES = [
    ("u8_to_f32", lambda x: tf.image.convert_image_dtype(x, tf.float32), U8, "float32",
     [[[0.0, 0.501960813999176, 1.0], [0.03921568766236305, 0.0784313753247261,
                                        0.11764706671237946]]]),
    ("f32_to_u8", lambda x: tf.image.convert_image_dtype(x, tf.uint8), F, "uint8",
     [[[0, 127, 255], [205, 76, 255]]]),
    ("f32_to_u8_saturate", lambda x: tf.image.convert_image_dtype(x, tf.uint8, saturate=True),
     F, "uint8", [[[0, 127, 255], [0, 255, 255]]]),
    ("u8_to_i32", lambda x: tf.image.convert_image_dtype(x, tf.int32), U8, "int32",
     [[[0, 1073741824, 2139095040], [83886080, 167772160, 251658240]]]),
    ("i32_to_u8", lambda x: tf.image.convert_image_dtype(x, tf.uint8),
     np.array([[[2 ** 30, 2 ** 24, -5]]], np.int32), "uint8", [[[128, 2, 255]]]),
    ("f32_to_i16", lambda x: tf.image.convert_image_dtype(x, tf.int16), F, "int16",
     [[[0, 16383, 32767], [-6553, -22939, 32734]]]),
    ("brightness_u8", lambda x: tf.image.adjust_brightness(x, 0.1), U8, "uint8",
     [[[25, 153, 255], [35, 45, 55]]]),
    ("brightness_f32", lambda x: tf.image.adjust_brightness(x, -0.3), F, "float32",
     [[[-0.30000001192092896, 0.19999998807907104, 0.699999988079071],
       [-0.5, 0.9999999403953552, 0.6990000009536743]]]),
    ("contrast_f32", lambda x: tf.image.adjust_contrast(x, 2.0), F, "float32",
     [[[0.10000000149011612, 0.10000002384185791, 1.000499963760376],
       [-0.30000001192092896, 1.6999999284744263, 0.9984999895095825]]]),
    ("contrast_u8", lambda x: tf.image.adjust_contrast(x, 0.5), U8, "uint8",
     [[[2, 101, 199], [7, 47, 86]]]),
    ("gray_u8", tf.image.rgb_to_grayscale, U8, "uint8", [[[104], [18]]]),
    ("gray_f32", tf.image.rgb_to_grayscale, F, "float32",
     [[[0.4074999988079071], [0.8172059655189514]]]),
    ("gray_to_rgb", tf.image.grayscale_to_rgb, np.array([[[1.0], [2.0]]], np.float32),
     "float32", [[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]]),
    ("central_crop", lambda x: tf.image.central_crop(x, 0.5),
     np.arange(35, dtype=np.int32).reshape(5, 7, 1), "int32",
     [[[8], [9], [10], [11], [12]], [[15], [16], [17], [18], [19]],
      [[22], [23], [24], [25], [26]]]),
    ("central_crop_batch", lambda x: tf.image.central_crop(x, 0.34),
     np.arange(48, dtype=np.int32).reshape(2, 4, 6, 1), "int32",
     [[[[7], [8], [9], [10]], [[13], [14], [15], [16]]],
      [[[31], [32], [33], [34]], [[37], [38], [39], [40]]]]),
    ("saturate_uint8", lambda x: tf.saturate_cast(x, tf.uint8),
     np.array([-1.5, 300.7, 3e9, np.nan], np.float32), "uint8", [0, 255, 255, 0]),
    ("saturate_int32", lambda x: tf.saturate_cast(x, tf.int32),
     np.array([-3e9, 3e9, 5.5], np.float32), "int32", [-2147483648, 2147483520, 5]),
    ("saturate_int16", lambda x: tf.saturate_cast(x, tf.int16),
     np.array([-300, 70000], np.int32), "int16", [-300, 32767]),
    ("histogram", lambda x: tf.histogram_fixed_width(x, [0.0, 5.0], nbins=5),
     np.array([-1.0, 0.0, 1.0, 1.5, 2.0, 5.0, 7.0], np.float32), "int32", [2, 2, 1, 0, 2]),
    ("histogram_int64", lambda x: tf.histogram_fixed_width(x, [0, 10], nbins=3,
                                                            dtype=tf.int64),
     np.array([1, 2, 9], np.int32), "int64", [2, 0, 1]),
    ("histogram_bins", lambda x: tf.histogram_fixed_width_bins(x, [0.0, 5.0], nbins=5),
     np.array([-1.0, 0.0, 1.0, 1.5, 2.0, 5.0, 7.0], np.float32), "int32",
     [0, 0, 1, 1, 2, 4, 4]),
]


@pytest.mark.parametrize("name, call, value, dtype, want", CASES, ids=[c[0] for c in CASES])
def test_values_are_tensorflows(name, call, value, dtype, want):
    for run in (call, tf.function(call)):
        got = run(tf.constant(value))
        assert got.dtype.name == dtype
        np.testing.assert_array_equal(got.numpy(), np.array(want, got.dtype.np_dtype))


def test_central_crop_refuses_a_fraction_outside_0_1():
    with pytest.raises(ValueError, match=r"central_fraction must be within \(0, 1\]"):
        tf.image.central_crop(tf.zeros([4, 4, 1]), 0.0)


def test_brightness_has_tensorflows_gradient():
    x = tf.constant(F)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.image.adjust_brightness(x, 0.25) * 2.0)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), np.full(F.shape, 2.0))


def test_timestamp_is_read_each_time_the_graph_runs():
    f = tf.function(lambda: tf.timestamp())
    first = f()
    assert first.dtype == tf.float64 and abs(float(first) - time.time()) < 5.0
    time.sleep(0.01)
    assert float(f()) > float(first)
