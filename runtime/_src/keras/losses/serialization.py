"""`keras.losses.serialize` / `deserialize`: a loss (a Loss or a per-sample
function) as Keras's config and back; a name gives what `keras.losses.get` gives."""

from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.losses.losses import get

__all__ = ["serialize", "deserialize"]


def serialize(loss):
    """{"module": "keras.losses", "class_name": ..., "config": ...} (or a function's
    config)."""
    return serialization.serialize_keras_object(loss)


def deserialize(name, custom_objects=None):
    """The loss a `serialize` result (or a name) describes."""
    if isinstance(name, str):
        if custom_objects and name in custom_objects:
            return custom_objects[name]
        return get(name)
    return serialization.deserialize_keras_object(name, custom_objects, module="keras.losses")
