"""Record Keras 3.15's LoRA results (on TensorFlow 2.21) for
tests/keras/quantizers/test_lora.py.

    $BENCH_TF_PYTHON tools/record_keras_lora.py
    # writes tests/data/keras_lora_keras315.json and keras_lora_keras315.keras

`run_cases(keras, tf, tmp)` enables LoRA on Dense, EinsumDense, Embedding and
Conv1D/2D/3D layers (the `lora_rank` / `lora_alpha` arguments and
`enable_lora`), with fixed weights, and returns their variables (names,
dtypes, shapes, trainability, values), `weights` / `trainable_weights` order,
outputs, gradients, two-epoch fits (fixed and seeded weights) with their losses
and weights, configs and their round trip, what a saved .keras / .weights.h5
file holds once loaded (Keras merges LoRA into the kernel when saving,
requantized for int8 / int4 layers), `save_own_variables` /
`load_own_variables`, LoRA on int8 / int4 layers, under mixed_bfloat16 and on a
tied ReversibleEmbedding, the `Layer.dtype_policy` setter (which quantizes a
built layer), and the messages of the errors Keras raises; the test runs it on
`runtime.keras`.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from keras_recording import error_text, record  # noqa: E402 - after the path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "keras_lora_keras315.json")
MODEL_FILE = os.path.join(ROOT, "tests", "data", "keras_lora_keras315.keras")


def _values(v):
    a = np.asarray(v)
    if a.dtype.kind in "iu":
        return [int(i) for i in a.ravel()]
    return [round(float(i), 6) for i in a.ravel()]


def _fill(shape, seed, scale=0.5):
    rng = np.random.RandomState(seed)
    return rng.normal(scale=scale, size=shape).astype("float32")


def _weights(layer):
    return [[v.path, str(np.asarray(v).dtype), list(np.asarray(v).shape), bool(v.trainable),
             _values(v)] for v in layer.weights]


def _names(variables):
    return [v.path for v in variables]


def _set_all(layer, seed=1):
    """Every weight of the layer set to fixed normal values (int ones left)."""
    for i, v in enumerate(layer.weights):
        if np.asarray(v).dtype.kind == "f":
            v.assign(_fill(tuple(v.shape), seed + i))


def _gradients(tf, layer, x):
    """The input gradient and the trainable weights' gradients of a weighted sum."""
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        w = tf.constant(np.linspace(-1, 1, int(np.prod(y.shape[1:]))).reshape(y.shape[1:]),
                        y.dtype)
        loss = tf.reduce_sum(y * w)
    grads = tape.gradient(loss, [x] + list(layer.trainable_weights))
    return [_values(g) for g in grads]


def _describe(layer, tf, x):
    out = {"weights": _weights(layer), "trainable": _names(layer.trainable_weights),
           "non_trainable": _names(layer.non_trainable_weights),
           "lora": [layer.lora_enabled, layer.lora_rank, layer.lora_alpha],
           "output": _values(layer(x))}
    out["gradients"] = _gradients(tf, layer, x)
    config = layer.get_config()
    out["config"] = {k: config.get(k, "absent") for k in ("lora_rank", "lora_alpha")}
    return out


def _dense_cases(keras, tf):
    x = _fill((3, 5), 0, 1.0)
    x[0] = 0.0
    cases = {}
    layer = keras.layers.Dense(4, lora_rank=2, lora_alpha=8, name="dense")
    cases["unbuilt"] = [layer.lora_enabled, layer.lora_rank, layer.lora_alpha,
                        layer.get_config().get("lora_alpha")]
    layer.build((None, 5))
    _set_all(layer)
    cases["argument"] = _describe(layer, tf, x)
    layer = keras.layers.Dense(4, name="dense", activation="relu")
    layer.build((None, 5))
    layer.enable_lora(3, lora_alpha=6.0)
    _set_all(layer, 5)
    cases["enable"] = _describe(layer, tf, x)
    cases["enable"]["kernel"] = _values(layer.kernel)
    layer = keras.layers.Dense(4, use_bias=False, name="dense")
    layer.build((None, 2, 5))
    layer.enable_lora(1)
    _set_all(layer, 9)
    cases["rank3_no_bias"] = _describe(layer, tf, _fill((2, 2, 5), 3, 1.0))
    config = keras.layers.Dense(4, lora_rank=2, lora_alpha=3, name="dense").get_config()
    clone = keras.layers.Dense.from_config(config)
    clone.build((None, 5))
    cases["round_trip"] = [config.get("lora_rank"), config.get("lora_alpha"),
                           clone.lora_enabled, clone.lora_rank, clone.lora_alpha,
                           _names(clone.weights)]
    return cases


