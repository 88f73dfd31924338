"""Record Keras 3.15's mask propagation through layers called on a list of
tensors on TF 2.21: Embedding(mask_zero=True) -> Dense -> Attention (the
mask reaches the attention as [query_mask, value_mask]), AdditiveAttention
with two masks, Concatenate and Add of masked inputs into an LSTM and a
GlobalAveragePooling1D, Minimum, MultiHeadAttention (fused, and with its
scores) and a causal Attention: outputs,
output masks and the gradients of the output sum for the weights (drawn from
numpy's seed 0).

    $BENCH_TF_PYTHON tools/record_keras_masking.py
    # writes tests/data/keras_masking.npz

`CASES` and `run_case(keras, tf, name, wrap)` are shared with the test.
"""

import os
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "keras_masking.npz"
CASES = ("dense_attention", "additive_two_masks", "concatenate_lstm", "add_pooling",
         "multi_head", "causal_attention", "minimum_pooling", "multi_head_scores")
IDS = np.array([[1, 2, 0, 0, 0], [3, 0, 0, 0, 0], [4, 5, 6, 7, 8]], np.int32)
IDS2 = np.array([[2, 2, 2, 0, 0], [1, 1, 1, 1, 0], [9, 0, 0, 0, 0]], np.int32)


def build(keras, name):
    L = keras.layers
    a, b = keras.Input((5,), dtype="int32"), keras.Input((5,), dtype="int32")
    ea = L.Embedding(10, 4, mask_zero=True)(a)
    eb = L.Embedding(10, 4, mask_zero=True)(b)
    if name == "dense_attention":
        d = L.Dense(4)(ea)
        return [a], L.Attention()([d, d])
    if name == "additive_two_masks":
        return [a, b], L.AdditiveAttention()([L.Dense(4)(ea), eb])
    if name == "concatenate_lstm":
        return [a, b], L.LSTM(3, return_sequences=True)(L.Concatenate()([ea, eb]))
    if name == "add_pooling":
        return [a, b], L.GlobalAveragePooling1D()(L.Add()([ea, eb]))
    if name == "multi_head":
        return [a, b], L.MultiHeadAttention(2, 3)(ea, eb)
    if name == "minimum_pooling":
        return [a, b], L.GlobalAveragePooling1D()(L.Minimum()([ea, eb]))
    if name == "multi_head_scores":
        out, scores = L.MultiHeadAttention(2, 3)(ea, eb, return_attention_scores=True)
        return [a, b], L.Concatenate()([out, L.Reshape((5, 10))(
            L.Permute((2, 1, 3))(scores))])
    return [a], L.Attention(use_scale=True)([L.Dense(4)(ea), ea], use_causal_mask=True)


def run_case(keras, tf, name, wrap=lambda f: f):
    inputs, output = build(keras, name)
    mask = getattr(output, "_keras_mask", None)
    model = keras.Model(inputs, output)
    rng = np.random.default_rng(0)
    model.set_weights([rng.uniform(-0.5, 0.5, w.shape).astype(np.float32)
                       for w in model.get_weights()])
    feeds = [IDS, IDS2][:len(inputs)]

    def step(*xs):
        with tf.GradientTape() as tape:
            y = model(list(xs))
            total = tf.reduce_sum(y * tf.cos(tf.reshape(
                tf.range(tf.size(y), dtype="float32"), tf.shape(y))))
        return [y] + tape.gradient(total, model.trainable_weights)

    out = wrap(step)(*feeds)
    return {"y": np.asarray(out[0]), "has_mask": np.asarray(mask is not None),
            **{f"grad{i}": np.asarray(tf.convert_to_tensor(g)) for i, g in enumerate(out[1:])}}


def run(keras, tf):
    return {f"{name}/{key}": value for name in CASES
            for key, value in run_case(keras, tf, name).items()}


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    import tensorflow as tf
    np.savez(OUT, **run(keras, tf))
    print(f"wrote {OUT}")
