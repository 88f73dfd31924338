"""`keras.utils.standardize_dtype`, `is_keras_tensor` and `get_source_inputs`.

    standardize_dtype(int)            # "int64"  (Keras 3's names; None -> floatx())
    is_keras_tensor(keras.Input((3,)))          # True
    get_source_inputs(dense_output)             # [the Input it came from]
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.keras.backend import config as backend_config
from runtime._src.keras.backend.keras_tensor import KerasTensor

__all__ = ["get_source_inputs", "is_keras_tensor", "standardize_dtype"]

ALLOWED_DTYPES = ("float16", "float32", "float64", "uint8", "uint16", "uint32", "uint64",
                  "int8", "int16", "int32", "int64", "bfloat16", "bool", "string",
                  "float8_e4m3fn", "float8_e5m2", "complex64", "complex128")
_PYTHON = {bool: "bool", int: "int64", float: "float32", str: "string", "int": "int64",
           complex: "complex128"}


def standardize_dtype(dtype):
    """A dtype (a name, a numpy or runtime dtype, a Python type) as Keras's
    name; None is `floatx()`. ValueError "Invalid dtype: ..." otherwise."""
    if dtype is None:
        return backend_config.floatx()
    name = _PYTHON.get(dtype, dtype) if isinstance(dtype, (type, str)) else dtype
    if isinstance(name, dtypes.DType):
        name = name.name
    elif isinstance(name, np.dtype):
        name = name.name
    elif isinstance(name, type):
        name = name.__name__
    if name not in ALLOWED_DTYPES:
        raise ValueError(f"Invalid dtype: {name}")
    return name


def is_keras_tensor(x):
    """True for a KerasTensor (a symbolic input or output of a functional model)."""
    return isinstance(x, KerasTensor)


def get_source_inputs(tensor):
    """The Input tensors `tensor` was computed from (a list), following the
    layer calls back; a value that is not a KerasTensor comes back as it is."""
    history = getattr(tensor, "_keras_history", None)
    if history is None:
        return tensor
    layer, index, _ = history
    node = layer._inbound_nodes[index] if layer._inbound_nodes else None
    if node is None or node.is_input:
        return [tensor] if node is None else list(node.output_tensors)
    found = []
    for t in node.input_tensors:
        for source in get_source_inputs(t):
            if not any(source is f for f in found):
                found.append(source)
    return found
