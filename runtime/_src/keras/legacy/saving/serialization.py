"""Keras 2's serialization format, as Keras 3.15's `keras.legacy.saving` (and
`keras.utils.legacy`) write and read it:

    serialize_keras_object(Dense(4))
    # {"class_name": "Dense", "config": {"name": "dense", "units": 4, ...}}
    serialize_keras_object(relu)                  # "relu": a function by name
    deserialize_keras_object(that, module_objects={"Dense": Dense})

A config is an object's `get_config()`, its values kept as they are except
objects, which are serialized the same way and marked
`"__passive_serialization__": True` (a function: its name). Reading finds a
class by name in `custom_objects`, a `custom_object_scope`, the registered
objects, then `module_objects`; nothing is imported or run from the config.
"""

import inspect

from runtime._src.keras.saving.serialization_lib import (CustomObjectScope, get_custom_objects,
                                                         get_registered_name,
                                                         get_registered_object)

__all__ = ["serialize_keras_object", "deserialize_keras_object"]

PASSIVE = "__passive_serialization__"


def serialize_keras_object(instance):
    """{"class_name", "config"} of an object with `get_config`, the registered
    name of a function or class, None for None; anything else is a ValueError."""
    instance = inspect.unwrap(instance)
    if instance is None:
        return None
    if hasattr(instance, "get_config"):
        config = {key: _serialize_item(item) for key, item in instance.get_config().items()}
        return {"class_name": get_registered_name(type(instance)), "config": config}
    if hasattr(instance, "__name__"):
        return get_registered_name(instance)
    raise ValueError(f"Cannot serialize {instance} because it doesn't implement `get_config()`.")


def _serialize_item(item):
    """A config value: strings and plain values as they are, objects serialized
    (and marked passive when they become a dict)."""
    if isinstance(item, str):
        return item
    try:
        serialized = serialize_keras_object(item)
    except ValueError:
        return item
    if isinstance(serialized, dict) and not isinstance(item, dict):
        serialized[PASSIVE] = True
    return serialized


def _unknown(kind, name):
    return ValueError(
        f"Unknown {kind}: '{name}'. Please ensure you are using a "
        "`keras.utils.custom_object_scope` and that this object is included in the scope. "
        "See https://www.tensorflow.org/guide/keras/save_and_serialize"
        "#registering_the_custom_object for details.")


def _class_and_config(config, module_objects, custom_objects, kind):
    """(class, config with its passive objects and function names resolved)."""
    if not isinstance(config, dict) or "class_name" not in config or "config" not in config:
        raise ValueError(f"Improper config format for {config}. Expecting python dict "
                         "contains `class_name` and `config` as keys")
    cls = get_registered_object(config["class_name"], custom_objects, module_objects)
    if cls is None:
        raise _unknown(kind, config["class_name"])
    inner = config["config"]
    if isinstance(inner, list):           # Keras 2.0's Sequential: a list of layer configs
        return cls, inner
    return cls, {key: _deserialize_item(key, item, module_objects, custom_objects)
                 for key, item in inner.items()}


def _deserialize_item(key, item, module_objects, custom_objects):
    if key == "name":
        return item
    if isinstance(item, dict) and PASSIVE in item:
        return deserialize_keras_object(item, module_objects, custom_objects, "config_item")
    if isinstance(item, str):
        found = get_registered_object(item, custom_objects, module_objects)
        if inspect.isfunction(found):
            return found
    return item


def deserialize_keras_object(identifier, module_objects=None, custom_objects=None,
                             printable_module_name="object"):
    """The object a legacy config (a dict, or a name) describes: a class's
    `from_config` (given `custom_objects` when it takes them), a class named
    by a string built with no arguments, a function as it is."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        cls, config = _class_and_config(identifier, module_objects, custom_objects,
                                        printable_module_name)
        return _from_config(cls, config, custom_objects or {})
    if isinstance(identifier, str):
        found = get_registered_object(identifier, custom_objects, module_objects)
        if found is None:
            raise _unknown(printable_module_name, identifier)
        return found() if inspect.isclass(found) else found
    if inspect.isfunction(identifier):
        return identifier
    raise ValueError(f"Could not interpret serialized {printable_module_name}: {identifier}")


def _from_config(cls, config, custom_objects):
    from_config = getattr(cls, "from_config", None)
    if from_config is None:               # a function that makes the object from keyword arguments
        with CustomObjectScope(custom_objects):
            return cls(**config)
    if "custom_objects" in inspect.getfullargspec(from_config).args:
        return from_config(config, custom_objects={**get_custom_objects(), **custom_objects})
    with CustomObjectScope(custom_objects):
        return from_config(config)
