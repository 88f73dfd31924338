"""`Model.save_weights` / `load_weights` in runtime.keras's own weights file,
and `Model.save`'s error.

    model.save_weights("ckpt/model.weights.npz")    # every weight, in `model.weights` order
    model.load_weights("ckpt/model.weights.npz")    # same architecture: same values

The file is a numpy `.npz` archive: array "0000" is `model.weights[0]` and so
on, and "names" lists the weights' names (read back only to explain a
mismatch). Keras's own formats (`.weights.h5`, `.keras`, legacy `.h5`) are
not supported: those paths are a ValueError that says what to use instead.
A whole model is exported with `tf.saved_model.save(model, export_dir)`.
"""

import os

import numpy as np

__all__ = ["WEIGHTS_SUFFIX", "check_weights_path", "load_weights", "save_model",
           "save_weights"]

WEIGHTS_SUFFIX = ".weights.npz"


def check_weights_path(filepath, what="filename"):
    """`filepath` as a string; a ValueError unless it ends in `.weights.npz`."""
    filepath = os.fspath(filepath)
    if not filepath.endswith(WEIGHTS_SUFFIX):
        keras_format = filepath.endswith((".h5", ".keras"))
        raise ValueError(
            f"The {what} must end in `{WEIGHTS_SUFFIX}` (runtime.keras's weights format"
            + ("; Keras's `.weights.h5`, `.keras` and `.h5` files are not supported"
               if keras_format else "") + f"). Received: filepath={filepath}")
    return filepath


def save_weights(model, filepath, overwrite=True):
    """Write `model.weights` to `filepath` (`.weights.npz`)."""
    filepath = check_weights_path(filepath)
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"save_weights: {filepath} exists and overwrite=False")
    arrays = {f"{i:04d}": np.asarray(w.numpy()) for i, w in enumerate(model.weights)}
    arrays["names"] = np.array([w.name for w in model.weights], dtype=str)
    tmp = filepath[:-len(".npz")] + ".tmp.npz"
    np.savez(tmp, **arrays)
    os.replace(tmp, filepath)


def load_weights(model, filepath):
    """Assign the weights saved in `filepath` to `model.weights`, in order."""
    filepath = check_weights_path(filepath)
    with np.load(filepath, allow_pickle=False) as data:
        names = [str(n) for n in data["names"]] if "names" in data.files else []
        values = [data[f"{i:04d}"] for i in range(len(names))]
    weights = model.weights
    if len(values) != len(weights):
        raise ValueError(f"load_weights: {filepath} holds {len(values)} weights but the "
                         f"model '{model.name}' has {len(weights)} (saved: {names})")
    model.set_weights(values)


def save_model(model, filepath):
    """`model.save`: not supported; the error says what to use."""
    raise ValueError(
        "runtime.keras cannot save a whole model to a Keras file (`.keras`, `.h5`). Use "
        "`tf.saved_model.save(model, export_dir)` (loaded back with "
        f"`tf.saved_model.load`), or `model.save_weights(path{WEIGHTS_SUFFIX})` for the "
        f"weights. Received: filepath={os.fspath(filepath)}")
