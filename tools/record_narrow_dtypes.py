"""Record TensorFlow 2.21's values for tests/data/narrow_dtypes_tf221.npz.

    $BENCH_TF_PYTHON tools/record_narrow_dtypes.py

tf.experimental's 8-bit floats and 4-bit integers: casts into them (ties to
even, past the largest value: NaN for e4m3fn, which has no inf; inf for e5m2;
subnormals; float64's rounding), out of them (to float32, ints with NaN, uint8,
bool, between the two float8s), int4/uint4 wrapping to the low 4 bits, constants
from Python lists and the data-movement ops TF runs on them (reshape,
transpose, concat, gather). `cases(tf, wrap)` is written once for both
libraries; values are stored as float32 or int64 with the dtype name beside.
tests/runtime/core/test_narrow_dtypes.py replays them eagerly and in tf.function.
"""

import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "narrow_dtypes_tf221.npz"

FLOATS = [0.3, -1.7, 1000.0, 7.9, np.nan, 500.0, -0.0, 17.0, np.inf, -np.inf, 1e-5,
          0.001953125, 0.0029296875, 240.0, 464.0, 60000.0, 1.0625, 1.1875, 2.0**-17]
INTS = [1, -3, 9, -9, 20, 7, -128, 255, 15, -8]


def _case_table(tf):
    """name -> (function, inputs as (values, dtype name))."""
    e = tf.experimental
    f8 = {"e4m3fn": e.float8_e4m3fn, "e5m2": e.float8_e5m2}
    table = {}
    for short, d in f8.items():
        for src in ("float32", "float64", "float16", "bfloat16"):
            table[f"{src}_to_{short}"] = (lambda a, d=d: tf.cast(a, d), [(FLOATS, src)])
        for dst in ("float32", "int32", "uint8", "bool", "bfloat16"):
            table[f"{short}_to_{dst}"] = (
                lambda a, d=d, dst=dst: tf.cast(tf.cast(a, d), tf.as_dtype(dst)),
                [(FLOATS, "float32")])
        table[f"{short}_moved"] = (lambda a, d=d: tf.gather(tf.concat([
            tf.transpose(tf.reshape(tf.cast(a, d), [2, 3])), tf.cast(a[:2][None], d)], 0),
            [3, 0, 1]), [(FLOATS[:6], "float32")])
        table[f"{short}_constant"] = (lambda d=d: tf.constant([1.5, 300.0, -0.1], d), [])
    table["e4m3fn_to_e5m2"] = (lambda a: tf.cast(tf.cast(a, e.float8_e4m3fn), e.float8_e5m2),
                               [(FLOATS, "float32")])
    table["e5m2_to_e4m3fn"] = (lambda a: tf.cast(tf.cast(a, e.float8_e5m2), e.float8_e4m3fn),
                               [(FLOATS, "float32")])
    for short, d in {"int4": e.int4, "uint4": e.uint4}.items():
        for src in ("int32", "int64", "uint8", "int8"):
            table[f"{src}_to_{short}"] = (lambda a, d=d: tf.cast(a, d), [(INTS, src)])
        table[f"{short}_to_int32"] = (lambda a, d=d: tf.cast(tf.cast(a, d), tf.int32),
                                      [(INTS, "int32")])
        table[f"{short}_constant"] = (lambda d=d: tf.constant([1, 2, 7], d), [])
    table["int4_to_uint4"] = (lambda a: tf.cast(tf.cast(a, e.int4), e.uint4), [(INTS, "int32")])
    table["uint4_to_int4"] = (lambda a: tf.cast(tf.cast(a, e.uint4), e.int4), [(INTS, "int32")])
    return table


def _stored(t):
    value = np.asarray(t.numpy())
    if t.dtype.name.startswith("float8") or t.dtype.name == "bfloat16":
        return value.astype(np.float32)
    return value.astype(np.int64) if t.dtype.name.endswith("int4") else value


def _tensor(tf, values, dtype):
    if dtype == "bfloat16":
        return tf.cast(tf.constant(np.asarray(values, np.float32)), tf.bfloat16)
    return tf.constant(np.asarray(values).astype(dtype))


def cases(tf, wrap=lambda f: f, names=None):
    """name -> [dtype name, value] as numpy arrays."""
    out = {}
    for name, (fn, inputs) in _case_table(tf).items():
        if names is not None and name not in names:
            continue
        result = wrap(fn)(*[_tensor(tf, v, d) for v, d in inputs])
        out[name] = [np.array([result.dtype.name]), _stored(result)]
    return out


def main():
    import tensorflow as tf
    flat = {f"{name}/{i}": v for name, values in cases(tf).items()
            for i, v in enumerate(values)}
    np.savez(OUT, **flat)
    print(f"wrote {len(flat)} arrays to {OUT}")


if __name__ == "__main__":
    main()
