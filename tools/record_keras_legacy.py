"""Record Keras 3.15's results (on TensorFlow 2.21) for the cases of
tests/keras/legacy/test_legacy.py: `keras.optimizers.legacy` (every name
refuses to be built, as Keras 3 has no legacy optimizers) and the legacy
(Keras 2) serialization format of `keras.legacy.saving` /
`keras.utils.legacy`.

    $BENCH_TF_PYTHON tools/record_keras_legacy.py   # writes tests/data/keras_legacy_keras315.json

`run_cases(keras)` serializes layers, optimizers, losses, metrics,
initializers, functions and a user's class holding nested objects, turns
configs back into objects, and returns the dicts, what the objects turn
into, and the messages of the errors; the test runs it on `runtime.keras`.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from keras_recording import error_text, record  # noqa: E402 - after the path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "keras_legacy_keras315.json")
LEGACY_OPTIMIZERS = ["Adagrad", "Adam", "Ftrl", "Optimizer", "RMSprop", "SGD"]


def _plain(value):
    """A JSON-ready copy: tuples as lists, floats rounded to 7 places."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, float):
        return round(value, 7)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return f"<{type(value).__name__}>"


def _user_classes(keras):
    """A registered user class whose config holds objects as they are (the
    legacy format marks them "__passive_serialization__"), and a function."""
    def scaled(x):
        return x * 2.0

    class Holder:
        def __init__(self, inner, fn, size=3):
            self.inner, self.fn, self.size = inner, fn, size

        def get_config(self):
            return {"inner": self.inner, "fn": self.fn, "size": self.size}

        @classmethod
        def from_config(cls, config):
            return cls(**config)
    registered = keras.saving.register_keras_serializable(package="legacy_rec")
    return registered(Holder), scaled


def _objects(keras):
    return {
        "dense": keras.layers.Dense(4, activation="relu", name="d",
                                    kernel_regularizer=keras.regularizers.L2(0.1)),
        "adam": keras.optimizers.Adam(0.01, name="opt"),      # named: Keras numbers
        "sgd": keras.optimizers.SGD(0.5, momentum=0.9, nesterov=True, name="sgd"),  # unnamed ones
        "mse": keras.losses.MeanSquaredError(),
        "bce": keras.losses.BinaryCrossentropy(from_logits=True, label_smoothing=0.1),
        "auc": keras.metrics.AUC(name="auc"),
        "glorot": keras.initializers.GlorotUniform(seed=1),
        "l1l2": keras.regularizers.L1L2(l1=0.01, l2=0.02),
        "relu": keras.activations.relu,
        "mse_fn": keras.losses.mean_squared_error,
        "none": None,
    }


def _serialized(keras, s):
    out = {name: _plain(s(obj)) for name, obj in _objects(keras).items()}
    holder, scaled = _user_classes(keras)
    out["holder"] = _plain(s(holder(keras.layers.Dense(2, name="inner"), scaled)))
    for name, bad in [("int", 3), ("list", [1, 2]), ("class", keras.layers.Dense)]:
        out[f"error_{name}"] = error_text(lambda b=bad: s(b))
    return out


def _summary(obj):
    """What a deserialized object is: its class and config (a function: its name)."""
    if obj is None or isinstance(obj, (int, float, str)):
        return _plain(obj)
    if not hasattr(obj, "get_config"):
        return {"function": getattr(obj, "__name__", repr(obj))}
    return {"class": type(obj).__name__, "config": _plain(obj.get_config())}


def _deserialized(keras, s, d):
    L, O = keras.layers, keras.optimizers
    objects = _objects(keras)
    modules = {"Dense": L.Dense, "Adam": O.Adam, "SGD": O.SGD, "relu": keras.activations.relu,
               "MeanSquaredError": keras.losses.MeanSquaredError, "Zeros": keras.initializers.Zeros}
    out = {}
    for name in ["dense", "adam", "sgd", "mse"]:
        out[name] = _summary(d(s(objects[name]), module_objects=modules))
    out["dense_custom"] = _summary(d(s(objects["dense"]), custom_objects={"Dense": L.Dense}))
    out["relu"] = _summary(d(s(objects["relu"]), custom_objects=modules))
    out["zeros_by_name"] = _summary(d("Zeros", custom_objects=modules))
    # Keras 3.15 fails on a name not in custom_objects (it reads a module
    # attribute Keras 3 no longer has): recorded, not matched
    out["error_name_in_module_objects"] = error_text(lambda: d("Zeros", module_objects=modules))
    out["none"] = _summary(d(None))
    model = keras.Sequential([keras.Input((3,), name="inp"), L.Dense(2, name="d1")], name="seq")
    saved = s(model)
    back = d(saved, module_objects={"Sequential": keras.Sequential})
    out["sequential"] = {"saved": _plain(saved), "class": type(back).__name__,
                         "layers": [layer.name for layer in back.layers], "built": back.built}
    holder, scaled = _user_classes(keras)
    saved = s(holder(L.Dense(2, name="inner"), scaled))
    with keras.saving.custom_object_scope({"Dense": L.Dense}):
        back = d(saved, module_objects={}, custom_objects={"scaled": scaled})
    out["holder"] = {"inner": _summary(back.inner), "fn": back.fn.__name__, "size": back.size}
    bad = {"no_config": {"class_name": "Dense"}, "list": [1], "int": 3,
           "unknown_class": {"class_name": "Nope", "config": {}}}
    for name, value in bad.items():
        out[f"error_{name}"] = error_text(lambda v=value: d(v, module_objects=modules))
    out["error_printable"] = error_text(lambda: d(
        {"class_name": "Nope", "config": {}}, module_objects={}, printable_module_name="layer"))
    return out


def run_cases(keras):
    """Every case's result, keyed by case name."""
    legacy = keras.optimizers.legacy
    out = {"optimizers": {name: error_text(lambda n=name: getattr(legacy, n)(learning_rate=0.1))
                          for name in LEGACY_OPTIMIZERS}}
    out["optimizers_no_args"] = error_text(lambda: legacy.Adam())
    out["same_class"] = all(getattr(legacy, n) is legacy.Adam for n in LEGACY_OPTIMIZERS)
    for label, module in [("legacy_saving", keras.legacy.saving),
                          ("utils_legacy", keras.utils.legacy)]:
        s, d = module.serialize_keras_object, module.deserialize_keras_object
        out[label] = {"serialized": _serialized(keras, s), "deserialized": _deserialized(keras, s, d)}
    out["same_functions"] = (keras.legacy.saving.serialize_keras_object
                             is keras.utils.legacy.serialize_keras_object)
    return out


if __name__ == "__main__":
    sys.exit(record(OUT, run_cases))
