"""Save traced functions and variables to a directory; load them back and run
them without the original Python code. Nothing in the files is executed on
load (no pickle, no eval): ops are looked up by name in the op registry.

    saved_model.save(module, "/tmp/m")          # runtime.function attributes
    loaded = saved_model.load("/tmp/m")
    loaded.f(tf.constant(3))                    # runs the saved graph
    loaded.signatures["f"](x=tf.constant(3))

The on-disk format (versioned JSON + .npz) is described in
docs/saved_model_format.md and in `runtime._src.saved_model.format`.
"""

from runtime._src.saved_model.asset import Asset
from runtime._src.saved_model.format import FORMAT_VERSION, SavedModelError
from runtime._src.saved_model.load import load
from runtime._src.saved_model.options import LoadOptions, SaveOptions, contains_saved_model
from runtime._src.saved_model.save import save

__all__ = ["save", "load", "SavedModelError", "FORMAT_VERSION", "SaveOptions", "LoadOptions",
           "contains_saved_model", "Asset"]
