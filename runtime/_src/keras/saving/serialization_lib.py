"""Keras objects as JSON-ready dicts, and back: the `get_config` protocol.

    serialize_keras_object(Dense(4))
    # {"module": "keras.layers", "class_name": "Dense",
    #  "config": {"name": "dense", "units": 4, ...}, "registered_name": None}
    deserialize_keras_object(that)          # a new Dense(4) named "dense"

The protocol, as Keras 3's:
- an object's `get_config()` returns its constructor arguments as plain
  values (numbers, strings, lists, dicts, and nested objects serialized with
  `serialize_keras_object`);
- its class's `from_config(config)` (by default `cls(**config)`) makes an
  equal object; a layer's `get_build_config()` / `build_from_config(config)`
  carry the input shape it was built with, so the weights exist at once.

Classes are found by name, never by importing or running code from a file:
the built-in ones in `BUILTIN[module]` (layers register themselves when their
class is defined in runtime/_src/keras/: a new layer file only defines its
classes with `get_config`), user classes through
`register_keras_serializable(package)` (registered as "package>Name") or the
`custom_objects` of the call, or a `custom_object_scope`.
"""

import threading
import types

import numpy as np

from runtime._src.core.tensor import Tensor, convert_to_tensor

__all__ = ["BUILTIN", "register_builtin", "register_keras_serializable", "get_custom_objects",
           "get_registered_name", "get_registered_object", "serialize_keras_object",
           "deserialize_keras_object", "custom_object_scope", "CustomObjectScope",
           "dtype_policy_config",
           "dtype_from_config", "CUSTOM_OBJECTS", "serialize_layer", "deserialize_layer"]

# module ("keras.layers", "keras.losses", ...) -> {class name: class}
BUILTIN = {}
# "package>Name" -> class or function (register_keras_serializable)
CUSTOM_OBJECTS = {}
_scope = threading.local()          # .stack: dicts of custom_object_scope


_UNEXPORTED = set()     # built-in classes Keras does not export: saved with a registered_name


def register_builtin(module, obj, name=None, exported=True):
    """Record a built-in class (or function) under `module` so that configs
    naming it ("class_name": name) find it. A class Keras has but does not
    export (`exported=False`) is saved with its name as `registered_name`, as
    Keras saves it."""
    BUILTIN.setdefault(module, {})[name or obj.__name__] = obj
    if not exported:
        _UNEXPORTED.add(obj)
    return obj


def register_keras_serializable(package="Custom", name=None):
    """Decorator: `@register_keras_serializable(package="my_pkg")` makes a user
    class (or function) loadable by `load_model` without `custom_objects`.
    Registering a name again replaces what it stands for, as in Keras 3.15."""
    def decorator(obj):
        key = f"{package}>{name or obj.__name__}"
        if isinstance(obj, type) and not hasattr(obj, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() "
                             "method.")
        CUSTOM_OBJECTS[key] = obj
        obj._registered_name = key
        return obj
    return decorator


def get_custom_objects():
    """The global table of user objects (`register_keras_serializable` fills it;
    entries added by hand, {"MyLayer": MyLayer}, are found by name too)."""
    return CUSTOM_OBJECTS


def get_registered_name(obj):
    """"package>Name" for a registered object, else its `__name__`."""
    registered = getattr(obj, "__dict__", {}).get("_registered_name")
    if registered is not None:
        return registered
    return getattr(obj, "__name__", type(obj).__name__)


def get_registered_object(name, custom_objects=None, module_objects=None):
    """The class or function `name` stands for, or None."""
    for table in _lookup_tables(custom_objects):
        if name in table:
            return table[name]
    if module_objects and name in module_objects:
        return module_objects[name]
    return None


def _lookup_tables(custom_objects):
    tables = [custom_objects or {}]
    tables.extend(reversed(getattr(_scope, "stack", [])))
    tables.append(CUSTOM_OBJECTS)
    return tables


