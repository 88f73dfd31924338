"""Record TensorFlow 2.21's values for tests/data/fractional_pool_tf221.npz.

    $BENCH_TF_PYTHON tools/record_fractional_pool.py

`cases(tf, wrap)` is written once for both libraries: tf.nn.fractional_max_pool
and fractional_avg_pool with pooling ratios that divide the input (TF's
regions are then fixed: its values can be compared), overlapping or not, ties,
float32, float64 and int32, under a GradientTape; each returns the output,
the row and column pooling sequences and the gradient of a weighted sum.
tests/runtime/ops/nn/test_fractional_pool.py replays them eagerly and traced.
"""

import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "fractional_pool_tf221.npz"


def _case_table(tf):
    """name -> (function, input values, dtype)."""
    ties = np.random.default_rng(0).integers(0, 5, [2, 4, 6, 2])
    smooth = np.random.default_rng(1).normal(size=[1, 6, 6, 3])
    table = {}
    for pool in ("max", "avg"):
        fn = getattr(tf.nn, f"fractional_{pool}_pool")
        for overlap in (False, True):
            tag = f"{pool}_{'overlap' if overlap else 'plain'}"
            table[f"{tag}_ties"] = (lambda a, fn=fn, o=overlap: fn(
                a, [1.0, 2.0, 3.0, 1.0], overlapping=o, seed=1), ties, "float32")
            table[f"{tag}_f64"] = (lambda a, fn=fn, o=overlap: fn(
                a, [1.0, 3.0, 2.0, 1.0], overlapping=o, pseudo_random=True, seed=2),
                smooth, "float64")
    table["max_int32"] = (lambda a: tf.nn.fractional_max_pool(a, 2.0), ties, "int32")
    return table


def cases(tf, wrap=lambda f: f, names=None):
    """name -> [output, row sequence, column sequence, gradient (floats)]."""
    out = {}
    for name, (fn, values, dtype) in _case_table(tf).items():
        if names is not None and name not in names:
            continue

        def run(x, fn=fn):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y, rows, cols = fn(x)
                weights = tf.cos(tf.reshape(tf.range(tf.size(y), dtype=tf.float64), tf.shape(y)))
                loss = tf.reduce_sum(tf.cast(y, tf.float64) * weights)
            grad = tape.gradient(loss, x) if x.dtype.is_floating else tf.zeros([0])
            return [y, rows, cols, grad]
        x = tf.constant(np.asarray(values).astype(dtype))
        out[name] = [np.asarray(t.numpy()) for t in wrap(run)(x)]
    return out


def main():
    import tensorflow as tf
    flat = {f"{name}/{i}": v for name, values in cases(tf).items()
            for i, v in enumerate(values)}
    np.savez(OUT, **flat)
    print(f"wrote {len(flat)} arrays to {OUT}")


if __name__ == "__main__":
    main()
