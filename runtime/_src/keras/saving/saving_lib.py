"""`model.save("m.keras")` and `load_model("m.keras")`: Keras 3's zip layout.

    model.save("m.keras")
    model = tf.keras.models.load_model("m.keras")          # in any process
    model = load_model("m.keras", custom_objects={"MyLayer": MyLayer})

The file is a zip archive, as Keras 3's:
    metadata.json       {"keras_version": ..., "date_saved": ...}
    config.json         the model's serialized config (Keras 3's layout:
                        module, class_name, config, registered_name,
                        build_config, compile_config)
    model.weights.h5    the weights as HDF5 datasets at Keras 3's paths
                        ("layers/dense/vars/0", ...), written and read
                        without h5py (saving/hdf5_writer.py, saving/hdf5.py,
                        saving/keras_weights_file.py)

so Keras 3 loads the files we write and we load the files it writes.
Files written before by runtime.keras hold `model.weights.npz` (the weights
in `model.weights` order) and still load. Loading runs no code from the file
and unpickles nothing: classes are looked up by name (built-in layers,
`register_keras_serializable`, `custom_objects`); a Lambda's function must
be a named, registered one. A compiled model is compiled again from
`compile_config`, and its optimizer's state is read back as Keras 3 does.
"""

import datetime
import io
import json
import os
import tempfile
import zipfile

import numpy as np

from runtime._src.keras.saving import (keras_weights_file, weights_file as saving,
                                       serialization_lib as serialization)

__all__ = ["save_model", "load_model", "model_from_json", "clone_model", "FORMAT_VERSION",
           "SavingMixin", "save_weights", "load_weights"]

FORMAT_VERSION = "3.0 (runtime.keras)"
_CONFIG, _METADATA, _WEIGHTS = "config.json", "metadata.json", "model.weights.npz"
_KERAS_WEIGHTS = "model.weights.h5"


def _check_extension(filepath):
    filepath = os.fspath(filepath)
    if filepath.endswith((".h5", ".hdf5")):
        raise ValueError(
            "runtime.keras does not write or read the legacy HDF5 model format (`.h5`); "
            f"save with the `.keras` extension. Received: filepath={filepath}")
    if not filepath.endswith(".keras"):
        raise ValueError("Invalid filepath extension for saving. Please add either a "
                         "`.keras` extension for the native Keras format (recommended) or a "
                         "`.h5` extension. Use `model.export(filepath)` if you want to export "
                         f"a SavedModel for use with TFLite/TFServing/etc. "
                         f"Received: filepath={filepath}.")
    return filepath


def _json_default(value):
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"model.save: cannot write {value!r} ({type(value).__name__}) in the "
                    "config; give it a get_config() of plain values")


def model_config(model):
    """The dict written as config.json (with compile_config when compiled)."""
    config = serialization.serialize_keras_object(model)
    compile_config = model.get_compile_config() if hasattr(model, "get_compile_config") \
        else None
    if compile_config is not None:
        config["compile_config"] = compile_config
    return config


def save_model(model, filepath, overwrite=True):
    """Write `model` (architecture, weights, compile arguments) to a `.keras` file."""
    filepath = _check_extension(filepath)
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"model.save: {filepath} exists and overwrite=False")
    config_text = json.dumps(model_config(model), default=_json_default)
    metadata = {"keras_version": FORMAT_VERSION,
                "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")}
    weights = keras_weights_file.keras_weights_bytes(model)
    tmp = filepath + ".tmp"
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr(_METADATA, json.dumps(metadata))
        z.writestr(_CONFIG, config_text)
        z.writestr(_KERAS_WEIGHTS, weights)
    os.replace(tmp, filepath)


