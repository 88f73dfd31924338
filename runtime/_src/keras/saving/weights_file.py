"""`Model.save_weights` / `load_weights`: our `.weights.npz` and Keras 3's `.weights.h5`.

    model.save_weights("ckpt/model.weights.npz")    # every weight, in `model.weights` order
    model.load_weights("ckpt/model.weights.npz")    # same architecture: same values
    model.save_weights("ckpt/model.weights.h5")     # Keras 3's file (Keras loads it)

The file is a numpy `.npz` archive: array "0000" is `model.weights[0]` and so
on, and "names" lists the weights' paths (read back only to explain a
mismatch). A `.weights.h5` path is Keras 3's own format, HDF5 datasets at
Keras's paths (runtime/_src/keras/saving/keras_weights_file.py), which Keras
loads too; `load_weights` also reads the weights of a `.keras` file. A whole
model is saved with `model.save("m.keras")` (runtime/_src/keras/saving/saving_lib.py).
"""

import io
import os
import zipfile

import numpy as np

from runtime._src.keras.saving import keras_weights_file

__all__ = ["WEIGHTS_SUFFIX", "KERAS_WEIGHTS_SUFFIX", "check_weights_path", "load_weights",
           "save_weights", "weights_arrays", "assign_weights"]

WEIGHTS_SUFFIX = ".weights.npz"
KERAS_WEIGHTS_SUFFIX = ".weights.h5"


def check_weights_path(filepath, what="filename"):
    """`filepath` as a string; a ValueError unless it ends in `.weights.npz`
    (ours) or `.weights.h5` (Keras 3's)."""
    filepath = os.fspath(filepath)
    if not filepath.endswith((WEIGHTS_SUFFIX, KERAS_WEIGHTS_SUFFIX)):
        raise ValueError(
            f"The {what} must end in `{KERAS_WEIGHTS_SUFFIX}` (Keras 3's weights format) or "
            f"`{WEIGHTS_SUFFIX}` (runtime.keras's). Received: filepath={filepath}")
    return filepath


def weights_arrays(model):
    """{"0000": first weight, ..., "names": their paths} for an `.npz` archive."""
    arrays = {f"{i:04d}": np.asarray(w.numpy()) for i, w in enumerate(model.weights)}
    arrays["names"] = np.array([getattr(w, "path", w.name) for w in model.weights], dtype=str)
    return arrays


def save_weights(model, filepath, overwrite=True):
    """Write `model.weights` to `filepath`: `.weights.h5` (Keras 3's layout,
    HDF5) or `.weights.npz` (ours: arrays in `model.weights` order)."""
    filepath = check_weights_path(filepath)
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"save_weights: {filepath} exists and overwrite=False")
    if filepath.endswith(KERAS_WEIGHTS_SUFFIX):
        tmp = filepath + ".tmp"
        with open(tmp, "wb") as f:
            f.write(keras_weights_file.keras_weights_bytes(model))
    else:
        tmp = filepath[:-len(".npz")] + ".tmp.npz"
        np.savez(tmp, **weights_arrays(model))
    os.replace(tmp, filepath)


def assign_weights(model, data, where):
    """Assign the arrays of an opened `.npz` (`weights_arrays`'s layout) to the model."""
    names = [str(n) for n in data["names"]] if "names" in data.files else []
    values = [data[f"{i:04d}"] for i in range(len(names))]
    weights = model.weights
    if len(values) != len(weights):
        raise ValueError(f"load_weights: {where} holds {len(values)} weights but the "
                         f"model '{model.name}' has {len(weights)} (saved: {names})")
    model.set_weights(values)


def load_weights(model, filepath):
    """Assign the weights saved in `filepath` to the model: our `.weights.npz`
    (in `model.weights` order), a Keras 3 `.weights.h5`, or the weights of a
    `.keras` file."""
    filepath = os.fspath(filepath)
    if filepath.endswith(".weights.h5"):
        with open(filepath, "rb") as f:
            keras_weights_file.assign_keras_weights(model, f.read(), filepath)
        return
    if filepath.endswith(".keras"):
        with zipfile.ZipFile(filepath) as z:
            names = z.namelist()
            if "model.weights.npz" in names:
                with np.load(io.BytesIO(z.read("model.weights.npz")),
                             allow_pickle=False) as data:
                    assign_weights(model, data, filepath)
                return
            keras_weights_file.assign_keras_weights(model, z.read("model.weights.h5"),
                                                    filepath)
        return
    filepath = check_weights_path(filepath)
    with np.load(filepath, allow_pickle=False) as data:
        assign_weights(model, data, filepath)
