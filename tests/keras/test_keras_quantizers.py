"""keras.quantizers against Keras 3.15's (TF 2.21) recorded values
(tools/record_keras_quantizers.py prints them): abs-max int8 quantization,
AbsMaxQuantizer, float8 scale bookkeeping, int4 packing, get/serialize."""

import numpy as np
import pytest

import runtime as tf
from runtime.keras import quantizers as q

X = np.array([[0.1, -0.5, 0.25], [2.0, 1.0, -3.0], [0.0, 0.0, 0.0]], "float32")
# kwargs, quantized, its dtype, scale (TF 2.21's Keras 3.15)
ABS_MAX = [
    ({"axis": -1}, [[25, -127, 63], [85, 42, -127], [0, 0, 0]], "int8",
     [[253.99993896484375], [42.33333206176758], [1270000000.0]]),
    ({"axis": 0}, [[6, -63, 11], [127, 127, -127], [0, 0, 0]], "int8",
     [[63.5, 126.99998474121094, 42.33333206176758]]),
    ({"axis": -1, "value_range": (-8, 7)}, [[1, -7, 3], [5, 2, -7], [0, 0, 0]], "int8",
     [[13.99999713897705], [2.3333332538604736], [70000000.0]]),
    ({"axis": (0, 1), "dtype": "int32", "value_range": (-1000, 1000)},
     [[33, -167, 83], [667, 333, -1000], [0, 0, 0]], "int32", [[333.3333435058594]]),
    ({"axis": -1, "to_numpy": True}, [[25, -127, 63], [85, 42, -127], [0, 0, 0]], "int8",
     [[253.99993896484375], [42.33333206176758], [1270000000.0]]),
]
# array, axis, dtype, packed, packed shape, original length
PACK = [
    ([[-3, 7], [2, -8], [1, 0]], 0, "int8", [[45, -121], [1, 0]], (2, 2), 3),
    ([[-3, 7, 2], [-8, 1, 0]], 1, "int8", [[125, 2], [24, 0]], (2, 2), 3),
    ([[1, 15], [8, 0], [3, 4], [9, 10]], 0, "uint8", [[129, 15], [147, 164]], (2, 2), 4),
    ([[[1, -2, 3]], [[4, 5, -6]]], -1, "int8", [[[-31, 3]], [[84, 10]]], (2, 1, 2), 3),
]


@pytest.mark.parametrize("kwargs,quantized,dtype,scale", ABS_MAX)
@pytest.mark.parametrize("traced", [False, True])
def test_abs_max_quantize(kwargs, quantized, dtype, scale, traced):
    fn = (lambda x: q.abs_max_quantize(x, **kwargs))
    out, got_scale = (tf.function(fn) if traced and not kwargs.get("to_numpy") else fn)(X)
    assert out.dtype.name == dtype and got_scale.dtype == tf.float32
    assert np.asarray(out).tolist() == quantized
    np.testing.assert_allclose(np.asarray(got_scale), scale, rtol=1e-6)


def test_abs_max_quantizer_and_serialization():
    quantizer = q.AbsMaxQuantizer(axis=0)
    out, scale = quantizer(X)
    assert np.asarray(out).tolist() == ABS_MAX[1][1]
    assert quantizer.get_config() == {"value_range": (-127, 127), "epsilon": 1e-07,
                                      "output_dtype": "int8", "axis": (0,)}
    config = q.serialize(q.AbsMaxQuantizer(axis=1, value_range=(-7, 7)))
    assert config == {"module": "keras.quantizers", "class_name": "AbsMaxQuantizer",
                      "config": {"value_range": (-7, 7), "epsilon": 1e-07,
                                 "output_dtype": "int8", "axis": (1,)},
                      "registered_name": None}
    back = q.deserialize(config)
    assert isinstance(back, q.AbsMaxQuantizer) and back.axis == (1,)
    assert isinstance(q.get("abs_max_quantizer"), q.AbsMaxQuantizer)
    assert q.get(None) is None and q.Quantizer()(X) is X
    with pytest.raises(ValueError, match="interval"):
        q.AbsMaxQuantizer(value_range=(-200, 127))
    with pytest.raises(ValueError, match="Could not interpret"):
        q.get("nope")


def test_float8_helpers():
    scale = q.compute_float8_scale(np.array([2.0, 0.0, np.inf, 448.0], "float32"),
                                   np.array([0.5, 0.25, 2.0, 1.0], "float32"), 448.0, margin=1)
    np.testing.assert_allclose(np.asarray(scale), [0.008928571827709675, 0.25, 2.0, 2.0],
                               rtol=1e-6)
    history = q.compute_float8_amax_history(X, np.array([1.0, 2.0, 3.0, 4.0], "float32"))
    assert np.asarray(history).tolist() == [3.0, 3.0, 4.0, 1.0]


