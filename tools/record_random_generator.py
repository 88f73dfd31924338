"""Print TensorFlow 2.21's tf.random.Generator values for the literals of
tests/runtime/function/test_random_generator.py (Philox draws from fixed seeds).

    $BENCH_TF_PYTHON tools/record_random_generator.py
"""

import numpy as np


def cases(tf):
    """name -> a function of a fresh Generator.from_seed(seed) returning values."""
    f16, f64, i32, i64 = tf.float16, tf.float64, tf.int32, tf.int64
    return {
        "uniform": (1, lambda g: g.uniform([6])),
        "uniform_bounds": (5, lambda g: g.uniform([3], minval=-2.0, maxval=3.0)),
        "uniform_f16": (1, lambda g: g.uniform([5], dtype=f16)),
        "uniform_f64": (1, lambda g: g.uniform([3], dtype=f64)),
        "normal": (1, lambda g: g.normal([5])),
        "normal_mean": (9, lambda g: g.normal([2, 3], mean=1.0, stddev=2.0)),
        "normal_f64": (1, lambda g: g.normal([3], dtype=f64)),
        "normal_f16": (3, lambda g: g.normal([4], dtype=f16)),
        "truncated": (1, lambda g: g.truncated_normal([9])),
        "truncated_f64": (2, lambda g: g.truncated_normal([5], dtype=f64)),
        "full_int64": (1, lambda g: g.uniform_full_int([3])),
        "full_int32": (1, lambda g: g.uniform_full_int([3], dtype=i32)),
        "int32_range": (1, lambda g: g.uniform([5], 0, 10, dtype=i32)),
        "int64_range": (4, lambda g: g.uniform([4], -5, 1000, dtype=i64)),
        "list_seed": ([1, 2, 3], lambda g: g.uniform([2])),
        "negative_seed": (-1, lambda g: g.uniform([2])),
        "make_seeds": (1, lambda g: g.make_seeds(2)),
        "split_then_draw": (1, lambda g: [c.uniform([2]) for c in g.split(2)] + [g.uniform([1])]),
        "skip_then_draw": (1, lambda g: (g.skip(3), g.uniform([2]))[1]),
        "state_after": (1, lambda g: (g.normal([3]), g.uniform([2], dtype=f64), g.state)[2]),
    }


def main():
    import tensorflow as tf
    for name, (seed, fn) in cases(tf).items():
        out = fn(tf.random.Generator.from_seed(seed))
        values = [np.asarray(v) for v in out] if isinstance(out, list) else np.asarray(out)
        text = [v.tolist() for v in values] if isinstance(values, list) else values.tolist()
        print(f"    {name!r}: {text!r},")


if __name__ == "__main__":
    main()
