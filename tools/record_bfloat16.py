"""Record TensorFlow 2.21's values for tests/data/bfloat16_tf221.npz.

    $BENCH_TF_PYTHON tools/record_bfloat16.py

`cases(tf, wrap)` is written once for both libraries: each case runs one op
on bfloat16 inputs (elementwise math, matmul, reductions, softmax, conv2d,
casts with ties, overflow, -0, inf and NaN) under a GradientTape, through
`wrap` (the identity, or tf.function in the test's traced mode), and returns
the output and, for the differentiable ones, the gradients of its weighted
sum. bfloat16 values are stored as float32 (every bfloat16 is one exactly).
tests/runtime/core/test_bfloat16.py replays them.
"""

import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "bfloat16_tf221.npz"

# 1 + 2**-8 and 1 + 3 * 2**-8 are halfway between bfloat16 neighbours (ties to
# even), 3.3961e38 rounds past bfloat16's max to inf. (TF's CPU kernels flush
# subnormal results to zero, numpy's do not: no subnormals here.)
SPECIAL = [1.00390625, 1.01171875, -2.5, 0.0, -0.0, 3.3961e38, -3.39e38, 1e-30,
           np.inf, -np.inf, np.nan, 65504.0, 0.1]
# float64 -> bfloat16 goes through float32 in TF: rounded twice.
DOUBLE_ROUNDED = [1.00390625 + 2**-30, 1.00390625 - 2**-30, 3.3961e38, 1e-30, 2.0**-126]


def _values(shape, seed, scale=2.0):
    return np.random.default_rng(seed).uniform(-scale, scale, shape)


def _grad_cases(tf):
    """name -> (function, inputs): differentiable cases, run with a gradient."""
    nn, x, y = tf.nn, _values([3, 4], 1), _values([3, 4], 2)
    pos = np.abs(x) + 0.25
    unary = {"neg": tf.negative, "abs": tf.abs, "square": tf.square, "exp": tf.exp,
             "tanh": tf.tanh, "sigmoid": tf.sigmoid, "relu": nn.relu, "sin": tf.sin,
             "softplus": nn.softplus, "erf": tf.math.erf, "softmax": nn.softmax,
             "log_softmax": nn.log_softmax, "reduce_sum": tf.reduce_sum,
             "reduce_mean": lambda a: tf.reduce_mean(a, axis=1),
             "reduce_max": lambda a: tf.reduce_max(a, axis=0),
             "reduce_prod": lambda a: tf.reduce_prod(a, axis=1),
             "cast_f32": lambda a: tf.cast(a, tf.float32)}
    table = {name: (fn, [x]) for name, fn in unary.items()}
    table.update({name: (fn, [pos]) for name, fn in
                  {"sqrt": tf.sqrt, "log": tf.math.log, "rsqrt": tf.math.rsqrt,
                   "reciprocal": tf.math.reciprocal}.items()})
    binary = {"add": tf.add, "sub": tf.subtract, "mul": tf.multiply, "maximum": tf.maximum,
              "minimum": tf.minimum, "squared_difference": tf.math.squared_difference}
    table.update({name: (fn, [x, y]) for name, fn in binary.items()})
    table["div"] = (tf.divide, [x, pos])
    table["pow"] = (tf.pow, [pos, y])
    table["matmul"] = (lambda a, b: tf.matmul(a, b, transpose_b=True), [x, y])
    table["batch_matmul"] = (tf.matmul, [_values([2, 3, 4], 3), _values([2, 4, 5], 4)])
    table["conv2d"] = (lambda a, b: nn.conv2d(a, b, 1, "SAME"),
                       [_values([1, 5, 5, 2], 5), _values([3, 3, 2, 3], 6)])
    table["bias_add"] = (nn.bias_add, [x, _values([4], 7)])
    return table


