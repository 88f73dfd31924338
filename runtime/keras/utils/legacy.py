"""`keras.utils.legacy`: the same functions as `keras.legacy.saving`
(Keras 2's serialization format)."""

from runtime._src.keras.legacy.saving.serialization import (deserialize_keras_object,
                                                           serialize_keras_object)

__all__ = ["serialize_keras_object", "deserialize_keras_object"]
