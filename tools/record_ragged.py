"""Record TensorFlow's results for the ragged cases of tests/runtime/ragged/test_ragged.py.

Each case is a Python expression over `tf` (and the ragged values `D`, `W`, `R`
defined in SETUP); this script evaluates them with TensorFlow and writes
tests/data/ragged_cases.json, which the test replays against the runtime
(eagerly and inside tf.function). Rerun with TensorFlow 2.21:

    $BENCH_TF_PYTHON tools/record_ragged.py
"""

import json
import os
import sys

SETUP = """
D = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
F = tf.ragged.constant([[1.5, -2.0], [0.0], [3.25, 4.0, -1.0]])
W = tf.ragged.constant([["So", "long"], ["thanks", "for", "all", "the", "fish"]])
R = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]], []])
U = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
E = tf.ragged.constant([[], []], dtype=tf.float32)
"""

CASES = [
    # elementwise: function forms, operators, ragged+dense broadcasting
    "tf.add(D, 3)", "D * 2 - 1", "3 - D", "-D", "abs(F)", "tf.math.square(F)",
    "tf.math.exp(F)", "tf.cast(D, tf.float32) / 2", "tf.math.maximum(D, 4)",
    "tf.math.equal(D, 1)", "D > 2", "tf.logical_not(D > 2)", "(D > 2) & (D < 6)",
    "D + D", "tf.math.multiply(F, F)", "tf.math.pow(F, 2.0)", "D // 2", "D % 3",
    "tf.ragged.constant([[10, 87, 12], [19, 53], [12, 32]]) + [[1000], [2000], [3000]]",
    "U + tf.constant([[10]])", "U * tf.constant([1, -1])", "R + tf.constant(100)",
    "tf.math.sqrt(tf.abs(F))", "tf.math.sign(F)", "tf.zeros_like(D)", "tf.ones_like(F)",
    # reductions
    "tf.reduce_sum(D, axis=1)", "tf.reduce_sum(D, axis=0)", "tf.reduce_sum(D)",
    "tf.reduce_mean(D, axis=1)", "tf.reduce_mean(D, axis=0)", "tf.reduce_mean(F)",
    "tf.reduce_max(D, axis=1)", "tf.reduce_min(D, axis=1)", "tf.reduce_max(D, axis=0)",
    "tf.reduce_prod(D, axis=1)", "tf.reduce_any(D > 3, axis=1)", "tf.reduce_all(D > 3, axis=1)",
    "tf.reduce_sum(R, axis=0)", "tf.reduce_sum(R, axis=1)", "tf.reduce_sum(R, axis=2)",
    "tf.reduce_sum(R, axis=-1)", "tf.reduce_sum(R, axis=[1, 2])", "tf.reduce_mean(R, axis=[0, 2])",
    "tf.reduce_max(R, axis=1)", "tf.reduce_sum(U, axis=2)", "tf.reduce_sum(U, axis=1)",
    "tf.reduce_sum(D, axis=1, keepdims=True)", "tf.reduce_max(F, axis=-1)",
    "tf.reduce_sum(E, axis=0)", "tf.reduce_max(E, axis=1)", "tf.reduce_mean(E, axis=1)",
    "tf.reduce_sum(E)", "E + 1.0", "E.to_tensor()", "E.bounding_shape()", "E[:, 1:]",
    "tf.concat([E, F], 0)", "tf.reduce_min(F * 0.0, axis=1)",
    "tf.math.reduce_std(F, axis=1)", "tf.math.reduce_variance(F, axis=-1)",
    "tf.math.reduce_variance(F)", "tf.nn.softmax(F)", "tf.nn.log_softmax(F)",
    "tf.math.reduce_logsumexp(F, axis=1)", "tf.nn.softmax(tf.cast(R, tf.float32))",
    "tf.math.unsorted_segment_sum(F, [0, 0, 1], 2)", "tf.math.unsorted_segment_max(D, [1, 0, 1, 1, 0], 3)",
    "D == D", "D != 3", "tf.math.not_equal(F, 0.0)",
    # structure
    "D.bounding_shape()", "R.bounding_shape()", "D.nrows()", "D.row_lengths()",
    "D.row_starts()", "D.row_limits()", "D.value_rowids()", "R.nested_row_lengths()",
    "R.row_lengths(axis=2)", "R.nested_value_rowids()", "R.merge_dims(1, 2)",
    "R.merge_dims(0, 1)", "R.merge_dims(0, -1)", "U.merge_dims(1, 2)", "D.to_tensor(shape=[3, 2])",
    "R.to_tensor(-1)", "D.with_values(D.values * 10)", "R.with_flat_values(R.flat_values + 1)",
    "tf.RaggedTensor.from_nested_row_splits([10, 11, 12, 13, 14, 15, 16, 17, 18, 19], "
    "([0, 1, 1, 5], [0, 3, 3, 5, 9, 10]))",
    "tf.RaggedTensor.from_nested_row_lengths([1, 2, 3, 4, 5], ([2, 0, 1], [1, 1, 3]))",
    "tf.RaggedTensor.from_nested_value_rowids([1, 2, 3, 4], ([0, 0, 2], [0, 1, 1, 2]))",
    "tf.RaggedTensor.from_row_starts([1, 2, 3, 4], [0, 2, 2])",
    "tf.RaggedTensor.from_row_limits([1, 2, 3, 4], [1, 1, 4])",
    "tf.RaggedTensor.from_tensor([[1, 0, 0], [2, 3, 0]], padding=0)",
    "D.to_sparse()", "tf.RaggedTensor.from_sparse(tf.SparseTensor([[0, 0], [2, 0], [2, 1]], "
    "['a', 'b', 'c'], [3, 3]))",
    "tf.RaggedTensor.from_tensor(tf.constant([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]), "
    "lengths=[1, 2])",
    "tf.shape(D)[0]", "tf.size(D)", "tf.rank(R)", "tf.size(U)", "tf.rank(D)",
    # indexing
    "D[:, :2]", "D[:, -2:]", "D[:, 1:]", "D[2, 1]", "D[0, -1]", "R[:, 1:3]", "R[:, -1:]",
    "R[:, :, :1]", "U[:, :, 0]", "U[:, 0]", "R[1:, 0]", "D[::2]", "D[-2:]", "U[1, 0, 1]",
    # array ops
    "tf.concat([D, [[5, 3]]], axis=0)", "tf.concat([D, D], axis=1)", "tf.concat([R, R], 0)",
    "tf.concat([W, W], axis=1)", "tf.stack([D, D], axis=0)", "tf.stack([D, D * 2], axis=1)",
    "tf.tile(D, [1, 2])", "tf.tile(D, [2, 1])", "tf.gather(D, [2, 0])", "tf.gather(R, [0, 0])",
    "tf.gather(D, [[2, 0], [1, 3]])", "tf.gather_nd(D, [[2, 1], [0, 0]])",
    "tf.gather_nd(D, [[2], [0]])", "tf.where(D > 2, D, -D)", "tf.where(D > 2)",
    "tf.expand_dims(D, 0)", "tf.expand_dims(D, 1)", "tf.expand_dims(D, -1)",
    "tf.boolean_mask(D, D > 2)", "tf.boolean_mask(D, [True, False, True, False, True])",
    "tf.ragged.boolean_mask(D, D > 2)", "tf.ragged.boolean_mask(D, [True, False, True, False, True])",
    "tf.strings.substr(W, 0, 2)", "tf.strings.length(W)", "tf.strings.upper(W)",
    "tf.strings.join([W, W], separator='-')", "tf.strings.reduce_join(W, axis=1)",
    "tf.strings.to_hash_bucket_fast(W, 10)", "tf.strings.as_string(D)",
    "tf.map_fn(tf.math.square, D)", "tf.nn.embedding_lookup(tf.constant([[0., 1.], [2., 3.], [4., 5.], "
    "[6., 7.], [8., 9.], [10., 11.], [12., 13.], [14., 15.], [16., 17.], [18., 19.]]), D)",
    "tf.squeeze(tf.expand_dims(D, -1), -1)",
    # tf.ragged
    "tf.ragged.range([3, 0, 2])", "tf.ragged.range([1, 5], [4, 2], [1, -1])",
    "tf.ragged.range(3, [5, 4, 3], 1)", "tf.ragged.range([0.5, 1.0], 2.0, 0.5)",
    "tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5])",
    "tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2])",
    "tf.ragged.segment_ids_to_row_splits([0, 1, 1], num_segments=4)",
    "tf.ragged.stack([D, D], axis=0)", "tf.ragged.stack([[1, 2], [3, 4, 5]])",
    "tf.ragged.stack([D, D], axis=1)",
    "tf.ragged.stack_dynamic_partitions([1, 2, 3, 4, 5], [2, 0, 2, 1, 0], 3)",
    "tf.ragged.stack_dynamic_partitions(D, [1, 0, 1, 1, 0], 2)",
    "tf.ragged.cross([tf.ragged.constant([['a'], ['b', 'c']]), tf.ragged.constant([['d'], ['e']])])",
    "tf.ragged.cross([tf.ragged.constant([['a'], ['b', 'c']]), tf.constant([['d'], ['e']])])",
    "tf.ragged.cross([tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([['x'], ['y', 'z']])])",
    "tf.ragged.cross_hashed([tf.ragged.constant([['a'], ['b', 'c']]), tf.ragged.constant([['d'], ['e']])])",
    "tf.ragged.cross_hashed([tf.ragged.constant([['a'], ['b', 'c']]), tf.ragged.constant([['d'], ['e']])], "
    "num_buckets=10, hash_key=7)",
    "tf.ragged.map_flat_values(tf.math.add, D, 1)",
    "tf.reverse(D, [1])", "tf.reverse(R, [0, 1, 2])", "tf.reverse(U, [2])",
    # printing
    "repr(D)", "str(W)", "repr(R)", "repr(U)", "repr(F)", "repr(tf.ragged.constant([[], []]))",
    "repr(tf.ragged.constant([[1, 2], [3, 4]]))", "str(D.numpy())",
    # errors
    "D + tf.ragged.constant([[1], [2], [3], [4], [5]])",
    "tf.ragged.constant([[1, 2], [3, 4, 5, 6], [7]]) + tf.constant([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])",
]