def _value_cases(tf):
    """name -> (function, inputs): cases with no gradient to record (the Generator
    made here, outside `wrap`)."""
    return {
        "cast_special": (lambda a: tf.cast(a, tf.bfloat16), [(SPECIAL, "float32")]),
        "cast_special_f64": (lambda a: tf.cast(a, tf.bfloat16), [(SPECIAL, "float64")]),
        "cast_double_rounded": (lambda a: tf.cast(a, tf.bfloat16), [(DOUBLE_ROUNDED, "float64")]),
        "cast_int64": (lambda a: tf.cast(a, tf.bfloat16),
                       [([2**24 + 1, 2**24 + 2**16 + 1, -(2**40) - 1], "int64")]),
        "cast_to_int32": (lambda a: tf.cast(a, tf.int32), [([1.7, -1.7, 300.0, -0.0], None)]),
        "cast_from_int": (lambda a: tf.cast(a, tf.bfloat16), [([257, 259, -3, 2**20 + 1], "int32")]),
        "sum_of_ones": (lambda a: tf.reduce_sum(a), [(np.ones(1000), None)]),
        "mean_of_thirds": (lambda a: tf.reduce_mean(a), [([1.0, 2.0, 4.0], None)]),
        "add_special": (lambda a: a + a, [(SPECIAL, None)]),
        "greater": (lambda a, b: tf.greater(a, b), [(_values([6], 8), None), (_values([6], 9), None)]),
        "argmax": (lambda a: tf.argmax(a, axis=1), [(_values([3, 4], 10), None)]),
        "range": (lambda: tf.range(0.0, 3.0, 0.7, dtype=tf.bfloat16), []),
        "zeros_ones_fill": (lambda: tf.stack([tf.zeros([2], tf.bfloat16), tf.ones([2], tf.bfloat16),
                                              tf.fill([2], tf.constant(0.3, tf.bfloat16))]), []),
        "constant_python": (lambda: tf.constant([0.1, 1e10, 1 / 3], tf.bfloat16), []),
        "is_nan": (lambda a: tf.math.is_nan(a), [(SPECIAL, None)]),
        "stateless_uniform": (lambda: tf.random.stateless_uniform(
            [5], seed=[1, 2], minval=-2, maxval=5, dtype=tf.bfloat16), []),
        "stateless_normal": (lambda: tf.random.stateless_normal([5], seed=[3, 4],
                                                                dtype=tf.bfloat16), []),
        "generator_uniform": (lambda gen=tf.random.Generator.from_seed(1): gen.uniform(
            [5], dtype=tf.bfloat16), []),
        "as_string": (lambda a: tf.strings.as_string(a), [([2.5, -0.1, 3e38], None)]),
        "saturate_cast": (lambda a: tf.dtypes.saturate_cast(a, tf.bfloat16),
                          [([1e30, -1e39, 3.4e38, 7.0], "float64")]),
        "bitcast": (lambda a: tf.bitcast(a, tf.int16), [([1.0, -2.5, np.inf], None)]),
        "max_pool": (lambda a: tf.nn.max_pool2d(a, 2, 1, "SAME"), [(_values([1, 3, 3, 1], 11), None)]),
        "einsum": (lambda a, b: tf.einsum("ij,jk->ik", a, b),
                   [(_values([2, 3], 12), None), (_values([3, 2], 13), None)]),
        "cumsum_in_bfloat16": (lambda a: tf.cumsum(a), [(np.ones(300), None)]),
        "segment_max": (lambda a: tf.math.unsorted_segment_max(a, [0, 0, 2], 3),
                        [([1.5, -2.0, 3.0], None)]),
    }


def _tensor(tf, values, dtype):
    return tf.cast(tf.constant(np.asarray(values, dtype or "float32")), tf.bfloat16) \
        if dtype is None else tf.constant(np.asarray(values, dtype))


def _stored(t):
    value = np.asarray(t.numpy())
    if t.dtype.name == "string":          # bytes, as text (npz holds no objects)
        return np.array([v.decode() for v in value.ravel()]).reshape(value.shape)
    return value.astype(np.float32) if t.dtype.name == "bfloat16" else value


def _dtypes(ts):
    return np.array([t.dtype.name for t in ts])


def cases(tf, wrap=lambda f: f, names=None):
    """name -> [dtype names, output, gradients...] as numpy arrays."""
    out = {}
    for name, (fn, inputs) in _grad_cases(tf).items():
        if names is None or name in names:
            out[name] = _grad_case(tf, wrap, fn, [_tensor(tf, v, None) for v in inputs])
    for name, (fn, inputs) in _value_cases(tf).items():
        if names is None or name in names:
            result = wrap(fn)(*[_tensor(tf, v, d) for v, d in inputs])
            out[name] = [_dtypes([result]), _stored(result)]
    return out


def _grad_case(tf, wrap, fn, args):
    def run(*args):
        with tf.GradientTape() as tape:
            tape.watch(args)
            y = fn(*args)
            weights = tf.cos(tf.reshape(tf.range(tf.size(y), dtype=tf.float32), tf.shape(y)))
            loss = tf.reduce_sum(y * tf.cast(weights, y.dtype))
        return [y] + list(tape.gradient(loss, args))
    results = wrap(run)(*args)
    return [_dtypes(results)] + [_stored(t) for t in results]


def main():
    import tensorflow as tf
    flat = {f"{name}/{i}": v for name, values in cases(tf).items()
            for i, v in enumerate(values)}
    np.savez(OUT, **flat)
    print(f"wrote {len(flat)} arrays to {OUT}")


if __name__ == "__main__":
    main()
