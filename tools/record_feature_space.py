"""Record Keras 3.15's results (on TensorFlow 2.21) for the FeatureSpace cases
of tests/keras/utils/test_feature_space.py.

    $BENCH_TF_PYTHON tools/record_feature_space.py   # writes tests/data/feature_space_keras315.json

`run_cases(keras, tf)` adapts FeatureSpaces of every feature kind (with
crosses, concatenated and as a dict) on one small table and returns what
they give for a batch, for one example, inside `Dataset.map`, and the
encoded features' shapes, with the messages of Keras's errors.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from keras_recording import error_text, record  # noqa: E402 - after the path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "feature_space_keras315.json")


def table():
    rng = np.random.RandomState(3)
    n = 12
    return {
        "age": rng.uniform(18, 80, size=n).round(1).astype("float32"),
        "income": rng.uniform(0, 10, size=n).round(2).astype("float32"),
        "score": rng.normal(size=n).round(3).astype("float32"),
        "height": rng.uniform(1.5, 2.0, size=n).round(2).astype("float32"),
        "rooms": rng.randint(1, 6, size=n).astype("int32"),
        "city": np.array(["paris", "rome", "oslo", "rome", "lima", "paris", "oslo",
                          "rome", "paris", "kyiv", "rome", "lima"]),
        "tag": np.array(["a", "b", "c", "a", "d", "e", "a", "b", "f", "g", "a", "c"]),
        "zip": rng.randint(100, 110, size=n).astype("int32"),
    }


def _spaces(keras):
    FS = keras.utils.FeatureSpace
    features = {
        "age": FS.float_discretized(num_bins=4),
        "income": "float_normalized",
        "score": "float",
        "height": FS.float_rescaled(scale=2.0, offset=-3.0),
        "rooms": "integer_categorical",
        "city": "string_categorical",
        "tag": FS.string_hashed(num_bins=5),
        "zip": FS.integer_hashed(num_bins=4),
    }
    return {
        "concat": dict(features=features, crosses=[FS.cross(("city", "rooms"), 8)]),
        "dict": dict(features=dict(features), output_mode="dict",
                     crosses=[("city", "rooms")], crossing_dim=6),
        "ints": dict(features={"rooms": FS.integer_categorical(output_mode="int"),
                               "city": FS.string_categorical(max_tokens=3,
                                                             output_mode="int")},
                     output_mode="dict"),
    }


def _plain(value):
    value = np.asarray(value)
    if value.dtype.kind in "SUO":
        return [v.decode() if isinstance(v, bytes) else str(v) for v in value.ravel()]
    return [round(float(v), 5) for v in value.ravel()]


def _result(out):
    if isinstance(out, dict):
        return {k: [list(np.shape(v)), str(getattr(v.dtype, "name", v.dtype)), _plain(v)]
                for k, v in sorted(out.items())}
    return [list(np.shape(out)), str(getattr(out.dtype, "name", out.dtype)), _plain(out)]



def run_cases(keras, tf):
    FS = keras.utils.FeatureSpace
    data = table()
    out = {}
    for name, kwargs in _spaces(keras).items():
        space = FS(**kwargs)
        own = {k: v for k, v in data.items() if k in kwargs["features"]}
        space.adapt(tf.data.Dataset.from_tensor_slices(data))
        batch = {k: v[:4] for k, v in own.items()}
        one = {k: v[5] for k, v in own.items()}
        mapped = tf.data.Dataset.from_tensor_slices(own).batch(6).map(space)
        encoded = space.get_encoded_features()
        out[name] = {
            "batch": _result(space(batch)),
            "one": _result(space(one)),
            "mapped": _result(next(iter(mapped))),
            "inputs": sorted(space.get_inputs()),
            "encoded": (sorted((k, list(v.shape)) for k, v in encoded.items())
                        if isinstance(encoded, dict) else list(encoded.shape)),
        }
    space = FS(features={"a": "float", "b": "string_categorical"})
    out["errors"] = {
        "empty": error_text(lambda: FS(features={})),
        "bad_kind": error_text(lambda: FS(features={"a": "floaty"})),
        "bad_output_mode": error_text(lambda: FS(features={"a": "float"}, output_mode="list")),
        "cross_unknown": error_text(lambda: FS(features={"a": "float"}, crosses=[("a", "z")])),
        "cross_mode": error_text(lambda: FS.cross(("a", "b"), 4, output_mode="float")),
        "feature_mode": error_text(lambda: FS.feature("float32", None, "multi")),
        "not_adapted": error_text(lambda: space({"a": [1.0], "b": ["x"]})),
        "adapt_list": error_text(lambda: space.adapt([1, 2])),
        "call_list": error_text(lambda: FS(features={"a": "float"})([1.0])),
        "concat_strings": error_text(lambda: FS(features={"b": FS.string_categorical(
            output_mode="int")}).adapt({"b": ["x", "y"]})),
    }
    cfg = FS(**_spaces(keras)["concat"]).get_config()
    out["config"] = {"keys": sorted(cfg), "features": sorted(cfg["features"]),
                     "crosses": repr(cfg["crosses"])}
    return out


def main():
    import tensorflow as tf
    return record(OUT, lambda keras: run_cases(keras, tf))


if __name__ == "__main__":
    sys.exit(main())