# Gradients: d(sum of the result's values)/d v, where G is the RaggedTensor
# with flat values v = [1.5, -2.0, 0.0, 3.25, 4.0, -1.0] and rows [2, 1, 3].
GRAD_SETUP = "G = tf.RaggedTensor.from_row_lengths(v, [2, 1, 3])"
GRAD_CASES = [
    "G * G", "tf.reduce_sum(G * G, axis=1)", "tf.reduce_max(G, axis=1)",
    "tf.reduce_mean(G, axis=0)", "tf.reduce_min(G, axis=0)", "tf.reduce_prod(G, axis=1)",
    "G.to_tensor() * [[1.0, 2.0, 3.0]]", "G[:, 1:] * 3.0", "tf.gather(G, [2, 2, 0]) * G[2:3, :1].flat_values[0]",
    "tf.concat([G, G * 2.0], axis=1)", "tf.math.exp(G) + tf.math.sin(G)",
    "G + [[1.0], [2.0], [3.0]]", "tf.where(G > 0, G * G, -G)", "tf.reduce_mean(G)",
    "tf.nn.relu(G) * tf.math.tanh(G)", "tf.nn.softmax(G) * G",
    "tf.math.reduce_std(G, axis=1)", "tf.math.unsorted_segment_sum(G * G, [1, 0, 1], 2)", "G.to_tensor(shape=[2, 2]) * [[1.0, 2.0], [3.0, 4.0]]",
    "G.to_tensor(shape=[4, 4], default_value=9.0) * 2.0", 
    "tf.reduce_max(tf.RaggedTensor.from_row_lengths(tf.gather(v, [0, 0, 2, 4, 4, 5]), [2, 1, 3]), "
    "axis=1)",
    "tf.reduce_min(tf.RaggedTensor.from_row_lengths(tf.gather(v, [2, 2, 2, 5, 5, 5]), [2, 1, 3]), "
    "axis=0)", "tf.reduce_sum(G * G, axis=0)", "tf.reduce_sum(tf.stack([G, G * G], axis=1), axis=2)",
]


