"""Record Keras 3.15's results (on TensorFlow 2.21) for the quantization cases
of tests/keras/quantizers/test_quantize.py.

    $BENCH_TF_PYTHON tools/record_keras_quantize.py
    # writes tests/data/keras_quantize_keras315.json and keras_quantized_keras315.keras

`run_cases(keras, tf)` quantizes Dense and Embedding layers with fixed weights
("int8", "int4" in groups of 128 and of 2, per channel, and with explicit
configs) and returns their variables (names, dtypes, shapes, values), outputs
eagerly and from `predict`, input gradients, a short fit's bias, configs, the
quantized policies and `quantize_and_dequantize`'s values, with the messages
of the errors Keras raises; the test runs it on `runtime.keras` and compares.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from keras_recording import error_text, record  # noqa: E402 - after the path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "keras_quantize_keras315.json")
MODEL_FILE = os.path.join(ROOT, "tests", "data", "keras_quantized_keras315.keras")


def _inputs():
    rng = np.random.RandomState(0)
    x = rng.normal(size=(3, 5)).astype("float32")
    x[0] = 0.0                                  # an all-zero row: its scale is 127 / 1e-7
    x[1, 2] = x[1, 4] = 0.5                     # ties for the abs max
    return x


def _kernel(rows, cols, seed):
    rng = np.random.RandomState(seed)
    return rng.normal(scale=0.7, size=(rows, cols)).astype("float32")


def _values(v):
    a = np.asarray(v)
    if a.dtype.kind in "iu":
        return [int(i) for i in a.ravel()]
    return [round(float(i), 6) for i in a.ravel()]


def _weights(layer):
    return [[v.path.split("/")[-1], str(np.asarray(v).dtype), list(np.asarray(v).shape),
             bool(v.trainable), _values(v)] for v in layer.weights]


def _dense(keras, units=4, activation=None, dtype=None):
    layer = keras.layers.Dense(units, activation=activation, name="dense", dtype=dtype)
    layer.build((None, 5))
    layer.set_weights([_kernel(5, units, 1), np.linspace(-0.2, 0.3, units).astype("float32")])
    return layer


def _embedding(keras):
    layer = keras.layers.Embedding(6, 5, name="embedding")
    layer.build((None,))
    layer.set_weights([_kernel(6, 5, 2)])
    return layer


def _configs(keras):
    Q = keras.quantizers
    return {
        "int8": "int8", "int4": "int4",
        "int4_block2": Q.Int4QuantizationConfig(block_size=2),
        "int4_per_channel": Q.Int4QuantizationConfig(block_size=None),
        "int8_no_activation": Q.Int8QuantizationConfig(
            weight_quantizer=Q.AbsMaxQuantizer(axis=0), activation_quantizer=None),
        "int4_custom": Q.Int4QuantizationConfig(
            weight_quantizer=Q.AbsMaxQuantizer(axis=0, value_range=(-8, 7)),
            activation_quantizer=Q.AbsMaxQuantizer(axis=-1), block_size=-1),
    }


def _input_gradient(tf, layer, x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(y * tf.constant(np.linspace(-1, 1, y.shape[-1]), y.dtype))
    return _values(tape.gradient(loss, x))


def _dense_case(keras, tf, config, activation=None, dtype=None):
    x = _inputs()
    layer = _dense(keras, activation=activation, dtype=dtype)
    layer.quantize(config) if isinstance(config, str) else layer.quantize(config=config)
    config_dict = layer.get_config()
    rebuilt = keras.layers.Dense.from_config(config_dict)
    rebuilt.build((None, 5))
    return {"weights": _weights(layer), "policy": repr(layer.dtype_policy),
            "mode": layer.quantization_mode, "dtype": layer.dtype,
            "compute_dtype": layer.compute_dtype,
            "kernel": [str(np.asarray(layer.kernel).dtype), _values(layer.kernel)],
            "call": _values(layer(x)), "call_rank3": _values(layer(x.reshape(3, 1, 5))),
            "input_gradient": _input_gradient(tf, layer, x),
            "config_dtype": repr(config_dict["dtype"]),
            "config_quantization": repr(config_dict["quantization_config"]),
            "rebuilt": [w[:4] for w in _weights(rebuilt)],
            "rebuilt_policy": repr(rebuilt.dtype_policy)}


_EQUATIONS = {"dense_like": ("ab,bc->ac", 4, "c", (3, 5)),
              "heads": ("abc,cde->abde", (2, 3, 4), "de", (3, 2, 5)),
              "ellipsis": ("...b,bc->...c", 3, None, (3, 2, 5)),
              "two_reduced": ("abcd,cde->abe", (2, 4), "e", (3, 2, 3, 5))}


def _einsum_case(keras, tf, equation, config):
    equation, output_shape, bias_axes, shape = _EQUATIONS[equation]
    layer = keras.layers.EinsumDense(equation, output_shape=output_shape,
                                     bias_axes=bias_axes, name="einsum_dense")
    layer.build((None,) + shape[1:])
    rng = np.random.RandomState(5)
    layer.set_weights([rng.normal(scale=0.7, size=w.shape).astype("float32")
                       for w in layer.get_weights()])
    x = rng.normal(size=shape).astype("float32")
    error = error_text(lambda: layer.quantize(config) if isinstance(config, str) else
                       layer.quantize(config=config))
    if error != "no error":         # Keras 3.15 cannot quantize a "..." equation
        return {"error": error}
    config_dict = layer.get_config()
    rebuilt = keras.layers.EinsumDense.from_config(config_dict)
    rebuilt.build((None,) + shape[1:])
    return {"weights": _weights(layer), "policy": repr(layer.dtype_policy),
            "kernel": [list(np.asarray(layer.kernel).shape), _values(layer.kernel)],
            "call": _values(layer(x)), "input_gradient": _input_gradient(tf, layer, x),
            "rebuilt": [w[:4] for w in _weights(rebuilt)]}


def _embedding_case(keras, config):
    layer = _embedding(keras)
    layer.quantize(config) if isinstance(config, str) else layer.quantize(config=config)
    ids = np.array([[0, 5, 3], [2, 2, 1]])
    config_dict = layer.get_config()
    rebuilt = keras.layers.Embedding.from_config(config_dict)
    rebuilt.build((None,))
    return {"weights": _weights(layer), "policy": repr(layer.dtype_policy),
            "embeddings": _values(layer.embeddings), "call": _values(layer(ids)),
            "call_float_ids": _values(layer(ids.astype("float32"))),
            "config_dtype": repr(config_dict["dtype"]),
            "rebuilt": [w[:4] for w in _weights(rebuilt)]}


def _reversible_case(keras, tie, config):
    layer = keras.layers.ReversibleEmbedding(6, 5, tie_weights=tie, name="reversible")
    layer.build((None,))
    rng = np.random.RandomState(6)
    layer.set_weights([rng.normal(size=w.shape).astype("float32") for w in layer.get_weights()])
    x = rng.normal(size=(2, 5)).astype("float32")
    x[1] = 0.0
    layer.quantize(config) if isinstance(config, str) else layer.quantize(config=config)
    rebuilt = keras.layers.ReversibleEmbedding.from_config(layer.get_config())
    rebuilt.build((None,))
    return {"weights": _weights(layer), "policy": repr(layer.dtype_policy),
            "call": _values(layer(np.array([[1, 5], [0, 2]]))),
            "reverse": _values(layer(x, reverse=True)),
            "rebuilt": [w[:4] for w in _weights(rebuilt)]}


def _model(keras):
    model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(4, name="hidden"),
                              keras.layers.Dropout(0.0, name="drop"),
                              keras.layers.Dense(2, name="out")], name="mlp")
    model.set_weights([_kernel(5, 4, 3), np.full(4, 0.1, "float32"), _kernel(4, 2, 4),
                       np.zeros(2, "float32")])
    return model


def _model_cases(keras, tf):
    x = _inputs()
    y = np.linspace(-1, 1, 6).reshape(3, 2).astype("float32")
    model = _model(keras)
    model.quantize("int8")
    out = {"policies": [repr(layer.dtype_policy) for layer in model.layers],
           "predict": _values(model.predict(x, verbose=0)),
           "weights": [w[:4] for w in _weights(model)]}
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(x, y, batch_size=3, epochs=2, shuffle=False, verbose=0)
    out["fit_loss"] = [round(float(v), 5) for v in history.history["loss"]]
    out["fit_bias"] = _values(model.layers[-1].bias)
    filtered = _model(keras)
    filtered.quantize("int4", filters="out")
    out["filtered"] = [repr(layer.dtype_policy) for layer in filtered.layers]
    listed = _model(keras)
    listed.quantize(config=keras.quantizers.Int4QuantizationConfig(block_size=2),
                    filters=lambda layer: layer.name == "hidden")
    out["filtered_callable"] = [repr(layer.dtype_policy) for layer in listed.layers]
    return out


def _short(layer):
    """Weights with only the first 4 entries of each (the amax histories are 1024 long)."""
    return [w[:4] + [w[4][:4]] for w in _weights(layer)]


def _float8_cases(keras, tf):
    x = _inputs()
    layer = _dense(keras)
    layer.quantize(config=keras.quantizers.Float8QuantizationConfig())
    config_dict = layer.get_config()
    rebuilt = keras.layers.Dense.from_config(config_dict)
    rebuilt.build((None, 5))
    out = {"dense": {"weights": _short(layer), "policy": repr(layer.dtype_policy),
                     "call": _values(layer(x)), "config_dtype": repr(config_dict["dtype"]),
                     "config_quantization": repr(config_dict["quantization_config"]),
                     "rebuilt": [w[:4] for w in _weights(rebuilt)]}}
    model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(4, name="hidden"),
                              keras.layers.EinsumDense("ab,bc->ac", output_shape=2,
                                                       bias_axes="c", name="out")])
    rng = np.random.RandomState(8)
    model.set_weights([rng.normal(size=w.shape).astype("float32") for w in model.get_weights()])
    model.quantize("float8")
    y = rng.normal(size=(3, 2)).astype("float32")
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    history = model.fit(x, y, batch_size=1, epochs=2, shuffle=False, verbose=0)
    out["fit_loss"] = [round(float(v), 4) for v in history.history["loss"]]
    out["fit_weights"] = [_short(layer) for layer in model.layers]
    out["fit_predict"] = _values(model.predict(x, verbose=0))
    policy = keras.dtype_policies.get("float8_from_mixed_bfloat16")
    out["policy"] = [repr(policy), policy.amax_history_length, policy.compute_dtype,
                     repr(keras.dtype_policies.serialize(
                         keras.dtype_policies.QuantizedFloat8DTypePolicy(
                             "float8", "float32", amax_history_length=16)))]
    embedding = _embedding(keras)
    out["embedding_error"] = error_text(lambda: embedding.quantize("float8"))
    out["history_length_error"] = error_text(
        lambda: keras.dtype_policies.QuantizedFloat8DTypePolicy("float8", "float32", 1.5))
    return out


def _policies(keras):
    P = keras.dtype_policies
    S = P.serialize
    found = {}
    for name in ("int8_from_float32", "int4_from_float32", "int4/128_from_float32",
                 "int4/-1_from_mixed_bfloat16", "int4_from_mixed_float16"):
        p = P.get(name)
        found[name] = [repr(p), p.quantization_mode, p.compute_dtype, p.variable_dtype,
                       repr(S(p))]
    found["equal"] = [P.QuantizedDTypePolicy("int8", "float32") ==
                      P.get("int8_from_float32"),
                      P.QuantizedDTypePolicy("int4", "float32") ==
                      P.Int4DTypePolicy("int4/-1", "float32"),
                      P.Int4DTypePolicy("int4/8", "float32").block_size]
    found["round_trip"] = repr(P.deserialize(S(P.Int4DTypePolicy("int4/32", "bfloat16"))))
    Q = keras.quantizers
    found["configs"] = [repr(Q.serialize(Q.Int8QuantizationConfig())),
                        repr(Q.serialize(Q.Int4QuantizationConfig())),
                        repr(Q.deserialize(Q.serialize(Q.Int4QuantizationConfig(
                            block_size=16))).block_size),
                        Q.Int8QuantizationConfig().mode, Q.Int4QuantizationConfig().mode]
    return found


def _quantize_and_dequantize(keras):
    x = np.array([0.0, 1.3, -3.1, 500.0, -1e6, 0.011, 7.77], "float32")
    return {dtype: _values(keras.quantizers.quantize_and_dequantize(x, 2.0, dtype, "float32"))
            for dtype in ("float8_e4m3fn", "float8_e5m2")}


def _errors(keras):
    Q, P = keras.quantizers, keras.dtype_policies
    built = _dense(keras)
    twice = _dense(keras)
    twice.quantize("int8")
    conv = keras.layers.Conv2D(2, 3)
    conv.build((None, 5, 5, 1))
    half = _dense(keras, dtype="float16")
    return {
        "twice": error_text(lambda: twice.quantize("int4")),
        "unbuilt": error_text(lambda: keras.layers.Dense(2, name="d").quantize("int8")),
        "bad_mode": error_text(lambda: built.quantize("int3")),
        "no_mode": error_text(lambda: built.quantize()),
        "contradiction": error_text(lambda: built.quantize(
            "int8", config=Q.Int4QuantizationConfig())),
        "config_not_config": error_text(lambda: built.quantize("int8", config=3)),
        "conv": error_text(lambda: conv.quantize("int8")),
        "float16_int8": error_text(lambda: half.quantize("int8")),
        "block_size_zero": error_text(lambda: Q.Int4QuantizationConfig(block_size=0)),
        "custom_with_blocks": error_text(lambda: Q.Int4QuantizationConfig(
            weight_quantizer=Q.AbsMaxQuantizer(value_range=(-8, 7)))),
        "int4_range": error_text(lambda: Q.Int4QuantizationConfig(
            weight_quantizer=Q.AbsMaxQuantizer(), block_size=None)),
        "int8_dtype": error_text(lambda: Q.Int8QuantizationConfig(
            weight_quantizer=Q.Quantizer(output_dtype="int4"))),
        "base_mode": error_text(lambda: Q.QuantizationConfig().mode),
        "policy_mode": error_text(lambda: P.QuantizedDTypePolicy("int3", "float32")),
        "policy_float16": error_text(lambda: P.QuantizedDTypePolicy("int8", "float16")),
        "int4_policy_format": error_text(lambda: P.Int4DTypePolicy("int4", "float32")),
        "int4_policy_int": error_text(lambda: P.Int4DTypePolicy("int4/x", "float32")),
        "int4_policy_block": error_text(lambda: P.Int4DTypePolicy("int4/0", "float32")),
        "policy_no_source": error_text(lambda: P.get("int8_float32")),
        "model_kwargs": error_text(lambda: _model(keras).quantize("int8", foo=1)),
        "model_filters": error_text(lambda: _model(keras).quantize("int8", filters=3)),
    }


def run_cases(keras, tf):
    out = {"dense": {name: _dense_case(keras, tf, config)
                     for name, config in _configs(keras).items()},
           "embedding": {name: _embedding_case(keras, config)
                         for name, config in _configs(keras).items()
                         if name not in ("int8_no_activation", "int4_custom")}}
    configs = _configs(keras)
    out["reversible"] = {f"{'tied' if tie else 'untied'}_{name}": _reversible_case(
        keras, tie, configs[name]) for tie in (True, False)
        for name in ("int8", "int4", "int4_block2", "int4_per_channel")}
    configs["int8_no_activation"] = keras.quantizers.Int8QuantizationConfig(
        activation_quantizer=None)
    out["einsum_dense"] = {f"{eq}_{name}": _einsum_case(keras, tf, eq, config)
                           for eq in _EQUATIONS for name, config in configs.items()}
    out["dense"]["relu_int8"] = _dense_case(keras, tf, "int8", activation="relu")
    out["dense"]["bfloat16_int8"] = _dense_case(keras, tf, "int8", dtype="mixed_bfloat16")
    out["model"] = _model_cases(keras, tf)
    out["float8"] = _float8_cases(keras, tf)
    out["policies"] = _policies(keras)
    out["quantize_and_dequantize"] = _quantize_and_dequantize(keras)
    out["errors"] = _errors(keras)
    return out


def save_model(keras, path):
    """A quantized model (an untied ReversibleEmbedding and a Dense int4 in groups
    of 2, an int8 Dense, a float8 EinsumDense) saved as a .keras file, and the ids
    it is called on."""
    inputs = keras.Input((5,), dtype="int32")
    table = keras.layers.ReversibleEmbedding(6, 3, tie_weights=False, name="table")(inputs)
    flat = keras.layers.Flatten()(table)
    hidden = keras.layers.Dense(4, activation="relu", name="hidden")(flat)
    out = keras.layers.Dense(2, name="out")(hidden)
    out = keras.layers.EinsumDense("ab,bc->ac", output_shape=2, bias_axes="c",
                                   name="scaled")(out)
    model = keras.Model(inputs, out)
    rng = np.random.RandomState(7)
    model.set_weights([rng.normal(size=w.shape).astype("float32") for w in model.get_weights()])
    model.layers[1].quantize(config=keras.quantizers.Int4QuantizationConfig(block_size=2))
    model.get_layer("hidden").quantize("int8")
    model.get_layer("out").quantize(config=keras.quantizers.Int4QuantizationConfig(block_size=2))
    model.get_layer("scaled").quantize("float8")
    model.save(path)
    ids = np.array([[0, 1, 2, 3, 4], [5, 5, 0, 1, 3]], "int32")
    return model, ids


def main():
    import keras
    import tensorflow as tf
    model, ids = save_model(keras, MODEL_FILE)

    def run(keras):
        cases = run_cases(keras, tf)
        cases["saved_model_outputs"] = _values(model(ids))
        return cases
    return record(OUT, run)


if __name__ == "__main__":
    sys.exit(main())
