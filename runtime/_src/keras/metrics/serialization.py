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
    return serialization.deserialize_or_get(config, custom_objects, get, "keras.metrics")