def gradients(tf, np):
    """TensorFlow's gradient of each GRAD_CASES expression."""
    out = {}
    for case in GRAD_CASES:
        v = tf.constant([1.5, -2.0, 0.0, 3.25, 4.0, -1.0])
        with tf.GradientTape() as tape:
            tape.watch(v)
            env = {"tf": tf, "v": v}
            exec(GRAD_SETUP, env)  # noqa: S102 - the recorded setup, our own text
            y = eval(case, env)  # noqa: S307 - the cases above
            total = tf.reduce_sum(y.flat_values if isinstance(y, tf.RaggedTensor) else y)
        out[case] = _plain(tf.convert_to_tensor(tape.gradient(total, v)).numpy().tolist())
    return out


def encode(value, tf, np):
    """A JSON form of a result: ragged (list, dtype, shape), tensor, sparse, text."""
    if isinstance(value, str):
        return {"text": value}
    if isinstance(value, tf.RaggedTensor):
        return {"ragged": _plain(value.to_list()), "dtype": value.dtype.name,
                "shape": str(value.shape), "ragged_rank": value.ragged_rank}
    if isinstance(value, tf.SparseTensor):
        return {"sparse": [_plain(value.indices.numpy().tolist()),
                           _plain(value.values.numpy().tolist()),
                           _plain(value.dense_shape.numpy().tolist())],
                "dtype": value.dtype.name}
    if isinstance(value, (tuple, list)):
        return {"tuple": [encode(v, tf, np) for v in value]}
    t = tf.convert_to_tensor(value)
    return {"tensor": _plain(t.numpy().tolist()), "dtype": t.dtype.name,
            "shape": str(t.shape)}


def _plain(x):
    if isinstance(x, list):
        return [_plain(v) for v in x]
    if isinstance(x, bytes):
        return {"b": x.decode("latin-1")}
    if isinstance(x, float) and x != x:
        return "nan"
    if isinstance(x, float) and x in (float("inf"), float("-inf")):
        return str(x)
    return x


def main():
    import numpy as np
    import tensorflow as tf
    env = {"tf": tf, "np": np}
    exec(SETUP, env)  # noqa: S102 - the setup above
    out = {}
    for case in CASES:
        try:
            out[case] = encode(eval(case, env), tf, np)  # noqa: S307 - the cases above
        except Exception as e:  # noqa: BLE001 - recorded: TF raises for this case
            out[case] = {"error": type(e).__name__}
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "ragged_cases.json")
    with open(path, "w") as f:
        json.dump({"setup": SETUP, "cases": out, "grad_setup": GRAD_SETUP,
                   "gradients": gradients(tf, np)}, f, indent=0)
    print(f"{len(out)} cases -> {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