def _einsum_cases(keras, tf):
    cases = {}
    for equation, shape, bias, x_shape in (("ab,bc->ac", 4, "c", (3, 5)),
                                           ("abc,cd->abd", (2, 4), "d", (3, 2, 5)),
                                           ("ab,bcd->acd", (2, 3), None, (3, 5))):
        layer = keras.layers.EinsumDense(equation, output_shape=shape, bias_axes=bias,
                                         lora_rank=2, lora_alpha=5, name="einsum_dense")
        layer.build(x_shape)
        _set_all(layer, 2)
        cases[equation] = _describe(layer, tf, _fill(x_shape, 4, 1.0))
        cases[equation]["kernel"] = _values(layer.kernel)
    return cases


def _embedding_cases(keras, tf):
    ids = np.array([[0, 1, 5], [5, 2, 2]], "int32")
    cases = {}
    layer = keras.layers.Embedding(6, 3, lora_rank=2, lora_alpha=4, name="embedding")
    layer.build()
    _set_all(layer, 3)
    out = {"weights": _weights(layer), "trainable": _names(layer.trainable_weights),
           "lora": [layer.lora_enabled, layer.lora_rank, layer.lora_alpha],
           "output": _values(layer(ids)), "embeddings": _values(layer.embeddings)}
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(ids) * tf.constant(np.linspace(-1, 1, 3), "float32"))
    out["gradients"] = [_values(tf.convert_to_tensor(g))
                        for g in tape.gradient(loss, layer.trainable_weights)]
    config = layer.get_config()
    out["config"] = [config.get("lora_rank"), config.get("lora_alpha")]
    cases["argument"] = out
    return cases


def _conv_cases(keras, tf):
    cases = {}
    for name, cls, x_shape in (("conv1d", keras.layers.Conv1D, (2, 5, 3)),
                               ("conv2d", keras.layers.Conv2D, (2, 4, 4, 3)),
                               ("conv3d", keras.layers.Conv3D, (1, 3, 3, 3, 2))):
        layer = cls(4, 2, lora_rank=2, lora_alpha=3, name=name)
        layer.build(x_shape)
        _set_all(layer, 6)
        cases[name] = _describe(layer, tf, _fill(x_shape, 8, 1.0))
        cases[name]["kernel"] = _values(layer.kernel)
    return cases


def _more_cases(keras, tf):
    """LoRA under mixed_bfloat16, and on ReversibleEmbedding (tied and not)."""
    x = _fill((3, 5), 0, 1.0)
    layer = keras.layers.Dense(4, lora_rank=2, dtype="mixed_bfloat16", name="dense")
    layer.build((None, 5))
    _set_all(layer, 13)
    y = layer(x)
    cases = {"mixed_bfloat16": {"weights": _weights(layer), "output": [y.dtype.name, _values(y)],
                                "kernel": [layer.kernel.dtype.name, _values(layer.kernel)]}}
    ids = np.array([[0, 1, 5]], "int32")
    for tie in (True,):         # untied: Keras 3.15's build fails (its tracker is locked)
        layer = keras.layers.ReversibleEmbedding(6, 3, tie_weights=tie, lora_rank=2,
                                                 name="reversible")
        layer.build()
        _set_all(layer, 14)
        store = {}
        layer.save_own_variables(store)
        cases[f"reversible_tied_{tie}"] = {
            "weights": _weights(layer), "output": _values(layer(ids)),
            "reverse": _values(layer(_fill((2, 3), 15, 1.0), reverse=True)),
            "store": {k: _values(v) for k, v in store.items()}}
    return cases


