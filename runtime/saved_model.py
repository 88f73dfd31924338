"""`tf.saved_model`: save traced functions and Variables to a directory; load
them back and run them without the original Python code (defined in
runtime/_src/saved_model/; the format is docs/saved_model_format.md).

    tf.saved_model.save(module, "/tmp/m")
    loaded = tf.saved_model.load("/tmp/m")
    loaded.f(tf.constant(3))

`Asset(path)` in a saved Module is copied to `assets/` and loads pointing at
the copy; the constants (`SERVING`, `DEFAULT_SERVING_SIGNATURE_DEF_KEY`, ...)
are TF's names and values.
"""

from types import SimpleNamespace as _Namespace

from runtime._src.saved_model.options import VariablePolicy as _VariablePolicy
from runtime._src.saved_model.resource import TrackableResource as _TrackableResource
from runtime._src.saved_model.fingerprint import (Fingerprint as _Fingerprint,
                                                  read_fingerprint as _read_fingerprint)
from runtime._src.saved_model import (FORMAT_VERSION, Asset, LoadOptions, SavedModelError,
                                      SaveOptions, contains_saved_model, load, save)
from runtime._src.saved_model.asset import (
    ASSETS_DIRECTORY, ASSETS_KEY, CLASSIFY_INPUTS, CLASSIFY_METHOD_NAME, CLASSIFY_OUTPUT_CLASSES,
    CLASSIFY_OUTPUT_SCORES, DEBUG_DIRECTORY, DEBUG_INFO_FILENAME_PB,
    DEFAULT_SERVING_SIGNATURE_DEF_KEY, GPU, PREDICT_INPUTS, PREDICT_METHOD_NAME, PREDICT_OUTPUTS,
    REGRESS_INPUTS, REGRESS_METHOD_NAME, REGRESS_OUTPUTS, SAVED_MODEL_FILENAME_PB,
    SAVED_MODEL_FILENAME_PBTXT, SAVED_MODEL_SCHEMA_VERSION, SERVING, TPU, TRAINING,
    VARIABLES_DIRECTORY, VARIABLES_FILENAME)

# tf.saved_model.experimental: VariablePolicy, the fingerprint.pb of a saved
# model (ours and TensorFlow's), TrackableResource
experimental = _Namespace(VariablePolicy=_VariablePolicy, Fingerprint=_Fingerprint,
                          read_fingerprint=_read_fingerprint,
                          TrackableResource=_TrackableResource)

__all__ = ["experimental", "save", "load", "SavedModelError", "FORMAT_VERSION", "SaveOptions", "LoadOptions",
           "contains_saved_model", "Asset", "ASSETS_DIRECTORY", "ASSETS_KEY", "CLASSIFY_INPUTS",
           "CLASSIFY_METHOD_NAME", "CLASSIFY_OUTPUT_CLASSES", "CLASSIFY_OUTPUT_SCORES",
           "DEBUG_DIRECTORY", "DEBUG_INFO_FILENAME_PB", "DEFAULT_SERVING_SIGNATURE_DEF_KEY",
           "GPU", "PREDICT_INPUTS", "PREDICT_METHOD_NAME", "PREDICT_OUTPUTS", "REGRESS_INPUTS",
           "REGRESS_METHOD_NAME", "REGRESS_OUTPUTS", "SAVED_MODEL_FILENAME_PB",
           "SAVED_MODEL_FILENAME_PBTXT", "SAVED_MODEL_SCHEMA_VERSION", "SERVING", "TPU",
           "TRAINING", "VARIABLES_DIRECTORY", "VARIABLES_FILENAME"]