def _model_from_config(config, custom_objects):
    with serialization.custom_object_scope(custom_objects or {}):
        model = serialization.deserialize_keras_object(
            {k: v for k, v in config.items() if k != "compile_config"}, custom_objects,
            module="keras.models")
    return model


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """The model saved in a `.keras` file, with its weights (and compiled as
    it was, when `compile`)."""
    filepath = os.fspath(filepath)
    if filepath.endswith((".h5", ".hdf5")):
        _check_extension(filepath)
    if not zipfile.is_zipfile(filepath):
        raise ValueError(f"File format not supported: filepath={filepath}. runtime.keras "
                         "reads `.keras` zip files (model.save('m.keras')).")
    with zipfile.ZipFile(filepath) as z:
        names = z.namelist()
        config = json.loads(z.read(_CONFIG))
        weights = z.read(_WEIGHTS) if _WEIGHTS in names else None
    with zipfile.ZipFile(filepath) as z:
        keras_weights = z.read(_KERAS_WEIGHTS) if weights is None and \
            _KERAS_WEIGHTS in names else None
    model = _model_from_config(config, custom_objects)
    compile_config = config.get("compile_config")
    if compile and compile_config and hasattr(model, "compile_from_config"):
        with serialization.custom_object_scope(custom_objects or {}):
            model.compile_from_config(compile_config)
    if weights is not None:
        with np.load(io.BytesIO(weights), allow_pickle=False) as data:
            saving.assign_weights(model, data, filepath)
    elif keras_weights is not None:        # and the optimizer's state, once compiled
        keras_weights_file.assign_keras_weights(model, keras_weights, filepath)
    if any(n.startswith("assets/") for n in names):
        _load_assets(model, filepath)
    return model


def _load_assets(model, filepath):
    """Each layer's files under `assets/<its path>/` (a Keras 3 file: an adapted
    vocabulary) given to its `load_assets(directory)`, as Keras loads them."""
    with zipfile.ZipFile(filepath) as z, tempfile.TemporaryDirectory() as tmp:
        names = z.namelist()
        for layer, path in keras_weights_file.keras_layer_paths(model):
            load = getattr(layer, "load_assets", None)
            prefix = f"assets/{path}/"
            own = [n for n in names if n.startswith(prefix) and "/" not in n[len(prefix):]]
            if load is None or not own:
                continue
            directory = os.path.join(tmp, path)
            os.makedirs(directory, exist_ok=True)
            for name in own:
                with open(os.path.join(directory, name[len(prefix):]), "wb") as f:
                    f.write(z.read(name))
            load(directory)


def model_from_json(json_string, custom_objects=None):
    """A new model (fresh weights) from `model.to_json()`."""
    return _model_from_config(json.loads(json_string), custom_objects)


def clone_model(model, input_tensors=None, clone_function=None, call_function=None,
                recursive=False, **kwargs):
    """A new model of the same architecture with new weights (Keras's
    `clone_model` with its defaults), rebuilt from the model's config."""
    if input_tensors is not None or clone_function is not None or call_function is not None:
        raise TypeError("clone_model: input_tensors, clone_function and call_function are not "
                        "supported by runtime.keras")
    return _model_from_config(serialization.serialize_keras_object(model), None)


class SavingMixin:
    """`Model.save`, `save_weights` and `load_weights`."""

    def save_weights(self, filepath, overwrite=True):
        """Write every weight to `filepath`: `.weights.h5` (Keras 3's format) or
        `.weights.npz` (runtime.keras's)."""
        saving.save_weights(self, filepath, overwrite)

    def load_weights(self, filepath, skip_mismatch=False, **kwargs):
        """Read weights back (`.weights.h5`, `.weights.npz` or a `.keras` file)."""
        if skip_mismatch:
            raise TypeError("load_weights: skip_mismatch is not supported by runtime.keras")
        saving.load_weights(self, filepath)

    def save(self, filepath, overwrite=True, **kwargs):
        """Write the model to a `.keras` file; `tf.keras.models.load_model`
        reads it back (here or in Keras 3)."""
        save_model(self, filepath, overwrite)


def save_weights(model, filepath, overwrite=True, max_shard_size=None, **kwargs):
    """`keras.saving.save_weights(model, filepath)`: `model.save_weights(filepath)`
    (`.weights.h5`, Keras 3's format, or `.weights.npz`). Sharding is not
    implemented: `max_shard_size` must stay None."""
    if max_shard_size is not None or kwargs:
        given = "max_shard_size" if max_shard_size is not None else sorted(kwargs)[0]
        raise TypeError(f"save_weights: argument {given!r} is not supported by runtime.keras "
                        "(weights are written to one file)")
    model.save_weights(filepath, overwrite=overwrite)


def load_weights(model, filepath, skip_mismatch=False, **kwargs):
    """`keras.saving.load_weights(model, filepath)`: `model.load_weights(filepath)`."""
    model.load_weights(filepath, skip_mismatch=skip_mismatch, **kwargs)