def _quantized_cases(keras, tf):
    x = _fill((3, 5), 0, 1.0)
    cases = {}
    for mode in ("int8", "int4"):
        layer = keras.layers.Dense(4, name="dense")
        layer.build((None, 5))
        _set_all(layer, 11)
        layer.quantize(mode)
        layer.enable_lora(2)
        for i, v in enumerate((layer.lora_kernel_a, layer.lora_kernel_b)):
            v.assign(_fill(tuple(v.shape), 20 + i, 0.3))
        cases[f"{mode}_then_lora"] = _describe(layer, tf, x)
        layer = keras.layers.Dense(4, lora_rank=2, name="dense")
        layer.build((None, 5))
        _set_all(layer, 11)
        layer.quantize(mode)
        cases[f"lora_then_{mode}"] = {"weights": _weights(layer), "output": _values(layer(x)),
                                      "trainable": _names(layer.trainable_weights)}
    layer = keras.layers.Embedding(6, 3, name="embedding")
    layer.build()
    _set_all(layer, 12)
    layer.quantize("int8")
    layer.enable_lora(2)
    for i, v in enumerate((layer.lora_embeddings_a, layer.lora_embeddings_b)):
        v.assign(_fill(tuple(v.shape), 30 + i, 0.3))
    ids = np.array([[0, 1, 5]], "int32")
    cases["embedding_int8"] = {"weights": _weights(layer), "output": _values(layer(ids))}
    return cases


def _setter_cases(keras, tf):
    """`layer.dtype_policy = ...` on built and unbuilt layers (Keras quantizes a
    built float layer when the policy is a quantized one)."""
    x = _fill((2, 6), 80, 1.0)

    def dense(policy, build_first=True, lora=None, quantize=None):
        layer = keras.layers.Dense(4, name="dense", lora_rank=lora)
        if build_first:
            layer.build((None, 6))
            _set_all(layer, 81)
        if quantize:
            layer.quantize(quantize)
        layer.dtype_policy = policy
        if not build_first:
            layer.build((None, 6))
        out = {"policy": [layer.dtype_policy.name, layer.compute_dtype, layer.variable_dtype,
                          layer.quantization_mode], "weights": _weights(layer)}
        if not quantize:         # an int8 layer set to int4 keeps int8 weights; no call
            y = layer(x)
            out["output"] = [str(y.dtype.name), _values(y)]
        return out

    cases = {name: dense(name) for name in ("mixed_float16", "bfloat16", "int8_from_float32",
                                            "int4_from_float32", "int4/2_from_float32")}
    cases["policy_object"] = dense(keras.dtype_policies.DTypePolicy("mixed_bfloat16"))
    cases["unbuilt_int8"] = dense("int8_from_float32", build_first=False)["weights"]
    cases["quantized_again"] = dense("int4_from_float32", quantize="int8")
    cases["lora_int8"] = dense("int8_from_float32", lora=2)
    layer = keras.layers.Embedding(5, 3, name="embedding")
    layer.build()
    _set_all(layer, 82)
    layer.dtype_policy = "int8_from_float32"
    cases["embedding_int8"] = {"weights": _weights(layer),
                               "output": _values(layer(np.array([[0, 4, 2]], "int32")))}
    cases["error"] = error_text(lambda: dense("int8"))
    return cases


def _store_cases(keras, tf):
    """`save_own_variables` / `load_own_variables` with a dict store."""
    def dense(lora=None, build=True):
        layer = keras.layers.Dense(4, name="dense", lora_rank=lora)
        if build:
            layer.build((None, 5))
            _set_all(layer, 100)
        return layer

    def saved(layer):
        store = {}
        layer.save_own_variables(store)
        return store

    def stored(store):
        return {k: [list(np.asarray(v).shape), _values(v)] for k, v in store.items()}

    cases = {"plain": stored(saved(dense())), "lora": stored(saved(dense(2)))}
    for name, target in (("lora_into_lora", dense(2)), ("lora_into_plain", dense())):
        target.load_own_variables(saved(dense(2)))
        cases[name] = _weights(target)
    embedding = keras.layers.Embedding(4, 3, lora_rank=1, name="embedding")
    embedding.build()
    _set_all(embedding, 101)
    cases["embedding"] = stored(saved(embedding))
    cases["too_few"] = error_text(lambda: dense().load_own_variables({"0": np.zeros((5, 4))}))
    cases["unbuilt"] = error_text(lambda: dense(build=False).load_own_variables(
        {"0": np.zeros((5, 4)), "1": np.zeros(4)}))
    return cases


