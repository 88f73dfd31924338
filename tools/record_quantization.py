"""Record TensorFlow 2.21's values for tests/data/quantization_tf221.npz.

    /tmp/tfvenv/bin/python tools/record_quantization.py

`cases(tf, wrap)` is written once for both libraries: each case runs a
`tf.quantization` function on fixed inputs (random normals, the
the range's ends, zeros, infinities, NaN)
under a GradientTape, through `wrap` (the identity, or `tf.function` in the
test's traced mode), and returns its outputs and the gradients of their sum
with respect to the float inputs. tests/runtime/test_quantization.py replays
them and asks for equal bits.
"""

import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "quantization_tf221.npz"


def _points():
    rng = np.random.default_rng(7)
    # random points and special ones, no regular grid: at (and within float
    # error of) halfway between two levels TF's CPU kernel may round to the
    # other level (docs/tf_differences.md)
    special = [0.0, -0.0, -6.0, 6.0, -6.0235295, 5.9764705, 1e-8, -1e-8, 2.5, -2.5,
               np.inf, -np.inf, 100.0, -100.0]
    return np.concatenate([rng.standard_normal(177) * 4, special]).astype(np.float32)


X = _points()
NAN = np.array([np.nan, 1.0], np.float32)
CHANNELS = X[:180].reshape(60, 3)
G = np.cos(np.where(np.isfinite(X), X, 0.0)).astype(np.float32)    # upstream gradients


def _case_table(tf):
    """name -> (function, inputs as (values, dtype))."""
    q = tf.quantization
    f32, f64 = "float32", "float64"
    return {
        "args_default": (lambda x: q.fake_quant_with_min_max_args(x), [(X, f32)]),
        "args_narrow": (lambda x: q.fake_quant_with_min_max_args(
            x, min=-1.3, max=2.7, narrow_range=True), [(X, f32)]),
        "args_4bit_positive": (lambda x: q.fake_quant_with_min_max_args(
            x, min=0.2, max=3.1, num_bits=4), [(X, f32)]),
        "args_3bit_negative": (lambda x: q.fake_quant_with_min_max_args(
            x, min=-5.5, max=-0.5, num_bits=3), [(X, f32)]),
        "args_16bit": (lambda x: q.fake_quant_with_min_max_args(
            x, min=-0.1, max=0.25, num_bits=16, narrow_range=True), [(X, f32)]),
        "args_nan": (lambda x: q.fake_quant_with_min_max_args(x), [(NAN, f32)]),
        "args_empty": (lambda x: q.fake_quant_with_min_max_args(x), [(np.zeros([0, 2]), f32)]),
        "args_gradient": (lambda g, x: q.fake_quant_with_min_max_args_gradient(
            g, x, min=-2.0, max=2.0, num_bits=5), [(G, f32), (X, f32)]),
        "vars": (lambda x, lo, hi: q.fake_quant_with_min_max_vars(x, lo, hi),
                 [(X, f32), (-6.0, f32), (6.0, f32)]),
        "vars_narrow": (lambda x, lo, hi: q.fake_quant_with_min_max_vars(
            x, lo, hi, num_bits=7, narrow_range=True), [(X, f32), (-1.3, f32), (2.7, f32)]),
        "vars_positive": (lambda x, lo, hi: q.fake_quant_with_min_max_vars(x, lo, hi),
                          [(X, f32), (0.5, f32), (3.0, f32)]),
        "vars_gradient": (lambda g, x, lo, hi: q.fake_quant_with_min_max_vars_gradient(
            g, x, lo, hi, num_bits=6), [(G, f32), (X, f32), (-3.0, f32), (1.0, f32)]),
        "per_channel": (lambda x, lo, hi: q.fake_quant_with_min_max_vars_per_channel(
            x, lo, hi), [(CHANNELS, f32), ([-6.0, -1.0, 0.5], f32), ([6.0, 2.0, 4.0], f32)]),
        "per_channel_narrow": (lambda x, lo, hi: q.fake_quant_with_min_max_vars_per_channel(
            x, lo, hi, num_bits=4, narrow_range=True),
            [(CHANNELS, f32), ([-2.0, -5.5, -0.1], f32), ([2.0, -0.5, 0.25], f32)]),
        "per_channel_gradient": (
            lambda g, x, lo, hi: q.fake_quant_with_min_max_vars_per_channel_gradient(
                g, x, lo, hi), [(G[:180].reshape(60, 3), f32), (CHANNELS, f32),
                                ([-6.0, -1.0, 0.5], f32), ([6.0, 2.0, 4.0], f32)]),
        "qdq_v2_given": (lambda x, lo, hi: q.quantize_and_dequantize_v2(
            x, lo, hi, range_given=True), [(X, f32), (-2.0, f32), (3.0, f32)]),
        "qdq_v2_own_range": (lambda x, lo, hi: q.quantize_and_dequantize_v2(
            x[:200], lo, hi), [(X, f32), (-2.0, f32), (3.0, f32)]),
        "qdq_v2_half_up_narrow": (lambda x, lo, hi: q.quantize_and_dequantize_v2(
            x, lo, hi, range_given=True, round_mode="HALF_UP", narrow_range=True),
            [(X, f64), (-2.0, f64), (3.0, f64)]),
        "qdq_v2_unsigned_4bit": (lambda x, lo, hi: q.quantize_and_dequantize_v2(
            x, lo, hi, signed_input=False, num_bits=4, range_given=True),
            [(X, f32), (0.0, f32), (5.0, f32)]),
        "qdq_v2_zeros": (lambda x, lo, hi: q.quantize_and_dequantize_v2(x, lo, hi),
                         [(np.zeros(4), f32), (-1.0, f32), (1.0, f32)]),
        "qdq_v1": (lambda x, lo, hi: q.quantize_and_dequantize(
            x[:200], lo, hi, num_bits=6), [(X, f32), (-1.0, f32), (1.0, f32)]),
        "qdq_v1_given": (lambda x, lo, hi: q.quantize_and_dequantize(
            x, lo, hi, range_given=True, num_bits=16), [(X, f64), (-0.5, f64), (0.75, f64)]),
    }


def cases(tf, wrap=lambda f: f, names=None):
    """name -> [outputs..., gradients...] as numpy arrays (None: no gradient)."""
    out = {}
    for name, (fn, inputs) in _case_table(tf).items():
        if names is not None and name not in names:
            continue
        args = [tf.constant(np.asarray(v, dtype)) for v, dtype in inputs]

        def run(*args, fn=fn):
            with tf.GradientTape() as tape:
                tape.watch(args)
                y = fn(*args)
            ys = list(y) if isinstance(y, (tuple, list)) else [y]
            finite = [tf.where(tf.math.is_finite(t), t, tf.zeros_like(t)) for t in ys]
            return ys, tape.gradient(finite, args)
        ys, grads = wrap(run)(*args)
        out[name] = [np.asarray(t.numpy()) for t in ys] + [
            None if g is None else np.asarray(g.numpy()) for g in grads]
    return out


def main():
    import tensorflow as tf
    flat = {}
    for name, values in cases(tf).items():
        for i, v in enumerate(values):
            flat[f"{name}/{i}"] = np.array("none") if v is None else v
    np.savez_compressed(OUT, **flat)
    print(f"wrote {len(flat)} arrays to {OUT}")


if __name__ == "__main__":
    main()
