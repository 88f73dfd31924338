"""Record Keras 3.15's MultiHeadAttention with `attention_axes` on TF 2.21:
outputs, attention scores and the gradients of a weighted output sum for the
weights (drawn from numpy's seed 1) and the query, for rank-4 inputs attending
over one axis, two axes, a negative axis, and with an attention mask.

    $BENCH_TF_PYTHON tools/record_keras_mha_axes.py
    # writes tests/data/keras_mha_axes.npz

`CASES` and `run_case(keras, tf, name, wrap)` are shared with the test.
"""

import os
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "keras_mha_axes.npz"
CASES = {
    "axis_2": dict(attention_axes=(2,)),
    "axes_1_2": dict(attention_axes=(1, 2)),
    "axis_1_int": dict(attention_axes=1),
    "axis_minus_2": dict(attention_axes=(-2,)),
    "axis_2_masked": dict(attention_axes=(2,)),
    "axis_2_dropout_scores": dict(attention_axes=(2,), dropout=0.3),
}


def inputs():
    rng = np.random.default_rng(0)
    return (rng.normal(size=(2, 3, 4, 5)).astype(np.float32),
            rng.normal(size=(2, 3, 4, 6)).astype(np.float32))


def run_case(keras, tf, name, wrap=lambda f: f):
    q, v = inputs()
    layer = keras.layers.MultiHeadAttention(2, 3, **CASES[name])
    layer(q, v)
    rng = np.random.default_rng(1)
    layer.set_weights([rng.uniform(-0.5, 0.5, w.shape).astype(np.float32)
                       for w in layer.get_weights()])
    mask = None
    if name.endswith("masked"):
        mask = np.tril(np.ones((4, 4), bool))[None, None] & \
            (np.arange(3) != 1)[None, :, None, None] | np.eye(4, dtype=bool)
        mask = np.broadcast_to(mask, (2, 3, 4, 4))

    def step(query, value):
        with tf.GradientTape() as tape:
            tape.watch(query)
            out, scores = layer(query, value, attention_mask=mask,
                                return_attention_scores=True)
            total = tf.reduce_sum(out * tf.cos(tf.reshape(
                tf.range(tf.size(out), dtype="float32"), tf.shape(out))))
        return [out, scores] + tape.gradient(total, [query] + layer.trainable_weights)

    got = wrap(step)(tf.constant(q), tf.constant(v))
    return {"out": np.asarray(got[0]), "scores": np.asarray(got[1]),
            **{f"grad{i}": np.asarray(g) for i, g in enumerate(got[2:])},
            "axes": np.asarray(layer.get_config()["attention_axes"])}


def run(keras, tf):
    return {f"{name}/{key}": value for name in CASES
            for key, value in run_case(keras, tf, name).items()}


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import tensorflow as tf
    np.savez(OUT, **run(keras, tf))
    print(f"wrote {OUT}")