def _model(keras, lora=True):
    inputs = keras.Input((5,))
    hidden = keras.layers.Dense(4, activation="tanh", name="hidden",
                                lora_rank=2 if lora else None)(inputs)
    out = keras.layers.Dense(1, name="out")(hidden)
    return keras.Model(inputs, out)


def _fit_case(keras, tf):
    model = _model(keras)
    model.set_weights([_fill(w.shape, 40 + i) for i, w in enumerate(model.get_weights())])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    x, y = _fill((8, 5), 50, 1.0), _fill((8, 1), 51, 1.0)
    history = model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    return {"losses": [round(float(v), 6) for v in history.history["loss"]],
            "weights": [_values(w) for w in model.get_weights()],
            "order": _names(model.weights), "trainable": _names(model.trainable_weights)}


def _seeded_fit_case(keras, tf):
    """A fit of two epochs from seeded initializers (the LoRA pair's too)."""
    init = keras.initializers
    inputs = keras.Input((4,))
    layer = keras.layers.Dense(3, kernel_initializer=init.GlorotUniform(seed=2), name="dense")
    model = keras.Model(inputs, layer(inputs))
    layer.enable_lora(2, lora_alpha=4, a_initializer=init.HeUniform(seed=3),
                      b_initializer=init.RandomNormal(seed=4))
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse")
    x, y = _fill((6, 4), 52, 1.0), _fill((6, 3), 53, 1.0)
    history = model.fit(x, y, epochs=2, batch_size=3, shuffle=False, verbose=0)
    return {"losses": [round(float(v), 6) for v in history.history["loss"]],
            "weights": _weights(layer), "output": _values(model(x))}


def _files_case(keras, tf, tmp):
    """Save a LoRA model (.keras and .weights.h5) and load it into fresh ones."""
    model = _model(keras)
    model.set_weights([_fill(w.shape, 60 + i) for i, w in enumerate(model.get_weights())])
    x = _fill((3, 5), 61, 1.0)
    out = {"output": _values(model(x))}
    path = os.path.join(tmp, "lora.keras")
    model.save(path)
    loaded = keras.models.load_model(path)
    out["loaded"] = [_weights(layer) for layer in loaded.layers[1:]]
    out["loaded_output"] = _values(loaded(x))
    path = os.path.join(tmp, "lora.weights.h5")
    model.save_weights(path)
    fresh = _model(keras)
    fresh.load_weights(path)
    out["weights_file"] = [_weights(layer) for layer in fresh.layers[1:]]
    plain = _model(keras, lora=False)
    plain.load_weights(path)
    out["into_plain"] = _values(plain(x))
    ids = np.array([[0, 1, 5], [4, 4, 2]], "int32")
    for mode in ("int8", "int4"):
        for kind, inputs in (("dense", x), ("einsum_dense", _fill((3, 2, 5), 62, 1.0)),
                             ("embedding", ids)):
            out[f"{kind}_{mode}"] = _quantized_file_case(keras, tmp, kind, mode, inputs)
    return out


def _hidden(keras, kind):
    if kind == "dense":
        return keras.Input((5,)), keras.layers.Dense(4, name="hidden")
    if kind == "einsum_dense":
        return keras.Input((2, 5)), keras.layers.EinsumDense(
            "abc,cd->abd", output_shape=(2, 4), bias_axes="d", name="hidden")
    return keras.Input((3,), dtype="int32"), keras.layers.Embedding(6, 4, name="hidden")


def _quantized_model(keras, kind, mode):
    inputs, layer = _hidden(keras, kind)
    model = keras.Model(inputs, layer(inputs))
    model.set_weights([_fill(w.shape, 90 + i) for i, w in enumerate(model.get_weights())])
    model.get_layer("hidden").quantize(mode)
    model.get_layer("hidden").enable_lora(2)
    return model


