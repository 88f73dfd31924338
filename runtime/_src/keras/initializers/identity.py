"""`keras.initializers.Identity(gain=1.0)` (also `IdentityInitializer`,
`identity`): gain times the identity matrix of a 2-D shape (ones on the main
diagonal of a non-square one), and `deserialize`.

Keras 3 names each initializer class in lower case too
(`keras.initializers.glorot_uniform is GlorotUniform`); runtime/keras/initializers.py
gives those names.
"""

from runtime._src.core import dtypes
from runtime._src.keras.initializers import initializers
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.ops import array_ops, linalg_ops

__all__ = ["Identity", "deserialize"]


class Identity(initializers.Initializer):
    """`keras.initializers.Identity(gain=1.0)`: gain * eye(rows, cols)."""

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        shape = tuple(shape)
        if len(shape) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        dtype = dtypes.as_dtype(dtype or "float32")
        eye = linalg_ops.eye(shape[0], shape[1], dtype=dtype)
        return eye if self.gain == 1 else eye * array_ops.constant(self.gain, dtype)


serialization.register_builtin("keras.initializers", Identity)
serialization.register_builtin("keras.initializers", Identity, "IdentityInitializer")
initializers._BY_NAME["identity"] = Identity


def deserialize(config, custom_objects=None):
    """The initializer a `serialize` dict (or a name) describes."""
    if isinstance(config, str):
        if custom_objects and config in custom_objects:
            return custom_objects[config]
        return initializers.get(config)
    return serialization.deserialize_keras_object(config, custom_objects,
                                                  module="keras.initializers")
