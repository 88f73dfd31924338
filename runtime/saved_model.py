"""`tf.saved_model`: save traced functions and Variables to a directory; load
them back and run them without the original Python code (defined in
runtime/_src/saved_model/; the format is docs/saved_model_format.md).

    tf.saved_model.save(module, "/tmp/m")
    loaded = tf.saved_model.load("/tmp/m")
    loaded.f(tf.constant(3))
"""

from runtime._src.saved_model import (FORMAT_VERSION, LoadOptions, SavedModelError,
                                      SaveOptions, contains_saved_model, load, save)

__all__ = ["save", "load", "SavedModelError", "FORMAT_VERSION", "SaveOptions", "LoadOptions",
           "contains_saved_model"]
