"""`keras.legacy.saving`: `serialize_keras_object` / `deserialize_keras_object`
in Keras 2's format (runtime/_src/keras/legacy/saving/serialization.py)."""

from runtime._src.keras.legacy.saving.serialization import (deserialize_keras_object,
                                                           serialize_keras_object)

__all__ = ["serialize_keras_object", "deserialize_keras_object"]
