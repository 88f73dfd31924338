"""Record TensorFlow 2.21's values for tests/data/embedding_sparse_tf221.json.

    /tmp/tfvenv/bin/python tools/record_embedding_sparse.py

`cases(tf)` is written once for both libraries: tf.nn.embedding_lookup_sparse
and safe_embedding_lookup_sparse with each combiner, with and without
weights, invalid ids and non-positive weights, default_id, 3-D ids,
max_norm, tf.function and a gradient. tests/runtime/test_embedding_sparse.py
replays them.
"""

import json
import pathlib

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "embedding_sparse_tf221.json"


def cases(tf):
    """[(label, nested list of floats)], in a fixed order."""
    p = tf.reshape(tf.range(15.0), [5, 3])
    ids = tf.SparseTensor([[0, 0], [0, 1], [2, 0], [2, 1], [2, 2]],
                          tf.constant([1, 3, 0, 4, 4], tf.int64), [4, 3])
    w = tf.SparseTensor([[0, 0], [0, 1], [2, 0], [2, 1], [2, 2]],
                        [1.0, 2.0, 0.5, 1.0, 3.0], [4, 3])
    bad = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 2]],
                          tf.constant([1, -1, 2, 0], tf.int64), [4, 3])
    badw = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 2]], [2.0, 1.0, -1.0, 0.5], [4, 3])
    ids3 = tf.SparseTensor([[0, 0, 0], [0, 1, 1], [1, 1, 0]],
                           tf.constant([2, 4, 1], tf.int64), [2, 2, 2])
    nn = tf.nn
    out = []
    for c in ["sum", "mean", "sqrtn"]:
        out += [(f"{c}/plain", nn.embedding_lookup_sparse(p, ids, None, combiner=c)),
                (f"{c}/weighted", nn.embedding_lookup_sparse(p, ids, w, combiner=c)),
                (f"{c}/safe", nn.safe_embedding_lookup_sparse(p, ids, w, combiner=c)),
                (f"{c}/safe_invalid", nn.safe_embedding_lookup_sparse(p, bad, badw,
                                                                      combiner=c)),
                (f"{c}/safe_default", nn.safe_embedding_lookup_sparse(p, bad, None, combiner=c,
                                                                      default_id=4)),
                (f"{c}/safe_3d", nn.safe_embedding_lookup_sparse(p, ids3, None, combiner=c))]
    out.append(("max_norm", nn.embedding_lookup_sparse(p, ids, w, max_norm=5.0)))
    f = tf.function(lambda a, b: nn.safe_embedding_lookup_sparse(p, a, b))
    out.append(("function", f(ids, w)))
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = tf.reduce_sum(nn.embedding_lookup_sparse(p, ids, w, combiner="sqrtn") ** 2)
    out.append(("gradient", tf.convert_to_tensor(tape.gradient(y, p))))
    return [(label, t.numpy().tolist()) for label, t in out]


def main():
    import tensorflow as tf
    data = cases(tf)
    OUT.write_text(json.dumps(data, indent=None) + "\n")
    print(f"wrote {len(data)} cases to {OUT}")


if __name__ == "__main__":
    main()
