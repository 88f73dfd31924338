"""`keras.optimizers.get`, `serialize` and `deserialize`: an optimizer by name
("sgd", "adam", "adamw", ...), as Keras's config dict and back. It imports every
built-in optimizer, so that each name is known."""

from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.optimizers.optimizer import Optimizer

# The built-in optimizers, registered by name as they are defined.
from runtime._src.keras.optimizers import (adadelta, adafactor, adagrad, adam, adamax,  # noqa: F401
                                           adamw, ftrl, lamb, lion, loss_scale_optimizer,
                                           muon, nadam, rmsprop, schedule_free_adamw, sgd)

__all__ = ["serialize", "deserialize", "get"]


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


def _by_name():
    """{lowercase class name: class} of the built-in optimizers."""
    return {name.lower(): cls for name, cls in
            serialization.BUILTIN.get("keras.optimizers", {}).items()
            if isinstance(cls, type) and issubclass(cls, Optimizer) and cls is not Optimizer}


def get(identifier):
    """An optimizer from a name ("sgd", "adam", "adamw", ...), a config dict,
    or an Optimizer."""
    return serialization.get_by_identifier(identifier, "optimizer", _by_name(),
                                           "keras.optimizers", none=serialization.REJECT,
                                           base=Optimizer, fold_case=True, callables=False)
