"""`tf.saved_model.Asset` and TF's saved-model constants.

An Asset names a file a model needs (a vocabulary, say). Saving an object
that holds one (as an attribute of a Module, at any depth) copies the file
into the export directory's `assets/` folder; the loaded object has an Asset
at the same attribute whose `asset_path` is the copy, and the saved
functions that read `asset_path` read the copy's path too:

    module.vocab = tf.saved_model.Asset("/data/vocab.txt")
    tf.saved_model.save(module, "/tmp/m")
    tf.saved_model.load("/tmp/m").vocab.asset_path    # b"/tmp/m/assets/vocab.txt"
"""

import os
import shutil

from runtime._src.core import dtypes
from runtime._src.core.tensor import Tensor, convert_to_tensor

__all__ = ["Asset", "copy_assets", "ASSETS_DIRECTORY", "ASSETS_KEY", "CLASSIFY_INPUTS",
           "CLASSIFY_METHOD_NAME", "CLASSIFY_OUTPUT_CLASSES", "CLASSIFY_OUTPUT_SCORES",
           "DEBUG_DIRECTORY", "DEBUG_INFO_FILENAME_PB", "DEFAULT_SERVING_SIGNATURE_DEF_KEY",
           "GPU", "PREDICT_INPUTS", "PREDICT_METHOD_NAME", "PREDICT_OUTPUTS", "REGRESS_INPUTS",
           "REGRESS_METHOD_NAME", "REGRESS_OUTPUTS", "SAVED_MODEL_FILENAME_PB",
           "SAVED_MODEL_FILENAME_PBTXT", "SAVED_MODEL_SCHEMA_VERSION", "SERVING", "TPU",
           "TRAINING", "VARIABLES_DIRECTORY", "VARIABLES_FILENAME"]

# TensorFlow's names (tf.saved_model.*), with TF 2.21's values.
ASSETS_DIRECTORY = "assets"
ASSETS_KEY = "saved_model_assets"
CLASSIFY_INPUTS = "inputs"
CLASSIFY_METHOD_NAME = "tensorflow/serving/classify"
CLASSIFY_OUTPUT_CLASSES = "classes"
CLASSIFY_OUTPUT_SCORES = "scores"
DEBUG_DIRECTORY = "debug"
DEBUG_INFO_FILENAME_PB = "saved_model_debug_info.pb"
DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"
GPU = "gpu"
PREDICT_INPUTS = "inputs"
PREDICT_METHOD_NAME = "tensorflow/serving/predict"
PREDICT_OUTPUTS = "outputs"
REGRESS_INPUTS = "inputs"
REGRESS_METHOD_NAME = "tensorflow/serving/regress"
REGRESS_OUTPUTS = "outputs"
SAVED_MODEL_FILENAME_PB = "saved_model.pb"
SAVED_MODEL_FILENAME_PBTXT = "saved_model.pbtxt"
SAVED_MODEL_SCHEMA_VERSION = 1
SERVING = "serve"
TPU = "tpu"
TRAINING = "train"
VARIABLES_DIRECTORY = "variables"
VARIABLES_FILENAME = "variables"


class Asset:
    """`tf.saved_model.Asset`: a file the saved model carries along."""

    def __init__(self, path):
        if isinstance(path, Tensor):
            if path.dtype is not dtypes.string:
                raise TypeError(f"Asset: path must be a string, got {path.dtype.name}")
            path = path.numpy()
        if isinstance(path, bytes):
            path = path.decode("utf-8")
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"Asset: path must be a string, got {type(path).__name__}")
        self._path = os.fspath(path)

    @property
    def asset_path(self):
        """The file's path, a scalar string tensor."""
        return convert_to_tensor(self._path.encode("utf-8"), dtypes.string)

    def __repr__(self):
        return f"<runtime.saved_model.Asset path={self._path!r}>"


def copy_assets(found, export_dir):
    """Copy each (attribute path, Asset) file into export_dir/assets; return
    the JSON entries: attribute path, file name, the original path."""
    entries, used = [], set()
    if found:
        os.makedirs(os.path.join(export_dir, ASSETS_DIRECTORY), exist_ok=True)
    for attr_path, asset in found:
        if not os.path.isfile(asset._path):
            raise FileNotFoundError(f"save: the Asset at {attr_path!r} names {asset._path!r}, "
                                    "which is not a file")
        base = name = os.path.basename(asset._path)
        stem, ext = os.path.splitext(base)
        count = 1
        while name in used:
            name, count = f"{stem}_{count}{ext}", count + 1
        used.add(name)
        shutil.copyfile(asset._path, os.path.join(export_dir, ASSETS_DIRECTORY, name))
        entries.append({"path": attr_path, "filename": name, "source": asset._path})
    return entries
