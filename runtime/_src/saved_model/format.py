"""The saved model format, version 1: names, file layout and the attr codec.

    export_dir/
      saved_model.json   {"format": "runtime.saved_model", "version": 1,
                          "functions": {...}, "variables": [...], "objects": {...}}
      constants.npz      Const values and other array attrs, keys "c0", "c1", ...
      variables.npz      variable values, keys "v0", "v1", ...

Arrays are written and read with numpy's `allow_pickle=False`; string
tensors (numpy object arrays) go into the JSON as base64 instead. Attr values
are tagged JSON objects, one tag each (see `encode_attr`).
"""

import base64

import numpy as np

from runtime._src.core.dtypes import DType, as_dtype
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.graph import Graph

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "JSON_FILE", "CONSTANTS_FILE", "VARIABLES_FILE",
           "SavedModelError", "encode_attr", "decode_attr"]

FORMAT_NAME = "runtime.saved_model"
FORMAT_VERSION = 1
JSON_FILE = "saved_model.json"
CONSTANTS_FILE = "constants.npz"
VARIABLES_FILE = "variables.npz"


class SavedModelError(ValueError):
    """A model cannot be saved, or a directory is not a valid saved model."""


def encode_attr(value, ctx):
    """A JSON-able tagged form of an attr value.

    `ctx` provides `array(value) -> key`, `variable(obj) -> index`,
    `graph(Graph) -> json` and `where` (for errors).
    """
    if value is None or isinstance(value, (bool, int, str)):
        return {"py": value}
    if isinstance(value, float):
        return {"float": repr(value)}
    if isinstance(value, DType):
        return {"dtype": value.name}
    if isinstance(value, TensorShape):
        return {"shape": None if value.dims is None else list(value.dims)}
    if isinstance(value, (np.ndarray, np.generic)):
        arr = np.asarray(value)
        if arr.dtype == object:
            return {"strings": [base64.b64encode(_as_bytes(v, ctx)).decode("ascii")
                                for v in arr.reshape(-1)], "shape": list(arr.shape)}
        return {"array": ctx.array(arr), "dtype": arr.dtype.str, "shape": list(arr.shape),
                "scalar": isinstance(value, np.generic)}
    if isinstance(value, (list, tuple)):
        tag = "list" if isinstance(value, list) else "tuple"
        return {tag: [encode_attr(v, ctx) for v in value]}
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"dict": {k: encode_attr(v, ctx) for k, v in value.items()}}
    if isinstance(value, Graph):
        return {"graph": ctx.graph(value)}
    if ctx.is_variable(value):
        return {"variable": ctx.variable(value)}
    raise SavedModelError(f"cannot save {ctx.where}: attr value of type "
                          f"{type(value).__name__} has no saved form (only tensors, "
                          "dtypes, shapes, numbers, strings, variables and graphs do)")


def _as_bytes(v, ctx):
    if isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v.encode("utf-8")
    raise SavedModelError(f"cannot save {ctx.where}: string tensor holds {type(v).__name__}")


def decode_attr(data, ctx):
    """The attr value for a tagged JSON object; raises SavedModelError on bad data."""
    if not isinstance(data, dict) or len(data) not in (1, 2, 3, 4):
        raise ctx.error(f"attr is not a tagged object: {_short(data)}")
    if "py" in data:
        value = data["py"]
        if value is not None and not isinstance(value, (bool, int, str)):
            raise ctx.error(f"bad 'py' attr {_short(value)}")
        return value
    if "float" in data:
        return float(_typed(data["float"], str, ctx))
    if "dtype" in data and "array" not in data:
        return _dtype(data["dtype"], ctx)
    if "shape" in data and len(data) == 1:
        dims = data["shape"]
        if dims is not None and not (isinstance(dims, list) and all(
                d is None or (isinstance(d, int) and d >= 0) for d in dims)):
            raise ctx.error(f"bad shape {_short(dims)}")
        return TensorShape(dims)
    if "strings" in data:
        return _decode_strings(data, ctx)
    if "array" in data:
        return ctx.array(data)
    for tag, kind in (("list", list), ("tuple", tuple)):
        if tag in data:
            return kind(decode_attr(v, ctx) for v in _typed(data[tag], list, ctx))
    if "dict" in data:
        return {k: decode_attr(v, ctx) for k, v in _typed(data["dict"], dict, ctx).items()}
    if "graph" in data:
        return ctx.graph(data["graph"])
    if "variable" in data:
        return ctx.variable(data["variable"])
    raise ctx.error(f"unknown attr tag in {_short(data)}")


def _decode_strings(data, ctx):
    shape = _typed(data.get("shape"), list, ctx)
    items = _typed(data["strings"], list, ctx)
    try:
        values = [base64.b64decode(s.encode("ascii"), validate=True) for s in items]
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out.reshape(shape)
    except (ValueError, AttributeError, TypeError) as e:
        raise ctx.error(f"bad string tensor: {e}") from None


def _dtype(name, ctx):
    try:
        return as_dtype(_typed(name, str, ctx))
    except TypeError as e:
        raise ctx.error(str(e)) from None


def _typed(value, kind, ctx):
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ctx.error(f"expected {kind.__name__}, found {_short(value)}")
    return value


def _short(value):
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
