"""Record TF's `tf.nn.nce_loss` / `sampled_softmax_loss` values and gradients
for tests/runtime/sparse/test_sampled_losses.py, with the sampler's values given as
`sampled_values` (TF's own draws are its random numbers).

Run under TensorFlow (2.21 recorded): `$BENCH_TF_PYTHON tools/record_sampled_losses.py`
writes tests/data/sampled_losses_tf221.json: each case's losses and the gradients
of sum(loss * [1, 2, 3]) for weights, biases and inputs. The test holds the
same W, B, X, LABELS, SAMPLED and CASES.
"""

import json
import os

import numpy as np
import tensorflow as tf

W = np.arange(24, dtype=np.float32).reshape(6, 4) % 5 / 4 - 0.5
B = np.array([0.1, -0.2, 0.3, 0.0, -0.1, 0.2], np.float32)
X = np.array([[0.5, -1.0, 0.25, 2.0], [1.5, 0.5, -0.5, 0.0], [0., 0., 0., 0.]], np.float32)
LABELS = {1: [[1], [4], [0]], 2: [[1, 2], [4, 4], [0, 5]]}
SAMPLED = ([2, 4, 3], [[0.5], [0.25], [1.0]], [0.5, 0.125, 0.75])
CASES = [   # (loss, num_true, remove_accidental_hits, sharded weights)
    ("nce_loss", 1, False, False), ("nce_loss", 1, True, False), ("nce_loss", 2, True, True),
    ("sampled_softmax_loss", 1, True, False), ("sampled_softmax_loss", 1, False, False),
    ("sampled_softmax_loss", 2, True, True),
]


def run(loss, num_true, remove, sharded):
    w, b, x = tf.constant(W), tf.constant(B), tf.constant(X)
    expected_true = np.tile(np.array(SAMPLED[1], np.float32), [1, num_true])
    sampled = (tf.constant(SAMPLED[0], tf.int64), tf.constant(expected_true),
               tf.constant(SAMPLED[2], tf.float32))
    with tf.GradientTape() as tape:
        tape.watch([w, b, x])
        weights = [w[:3], w[3:]] if sharded else w
        out = getattr(tf.nn, loss)(weights, b, tf.constant(LABELS[num_true], tf.int64), x,
                                   num_sampled=3, num_classes=6, num_true=num_true,
                                   sampled_values=sampled, remove_accidental_hits=remove)
        total = tf.reduce_sum(out * [1., 2., 3.])
    grads = tape.gradient(total, [w, b, x])
    return out.numpy(), [tf.convert_to_tensor(g).numpy() for g in grads]


def main():
    records = []
    for case in CASES:
        out, grads = run(*case)
        records.append({"case": list(case), "loss": out.tolist(),
                        "grads": [g.tolist() for g in grads]})
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "sampled_losses_tf221.json")
    with open(path, "w") as f:
        json.dump(records, f)
        f.write("\n")


if __name__ == "__main__":
    main()
