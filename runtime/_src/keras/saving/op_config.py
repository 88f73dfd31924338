"""A `keras.ops` call in a functional model's config, as Keras 3 saves it.

Keras 3 records `keras.ops.expand_dims(x, axis=-1)` on KerasTensors as an
instance of its op class `ExpandDims(axis=-1)` called on `x`; a functional
model's config then lists it among its layers:

    {"module": "keras.src.ops.numpy", "class_name": "ExpandDims",
     "config": {"name": "expand_dims", "axis": -1}, "registered_name": "ExpandDims",
     "name": "expand_dims", "inbound_nodes": [{"args": [<x>], "kwargs": {}}]}

The class's constructor arguments go in "config", its call's arguments in the
node's "args". keras_op_classes.py holds which are which for each of Keras
3.15's op classes (recorded from Keras). `op_entry` writes that for one of our
op nodes; `op_caller` gives a callable that replays it with `keras.ops`.
"""

import inspect

from runtime._src.core import nest
from runtime._src.keras.backend.keras_tensor import Operation
from runtime._src.keras.ops import core, image, linalg, math, nn, numpy
from runtime._src.keras.random import elastic_transform
from runtime._src.keras.saving.keras_op_classes import OPS

__all__ = ["is_op_entry", "op_entry", "op_caller"]

_NAMESPACES = {"numpy": numpy, "nn": nn, "math": math, "core": core, "image": image,
               "linalg": linalg}
_ELSEWHERE = (math, elastic_transform)        # core's switch, image's elastic_transform


def _function(class_name):
    """Our `keras.ops` function of a Keras op class."""
    module, function, _, _ = OPS[class_name]
    for namespace in (_NAMESPACES[module],) + _ELSEWHERE:
        found = getattr(namespace, function, None)
        if found is not None:
            return found
    raise ValueError(f"keras.ops.{function} (the op class {class_name}) is not here")


def is_op_entry(entry):
    """Whether a functional config's layer entry is a Keras op call."""
    return str(entry.get("module") or "").startswith("keras.src.ops.") and \
        entry.get("class_name") in OPS


def _arguments(op, class_name, args, kwargs):
    """{Keras's argument name: value} of one call of our op."""
    call = OPS[class_name][3]
    try:
        bound = inspect.signature(op._fn).bind(*args, **kwargs)
    except (TypeError, ValueError):           # operator.add and kin: positional only
        return {**dict(zip(call, args)), **kwargs}
    bound.apply_defaults()
    values = {}
    for name, value in bound.arguments.items():
        kind = bound.signature.parameters[name].kind
        if kind is inspect.Parameter.VAR_KEYWORD:
            values.update(value)
        elif kind is not inspect.Parameter.VAR_POSITIONAL:
            values[name] = value
    for name, value in zip(call, args):       # Keras's call names for our positions
        values.setdefault(name, value)
    return values


def op_entry(op, node_args, node_kwargs):
    """(entry without inbound nodes, the node's args) of our op node: Keras 3's
    config of its op class. ValueError when Keras has no class for it."""
    class_name = type(op).__name__
    if not isinstance(op, Operation) or class_name not in OPS:
        raise ValueError(f"Cannot save the functional model's op {op.name!r} "
                         f"({class_name}): Keras 3.15 has no op class of that name")
    module, _, init, call = OPS[class_name]
    values = _arguments(op, class_name, node_args, node_kwargs)
    config = {"name": op.name}
    config.update({p: values[p] for p in init if p in values})
    present = [p for p in call if p in values]
    last = max((call.index(p) for p in present), default=-1)
    args = [values.get(p) for p in call[:last + 1]]
    return {"module": f"keras.src.ops.{module}", "class_name": class_name, "config": config,
            "registered_name": class_name}, args


class _OpCall:
    """A Keras op class from a config, callable on KerasTensors: its
    `keras.ops` function with the saved constructor arguments."""

    def __init__(self, class_name, config):
        self._fn = _function(class_name)
        self.name = config.get("name", class_name)
        accepted = inspect.signature(self._fn).parameters
        self._config = {}
        for key, value in config.items():
            if key == "name":
                continue
            if key in accepted:
                self._config[key] = value
            elif value not in (None, False):
                raise ValueError(f"The op {self.name!r} ({class_name}) has {key}={value!r}, "
                                 "which keras.ops here does not take")

    def __call__(self, *args, **kwargs):
        if self._fn.__name__ == "get_item" and len(args) == 2 and isinstance(args[1], list):
            args = (args[0], tuple(args[1]))      # x[:, 0] saved as a JSON list
        outputs = self._fn(*args, **kwargs, **self._config)
        for output in nest.flatten(outputs):      # the op node keeps its saved name
            history = getattr(output, "_keras_history", None)
            if history is not None and isinstance(history[0], Operation):
                history[0].name = self.name
        return outputs


def op_caller(entry):
    """The callable that replays a config's Keras op entry."""
    return _OpCall(entry["class_name"], entry.get("config") or {})
