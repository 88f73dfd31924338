"""tf.quantization against TensorFlow 2.21's values, bit for bit.

The table is tools/record_quantization.py's `cases` (written once for both
libraries), TF's results recorded in tests/data/quantization_tf221.npz: fake
quantization with the range as attributes, tensors and per channel, their
gradient functions, and quantize-then-dequantize v1 and v2, at random
points, halfway points between levels, the range's ends, zeros, infinities,
NaN and empty inputs; each case runs eagerly and inside tf.function, with
the gradient of its outputs' sum. Values and gradients must have TF's bits,
except the range's gradients (sums of float32 values, of at most 3
elements here): TF's reduction adds in another order, so they agree to
float32 rounding. Points halfway between two levels are left out (see
docs/tf_differences.md).
"""


import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import load, results_fixture

table, DATA, NAMES = load("record_quantization")
results = results_fixture(table)


@pytest.mark.parametrize("name", NAMES)
def test_quantization_bits_are_tfs(results, name):
    got = results[name]
    keys = sorted((k for k in DATA.files if k.split("/")[0] == name),
                  key=lambda k: int(k.split("/")[1]))
    assert len(keys) == len(got)
    for key in keys:
        want, value = DATA[key], got[int(key.split("/")[1])]
        if want.dtype.kind == "U":
            assert value is None, f"{key}: TF has no gradient here"
            continue
        assert value is not None and value.shape == want.shape, (key, value, want.shape)
        assert value.dtype == want.dtype, (key, value.dtype, want.dtype)
        if want.size <= 3:     # a range's gradient: a float32 sum in TF's order
            np.testing.assert_allclose(value, want, rtol=2e-6, equal_nan=True, err_msg=key)
        else:
            np.testing.assert_array_equal(value, want, err_msg=key)


@pytest.mark.parametrize("call, error, message", [
    (lambda: tf.quantization.fake_quant_with_min_max_args([1.0], min=2.0, max=1.0),
     tf.errors.InvalidArgumentError, "min has to be smaller than max, was: 2 >= 1"),
    (lambda: tf.quantization.fake_quant_with_min_max_args([1.0], num_bits=1),
     tf.errors.InvalidArgumentError, "num_bits must be between 2 and 16, inclusive"),
    (lambda: tf.quantization.fake_quant_with_min_max_vars_per_channel([[1.0, 2.0]], [0.0],
                                                                      [1.0]),
     tf.errors.InvalidArgumentError, "min has incorrect size, expected 2 was 1"),
    (lambda: tf.quantization.quantize_and_dequantize_v2([1.0], 3.0, -2.0, range_given=True),
     tf.errors.InvalidArgumentError, "Invalid range: input_min 3.0 > input_max -2.0"),
    (lambda: tf.quantization.quantize_and_dequantize_v2([1.0], -1.0, 1.0, round_mode="UP"),
     ValueError, "round_mode must be one of"),
])
def test_bad_arguments_raise_tfs_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_per_axis_quantize_and_dequantize_quantizes_each_slice_alone():
    x = tf.constant([[-3.0, 0.1, 0.7], [2.0, -0.4, 9.0]])   # TF 2.21 refuses axis= eagerly
    both = tf.quantization.quantize_and_dequantize_v2(x, [-1.0, -0.5, -2.0], [1.0, 0.5, 2.0],
                                                      range_given=True, axis=1)
    for i, (lo, hi) in enumerate([(-1.0, 1.0), (-0.5, 0.5), (-2.0, 2.0)]):
        one = tf.quantization.quantize_and_dequantize_v2(x[:, i], lo, hi, range_given=True)
        np.testing.assert_array_equal(both.numpy()[:, i], one.numpy())
