"""`keras.metrics.serialize` / `deserialize`: a metric as Keras's config dict
and back (a name gives the metric `keras.metrics.get` gives)."""

from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.metrics.metrics import get

__all__ = ["serialize", "deserialize"]


def serialize(metric):
    """{"module": "keras.metrics", "class_name": ..., "config": ...}."""
    return serialization.serialize_keras_object(metric)


def deserialize(config, custom_objects=None):
    """The metric `config` describes (a `serialize` dict or a name)."""
    if isinstance(config, str):
        found = serialization.deserialize_name(config, custom_objects)
        if found is not config:
            return found
        try:
            return get(config)
        except ValueError:          # a name Keras does not know comes back as it is
            return config
    return serialization.deserialize_keras_object(config, custom_objects,
                                                  module="keras.metrics")