class CustomObjectScope:
    """`with CustomObjectScope({"MyLayer": MyLayer}):` deserialization inside
    finds those names (`custom_object_scope` is the same class, as in Keras)."""

    def __init__(self, *custom_objects):
        self.custom_objects = {}
        for table in custom_objects:
            self.custom_objects.update(table or {})

    def __enter__(self):
        stack = getattr(_scope, "stack", None)
        if stack is None:
            stack = _scope.stack = []
        stack.append(self.custom_objects)
        return self

    def __exit__(self, *exc_info):
        _scope.stack.pop()


custom_object_scope = CustomObjectScope


def _is_registered_custom(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    return any(v is cls for v in CUSTOM_OBJECTS.values())


def _module_of(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    if "_keras_module" in cls.__dict__:         # Model, Sequential: "keras" as Keras 3
        return cls.__dict__["_keras_module"]
    for module, table in BUILTIN.items():
        if table.get(cls.__name__) is cls:
            return module
    return cls.__module__


def _is_builtin(cls):
    """A class of runtime.keras (a user's class has its registered name saved,
    or its own name when it is not registered, as Keras 3.15)."""
    return "_keras_module" in cls.__dict__ or any(
        table.get(cls.__name__) is cls for table in BUILTIN.values()) \
        or cls.__module__.startswith("runtime.")


def _serialize_values(config):
    """A config with the Keras objects among its values (a layer, a regularizer,
    a function, in lists and dicts too) serialized, as Keras 3.15's
    `serialize_dict`; everything else as it is."""
    def one(value):
        if isinstance(value, dict):
            return {k: one(v) for k, v in value.items()}
        if isinstance(value, list):
            return [one(v) for v in value]
        if isinstance(value, tuple):
            return tuple(one(v) for v in value)
        if not isinstance(value, type) and hasattr(value, "get_config"):
            return serialize_keras_object(value)
        if isinstance(value, types.FunctionType):
            return _serialize_function(value)
        return value
    return one(config) if isinstance(config, dict) else config


def serialize_keras_object(obj):
    """`obj` as {"module", "class_name", "config", "registered_name"} (Keras 3's
    layout); None, numbers, strings, lists and dicts as they are."""
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, (list, tuple)):
        return [serialize_keras_object(v) for v in obj]
    if isinstance(obj, dict):
        return {k: serialize_keras_object(v) for k, v in obj.items()}
    special = _special_config(obj)
    if special is not None:
        return special
    if callable(obj) and not hasattr(obj, "get_config"):
        return _serialize_function(obj)
    if not hasattr(obj, "get_config"):
        raise TypeError(f"Cannot serialize {obj!r}: it has no get_config() method")
    config = _serialize_values(obj.get_config())
    cls = type(obj)
    module = _module_of(obj)
    builtin = _is_builtin(cls)
    registered = None if builtin and not _is_registered_custom(obj) \
        and cls not in _UNEXPORTED else get_registered_name(cls)
    name = cls.__dict__.get("_keras_class_name", cls.__name__)   # GroupQueryAttention
    out = {"module": None if module == "__main__" else module, "class_name": name,
           "config": config, "registered_name": registered}
    build = getattr(obj, "get_build_config", None)
    if build is not None:
        build_config = build()
        if build_config is not None:
            out["build_config"] = build_config
    return out


def _special_config(obj):
    """Keras 3's configs of bytes, a slice, Ellipsis, a numpy array or a
    tensor (as a call's argument in a functional model), or None."""
    if isinstance(obj, bytes):
        return {"class_name": "__bytes__", "config": {"value": obj.decode("utf-8")}}
    if isinstance(obj, slice):
        return {"class_name": "__slice__", "config": {
            "start": serialize_keras_object(obj.start), "stop": serialize_keras_object(obj.stop),
            "step": serialize_keras_object(obj.step)}}
    if obj is Ellipsis:
        return {"class_name": "__ellipsis__", "config": {}}
    if isinstance(obj, np.ndarray) and obj.ndim > 0:
        return {"class_name": "__numpy__", "config": {"value": obj.tolist(),
                                                       "dtype": obj.dtype.name}}
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, Tensor) and not hasattr(obj, "_keras_history"):
        value = np.asarray(obj.numpy())
        return {"class_name": "__tensor__", "config": {"value": value.tolist(),
                                                        "dtype": obj.dtype.name}}
    return None


