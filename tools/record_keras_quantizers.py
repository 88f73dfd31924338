"""Print Keras 3.15's (TF 2.21) `keras.quantizers` values for
tests/keras/test_keras_quantizers.py (its TF_221 literals), or ours:

    $BENCH_TF_PYTHON tools/record_keras_quantizers.py keras
    PYTHONPATH=. python3 tools/record_keras_quantizers.py runtime.keras
"""

import importlib
import sys

import numpy as np

keras = importlib.import_module(sys.argv[1] if len(sys.argv) > 1 else "keras")
q = keras.quantizers
X = np.array([[0.1, -0.5, 0.25], [2.0, 1.0, -3.0], [0.0, 0.0, 0.0]], "float32")
for kwargs in ({"axis": -1}, {"axis": 0}, {"axis": -1, "value_range": (-8, 7)},
               {"axis": (0, 1), "dtype": "int32", "value_range": (-1000, 1000)},
               {"axis": -1, "to_numpy": True}):
    out, scale = q.abs_max_quantize(X, **kwargs)
    print(kwargs, np.asarray(out).tolist(), np.asarray(out).dtype,
          np.asarray(scale).tolist(), np.asarray(scale).dtype)
out, scale = q.AbsMaxQuantizer(axis=0)(X)
print("AbsMaxQuantizer", np.asarray(out).tolist(), np.asarray(scale).tolist(),
      q.AbsMaxQuantizer(axis=0).get_config())
print("float8_scale", np.asarray(q.compute_float8_scale(
    np.array([2.0, 0.0, np.inf, 448.0], "float32"), np.array([0.5, 0.25, 2.0, 1.0], "float32"),
    448.0, margin=1)).tolist())
print("amax_history", np.asarray(q.compute_float8_amax_history(
    X, np.array([1.0, 2.0, 3.0, 4.0], "float32"))).tolist())
for arr, axis, dtype in (([[-3, 7], [2, -8], [1, 0]], 0, "int8"),
                         ([[-3, 7, 2], [-8, 1, 0]], 1, "int8"),
                         ([[1, 15], [8, 0], [3, 4], [9, 10]], 0, "uint8"),
                         ([[[1, -2, 3]], [[4, 5, -6]]], -1, "int8")):
    packed, shape, n = q.pack_int4(np.array(arr, dtype), axis=axis, dtype=dtype)
    back = q.unpack_int4(packed, n, axis=axis, dtype=dtype)
    print("pack", axis, dtype, np.asarray(packed).tolist(), shape, n,
          np.asarray(back).tolist())
print("serialize", q.serialize(q.AbsMaxQuantizer(axis=1, value_range=(-7, 7))))
Y = np.array([[-1.2, 0.0, 0.33, 2.5], [0.7, -0.05, 5.0, -3.0]], "float32")
for kwargs in ({"min_vals": -1.0, "max_vals": 2.0},
               {"min_vals": -1.0, "max_vals": 2.0, "num_bits": 4, "narrow_range": True},
               {"min_vals": [-1.0, 0.0], "max_vals": [1.0, 4.0], "axis": 0},
               {"min_vals": [-1.0, -2.0, 0.1, 0.0], "max_vals": [1.0, 1.0, 1.0, 3.0],
                "axis": -1, "num_bits": 3}):
    print("fake_quant", kwargs, np.round(np.asarray(
        q.fake_quant_with_min_max_vars(Y, **kwargs)), 6).tolist())
tf = importlib.import_module("runtime" if sys.argv[1:] == ["runtime.keras"] else "tensorflow")
lo, hi, y = tf.Variable([-1.0, 0.0]), tf.Variable([1.0, 4.0]), tf.Variable(Y)
with tf.GradientTape() as tape:
    out = q.fake_quant_with_min_max_vars(y * 1.0, lo, hi, axis=0)
    loss = tf.reduce_sum(out * np.arange(8, dtype="float32").reshape(2, 4))
print("fake_quant grads", [np.asarray(g).tolist() for g in tape.gradient(loss, [y, lo, hi])])
K = np.random.default_rng(0).normal(size=(10, 3)).astype("float32")
for kwargs in ({"block_size": 4}, {"block_size": 5, "to_numpy": True},
               {"block_size": 3, "value_range": (-128, 127)}):
    out, scale, zero = q.abs_max_quantize_grouped_with_zero_point(K, **kwargs)
    print("grouped", kwargs, np.asarray(out).tolist(), np.asarray(out).dtype,
          np.asarray(scale).round(6).tolist(), np.asarray(zero).tolist(),
          np.asarray(zero).dtype)