@pytest.mark.parametrize("arr,axis,dtype,packed,shape,length", PACK)
def test_pack_unpack_int4(arr, axis, dtype, packed, shape, length):
    out, got_shape, n = q.pack_int4(np.array(arr, dtype), axis=axis, dtype=dtype)
    assert np.asarray(out).tolist() == packed and out.dtype.name == dtype
    assert got_shape == shape and n == length
    back = tf.function(lambda p: q.unpack_int4(p, n, axis=axis, dtype=dtype))(out)
    assert np.asarray(back).tolist() == arr and back.dtype.name == dtype


def test_pack_errors():
    with pytest.raises(TypeError, match="Expected int8 tensor"):
        q.pack_int4(np.zeros((2, 2), "int32"))
    with pytest.raises(ValueError, match="'int8' or 'uint8'"):
        q.unpack_int4(np.zeros((2, 2), "int8"), 4, dtype="int16")


Y = np.array([[-1.2, 0.0, 0.33, 2.5], [0.7, -0.05, 5.0, -3.0]], "float32")
FAKE_QUANT = [  # kwargs, TF 2.21's Keras 3.15 output
    ({"min_vals": -1.0, "max_vals": 2.0},
     [[-1.0, 0.0, 0.329412, 2.0], [0.705882, -0.047059, 2.0, -1.0]]),
    ({"min_vals": -1.0, "max_vals": 2.0, "num_bits": 4, "narrow_range": True},
     [[-1.071428, 0.0, 0.428571, 1.928572], [0.642857, 0.0, 1.928572, -1.071428]]),
    ({"min_vals": [-1.0, 0.0], "max_vals": [1.0, 4.0], "axis": 0},
     [[-0.996078, 0.0, 0.329412, 1.003922], [0.705882, 0.0, 4.0, 0.0]]),
    ({"min_vals": [-1.0, -2.0, 0.1, 0.0], "max_vals": [1.0, 1.0, 1.0, 3.0], "axis": -1,
      "num_bits": 3}, [[-0.857143, 0.0, 0.385714, 2.571428], [0.571429, 0.0, 0.9, 0.0]]),
]


@pytest.mark.parametrize("kwargs,want", FAKE_QUANT)
def test_fake_quant_with_min_max_vars(kwargs, want):
    out = q.fake_quant_with_min_max_vars(Y, **kwargs)
    assert out.dtype == tf.float32
    np.testing.assert_allclose(np.asarray(out), want, atol=2e-6)


def test_fake_quant_gradients():
    lo, hi, y = tf.Variable([-1.0, 0.0]), tf.Variable([1.0, 4.0]), tf.Variable(Y)
    with tf.GradientTape() as tape:
        out = tf.function(lambda: q.fake_quant_with_min_max_vars(y, lo, hi, axis=0))()
        loss = tf.reduce_sum(out * np.arange(8, dtype="float32").reshape(2, 4))
    grads = [np.asarray(g).tolist() for g in tape.gradient(loss, [y, lo, hi])]
    assert grads == [[[0.0, 1.0, 2.0, 0.0], [4.0, 0.0, 0.0, 0.0]], [0.0, 12.0], [3.0, 6.0]]


def test_abs_max_quantize_grouped_with_zero_point():
    kernel = np.random.default_rng(0).normal(size=(10, 3)).astype("float32")
    for to_numpy in (False, True):
        out, scale, zero = q.abs_max_quantize_grouped_with_zero_point(kernel, 4,
                                                                      to_numpy=to_numpy)
        assert (out.dtype, scale.dtype, zero.dtype) == (tf.int8, tf.float32, tf.int8)
        assert np.asarray(out).tolist() == [[0, -3, 7], [0, -7, 4], [7, 7, -8], [-8, -8, 0],
                                            [-8, -4, -8], [-2, -7, 1], [3, 7, 3], [7, -8, 7],
                                            [7, 7, -8], [-8, -8, 7]]
        np.testing.assert_allclose(np.asarray(scale), [[0.171295, 0.10469, 0.089611],
                                                       [0.2461, 0.113847, 0.106495],
                                                       [0.12168, 0.036783, 0.064246]],
                                   atol=1e-6)
        assert np.asarray(zero).tolist() == [[-1, -2, 0], [1, -2, 4], [0, 4, 4]]
    with pytest.raises(ValueError, match="2-D"):
        q.abs_max_quantize_grouped_with_zero_point(kernel[0], 4)