def _special_object(class_name, inner):
    """The value of a Keras 3 special config (`_special_config`), or _NOT_SPECIAL."""
    if class_name == "__bytes__":
        return inner["value"].encode("utf-8")
    if class_name == "__slice__":
        return slice(*(deserialize_keras_object(inner.get(k)) for k in ("start", "stop", "step")))
    if class_name == "__ellipsis__":
        return Ellipsis
    if class_name == "__numpy__":
        return np.array(inner["value"], dtype=inner["dtype"])
    if class_name == "__tensor__":
        return convert_to_tensor(np.array(inner["value"], dtype=inner["dtype"]))
    return _NOT_SPECIAL


_NOT_SPECIAL = object()


def _serialize_function(fn):
    """A function by name, as Keras 3.15: {"module": "builtins", "class_name":
    "function", "config": its registered name ("package>name") or its __name__,
    "registered_name": "function"}."""
    name = getattr(fn, "__name__", None)
    if name is None or name == "<lambda>":
        raise ValueError(f"Cannot serialize {fn!r}: a lambda has no name to save it by; "
                         "define it with `def` (and register it with "
                         "`tf.keras.saving.register_keras_serializable()`)")
    if any(v is fn for v in CUSTOM_OBJECTS.values()):
        name = get_registered_name(fn)
    return {"module": "builtins", "class_name": "function", "config": name,
            "registered_name": "function"}


def deserialize_keras_object(config, custom_objects=None, module=None):
    """The object `config` (from `serialize_keras_object`) describes. Classes are
    looked up by name (`custom_objects`, registered ones, the built-in table of
    `config["module"]` or `module`); nothing from the file is imported or run."""
    if config is None or isinstance(config, (bool, int, float)):
        return config
    if isinstance(config, str):
        return _lookup(config, config, module, custom_objects)
    if not isinstance(config, dict):
        raise TypeError(f"Could not parse config: {config!r}")
    if "class_name" not in config:
        if module is not None:               # a namespace's deserialize: not a config
            raise ValueError(f"Unknown `config` as a `dict`, config={config}")
        return {k: deserialize_keras_object(v, custom_objects)      # a plain dict, as Keras
                for k, v in config.items()}
    class_name = config["class_name"]
    inner = config.get("config")
    special = _special_object(class_name, inner or {})
    if special is not _NOT_SPECIAL:
        return special
    if class_name == "function":
        registered = config.get("registered_name")
        registered = inner if registered in (None, "function") else registered
        return _lookup(inner, registered, config.get("module"), custom_objects)
    if class_name == "__lambda__":
        raise ValueError(
            "Requested the deserialization of a Python lambda. This carries a potential risk "
            "of arbitrary code execution and thus it is disallowed by runtime.keras (as by "
            "Keras with safe_mode=True). Define the function with `def` and pass it in "
            "`custom_objects`.")
    cls = _lookup(class_name, config.get("registered_name") or class_name,
                  config.get("module") or module, custom_objects)
    from_config = getattr(cls, "from_config", None)
    obj = from_config(inner or {}) if from_config is not None else cls(**(inner or {}))
    build_config = config.get("build_config")
    if build_config and hasattr(obj, "build_from_config"):
        obj.build_from_config(build_config)
    return obj


def deserialize_or_get(config, custom_objects, get, module):
    """A namespace's `deserialize` whose `get(name)` knows its built-in names:
    a string is a registered or custom object, else `get`'s, else itself (a
    name Keras does not know); a dict is deserialized in `module`."""
    if isinstance(config, dict) and config.get("class_name") == "function" \
            and isinstance(config.get("config"), str):
        config = config["config"]            # a function by name: the namespace's own
    if isinstance(config, str):
        found = deserialize_name(config, custom_objects)
        if found is not config:
            return found
        try:
            return get(config)
        except ValueError:
            return config
    return deserialize_keras_object(config, custom_objects, module=module)


