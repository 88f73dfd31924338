"""`keras.losses.serialize` / `deserialize`: a loss (a Loss or a per-sample
function) as Keras's config and back; a name gives what `keras.losses.get` gives."""

from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.losses.losses import get

__all__ = ["serialize", "deserialize", "Reduction"]


def serialize(loss):
    """{"module": "keras.losses", "class_name": ..., "config": ...} (or a function's
    config)."""
    return serialization.serialize_keras_object(loss)


def deserialize(name, custom_objects=None):
    """The loss a `serialize` result (or a name) describes."""
    return serialization.deserialize_or_get(name, custom_objects, get, "keras.losses")


class Reduction:
    """`tf.keras.losses.Reduction` (Keras's legacy names of the `reduction`
    strings, which TF 2.21's tf.keras still exports): NONE is "none"."""

    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls):
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key):
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')