def _quantized_file_case(keras, tmp, kind, mode, x):
    """An int8 / int4 layer with LoRA saved (Keras requantizes the merged kernel)
    and loaded into the same model."""
    model = _quantized_model(keras, kind, mode)
    layer = model.get_layer("hidden")
    for i, v in enumerate(layer.weights):
        if "lora" in v.path:
            v.assign(_fill(tuple(v.shape), 95 + i, 0.3))
    path = os.path.join(tmp, f"{kind}_{mode}.weights.h5")
    model.save_weights(path)
    fresh = _quantized_model(keras, kind, mode)
    fresh.load_weights(path)
    return {"before": _values(model(x)), "weights": _weights(fresh.get_layer("hidden")),
            "after": _values(fresh(x))}


def _errors(keras, tmp):
    def dense(**kw):
        return keras.layers.Dense(2, **kw)

    def built(layer, shape=(None, 3)):
        layer.build(shape)
        return layer

    def twice():
        layer = built(dense(lora_rank=2))
        layer.enable_lora(2)

    def float8():
        layer = built(dense())
        layer.quantize("float8")
        layer.enable_lora(2)
        layer(np.ones((1, 3), "float32"))

    def float8_save():
        inputs = keras.Input((3,))
        layer = keras.layers.Dense(2, name="dense")
        model = keras.Model(inputs, layer(inputs))
        layer.quantize("float8")
        layer.enable_lora(1)
        model.save_weights(os.path.join(tmp, "float8.weights.h5"))

    return {
        "unbuilt": error_text(lambda: dense().enable_lora(2)),
        "twice": error_text(twice),
        "constraint": error_text(lambda: built(dense(kernel_constraint="non_neg")).enable_lora(1)),
        "embedding_constraint": error_text(
            lambda: built(keras.layers.Embedding(3, 2, embeddings_constraint="non_neg"),
                          None).enable_lora(1)),
        "embedding_unbuilt": error_text(lambda: keras.layers.Embedding(3, 2).enable_lora(1)),
        "einsum_unbuilt": error_text(
            lambda: keras.layers.EinsumDense("ab,bc->ac", 2).enable_lora(1)),
        "conv_unbuilt": error_text(lambda: keras.layers.Conv2D(2, 1).enable_lora(1)),
        "float8_call": error_text(float8),
        "float8_save": error_text(float8_save),
        "transpose": error_text(lambda: keras.layers.Conv2DTranspose(2, 1, lora_rank=1)),
        "transpose_method": error_text(lambda: keras.layers.Conv1DTranspose(2, 1).enable_lora),
        "transpose3d_method": error_text(lambda: keras.layers.Conv3DTranspose(2, 1).enable_lora),
        "separable": error_text(lambda: keras.layers.SeparableConv2D(2, 1, lora_rank=1)),
    }


def run_cases(keras, tf, tmp):
    return {"dense": _dense_cases(keras, tf), "einsum_dense": _einsum_cases(keras, tf),
            "embedding": _embedding_cases(keras, tf), "conv": _conv_cases(keras, tf),
            "quantized": _quantized_cases(keras, tf), "fit": _fit_case(keras, tf),
            "seeded_fit": _seeded_fit_case(keras, tf), "more": _more_cases(keras, tf),
            "files": _files_case(keras, tf, tmp), "errors": _errors(keras, tmp),
            "dtype_policy_setter": _setter_cases(keras, tf), "store": _store_cases(keras, tf)}


def save_model(keras):
    """The LoRA model the test loads from a Keras-written .keras file, and its input."""
    model = _model(keras)
    model.set_weights([_fill(w.shape, 70 + i) for i, w in enumerate(model.get_weights())])
    model.save(MODEL_FILE)
    return model, _fill((3, 5), 71, 1.0)


def main():
    import tempfile

    import tensorflow as tf

    def run(keras):
        with tempfile.TemporaryDirectory() as tmp:
            cases = run_cases(keras, tf, tmp)
        model, x = save_model(keras)
        cases["keras_file_output"] = _values(model(x))
        return cases
    return record(OUT, run)


if __name__ == "__main__":
    sys.exit(main())
