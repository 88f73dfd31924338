"""The automatic config of Keras objects: the constructor arguments recorded
when a layer, loss or metric is made (`AutoConfigured`), the shapes a layer was
built with, and the `build` wrapper that records them (Layer.get_config in
layers/layer.py uses them).

    config_arguments(Dense, (4,), {"activation": "relu"})
    # {"units": 4, "activation": "relu", "use_bias": True, ...} (plain values only)
"""

import inspect

from runtime._src.keras.saving import serialization_lib as serialization

__all__ = ["AutoConfigured", "builtin_class", "config_arguments", "recording_build",
           "plain_shape", "as_shape_structure"]


def _plain(value):
    """Whether `value` is JSON-like (numbers, strings, None, lists, dicts of them)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    if isinstance(value, (list, tuple)):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return False


def config_arguments(cls, args, kwargs):
    """The constructor arguments of `cls(*args, **kwargs)` by name, when all are
    plain values (Keras 3's automatic config of user layers); else None."""
    try:
        signature = inspect.signature(cls.__init__)
        bound = signature.bind(None, *args, **kwargs)
    except (TypeError, ValueError):
        return None
    bound.apply_defaults()
    config = {}
    for name, value in list(bound.arguments.items())[1:]:
        param = signature.parameters[name]
        if param.kind is param.VAR_KEYWORD:
            config.update(value)
        elif param.kind is param.VAR_POSITIONAL:
            if value:
                return None
        else:
            config[name] = value
    return config if _plain(config) else None


def plain_shape(shape):
    """A shape (tuple, list, TensorShape, or a list / dict of them) as tuples."""
    if hasattr(shape, "as_list"):
        shape = shape.dims
        return None if shape is None else tuple(shape)
    if isinstance(shape, dict):
        return {k: plain_shape(v) for k, v in shape.items()}
    if isinstance(shape, (list, tuple)) and any(
            isinstance(v, (list, tuple, dict)) or hasattr(v, "as_list") for v in shape):
        return [plain_shape(v) for v in shape]
    return None if shape is None else tuple(None if d is None else int(d) for d in shape)


def recording_build(build):
    """`build` that remembers its input shape (`get_build_config`) and marks the
    layer built, as Keras 3's build wrapper."""
    if getattr(build, "_records_shape", False):
        return build

    def wrapper(self, *args, **kwargs):
        shape = args[0] if args else kwargs.get("input_shape")
        if getattr(self, "_build_input_shape", None) is None and shape is not None:
            self._build_input_shape = shape
        result = build(self, *args, **kwargs)
        self.built = True
        return result
    wrapper._records_shape = True
    wrapper.__name__, wrapper.__doc__ = build.__name__, build.__doc__
    wrapper.__wrapped__ = build
    return wrapper


def as_shape_structure(shape):
    """A saved shape (lists from JSON) as tuples; a dict or list of shapes kept."""
    if isinstance(shape, dict):
        return {k: as_shape_structure(v) for k, v in shape.items()}
    if isinstance(shape, (list, tuple)) and shape and all(
            isinstance(v, (list, tuple)) or v is None for v in shape) and \
            any(isinstance(v, (list, tuple)) for v in shape):
        return [as_shape_structure(v) for v in shape]
    return tuple(shape)


def builtin_class(cls):
    """Whether `cls` is one of ours (registered under Keras's module names)."""
    return cls.__module__.startswith("runtime._src.keras.") and not cls.__name__.startswith("_")


class AutoConfigured:
    """The base of Layer, Loss and Metric: records the constructor arguments
    of each instance (`_auto_config`, Keras 3's automatic config of plain
    arguments) and registers each built-in subclass under `_config_module`
    (`keras.layers`, ...) for `.keras` files and `get_config`."""

    _config_module = None

    def __new__(cls, *args, **kwargs):
        obj = super().__new__(cls)
        obj._auto_config = config_arguments(cls, args, kwargs)
        return obj

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if builtin_class(cls):
            serialization.register_builtin(cls._config_module, cls)
