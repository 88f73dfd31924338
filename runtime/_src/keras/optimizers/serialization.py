"""`keras.optimizers.serialize` / `deserialize`: an optimizer as Keras's config
dict and back (a name gives what `keras.optimizers.get` gives)."""

from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.optimizers.optimizer import get

__all__ = ["serialize", "deserialize"]


def serialize(optimizer):
    """{"module": "keras.optimizers", "class_name": ..., "config": ...}."""
    return serialization.serialize_keras_object(optimizer)


def deserialize(config, custom_objects=None, **kwargs):
    """The optimizer a `serialize` dict (or a name) describes."""
    if isinstance(config, str):
        if custom_objects and config in custom_objects:
            return custom_objects[config]
        return get(config)
    return serialization.deserialize_keras_object(config, custom_objects,
                                                  module="keras.optimizers")