def deserialize_name(name, custom_objects=None, by_name=None, module=None):
    """Keras's `<namespace>.deserialize(name)` for a string: the custom or
    registered object of that name as it is, else the namespace's built-in one
    (`by_name`, then the classes of `module`: a class instantiated with its
    defaults, a function as it is), else the string itself, unchanged (Keras
    takes a name it does not know for a value already deserialized)."""
    found = get_registered_object(name, custom_objects)
    if found is not None:
        return found
    found = (by_name or {}).get(name)
    if found is None and module is not None:
        found = BUILTIN.get(module, {}).get(name)
    if found is None:
        return name
    return found() if isinstance(found, type) else found


def _lookup(class_name, registered, module, custom_objects):
    found = get_registered_object(registered, custom_objects)
    if found is None:
        found = get_registered_object(class_name, custom_objects)
    if found is None and module is not None:
        found = BUILTIN.get(module, {}).get(class_name)
    if found is None:
        for table in BUILTIN.values():
            if class_name in table:
                found = table[class_name]
                break
    if found is None:
        raise TypeError(
            f"Could not locate class '{class_name}'. Make sure custom classes are decorated "
            "with `@tf.keras.saving.register_keras_serializable()` or passed in "
            f"`custom_objects`. Full object config: module={module!r}, "
            f"class_name={class_name!r}")
    return found


REJECT = object()    # get_by_identifier(none=REJECT): None is not an identifier of the kind


def get_by_identifier(identifier, kind, by_name, module, *, none=None, base=(),
                      fold_case=False, callables=True, quote=True, known=True, names=None):
    """The one identifier lookup behind `keras.activations.get`, `initializers`,
    `regularizers`, `constraints`, `losses`, `metrics` and `optimizers.get`:

        None            `none` (a ValueError with none=REJECT)
        an instance of `base`, or any callable (unless callables=False): itself
        a config dict   the object it describes (deserialized from `module`; with
                        module=None a dict is not an identifier)
        a name          by_name[name] (lowercased first with fold_case): a class
                        is instantiated, a function returned as it is

    Anything else is a ValueError naming `kind` ("Could not interpret loss
    identifier: ..."), the identifier (its repr with quote) and, for a name or
    when callables are refused, the known names (with known; `names` in place
    of the table's keys)."""
    if identifier is None and none is not REJECT:
        return none
    if base and isinstance(identifier, base):
        return identifier
    if isinstance(identifier, dict) and module is not None:
        return deserialize_keras_object(identifier, None, module=module)
    if isinstance(identifier, str):
        entry = by_name.get(identifier.lower() if fold_case else identifier)
        if entry is not None:
            return entry() if isinstance(entry, type) else entry
    elif callables and callable(identifier):
        return identifier
    message = f"Could not interpret {kind} identifier: " + \
        (repr(identifier) if quote else str(identifier))
    if known and (isinstance(identifier, str) or not callables):
        message += f". Known names: {names or ', '.join(sorted(by_name))}"
    raise ValueError(message)


def serialize_layer(layer):
    """`tf.keras.layers.serialize`."""
    return serialize_keras_object(layer)


def deserialize_layer(config, custom_objects=None):
    """`tf.keras.layers.deserialize`: a layer from `serialize`'s dict."""
    return deserialize_keras_object(config, custom_objects, module="keras.layers")


def dtype_policy_config(dtype_name):
    """Keras 3's config of a layer's dtype policy."""
    return {"module": "keras", "class_name": "DTypePolicy", "config": {"name": dtype_name},
            "registered_name": None}


def dtype_from_config(value):
    """A dtype name from a policy config, a name, or None."""
    if isinstance(value, dict):
        return value.get("config", {}).get("name")
    return value
