"""Small message classes printed in protobuf text format, as TensorFlow prints
its GraphDef (`str(graph_def)`): one field per line, nested messages in
braces, two-space indents, fields in field-number order, proto3 defaults
(0, "", false, empty lists) left out, map entries as `key`/`value` blocks
sorted by key, enums by name, bytes C-escaped with octal escapes.

A message class lists its fields once, in field-number order:

    class ArgDef(Message):
        FIELDS = (("name", "string"), ("type", "enum:DataType"))

Kinds: "string", "bytes", "int", "float", "double", "bool", "enum:<table>",
"msg" (a message; None stands for a single one), each optionally repeated
("*" prefix), or "map:<name>" (a dict from str to messages, or to strings
with "map:str"). `ALWAYS` names fields printed even when empty
(a oneof member: `shape { }` of a scalar). The classes hold plain Python
values; the graph layer builds them (graph/graphdef.py).
"""

import math

import numpy as np

__all__ = ["Message", "DATA_TYPES", "DATA_TYPE_NAMES", "text"]

# TensorFlow's DataType enum (tensorflow/core/framework/types.proto).
DATA_TYPES = {
    "float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6,
    "string": 7, "complex64": 8, "int64": 9, "bool": 10, "bfloat16": 14, "uint16": 17,
    "complex128": 18, "float16": 19, "resource": 20, "variant": 21, "uint32": 22,
    "uint64": 23,
}
_ENUM_NAMES = {1: "DT_FLOAT", 2: "DT_DOUBLE", 3: "DT_INT32", 4: "DT_UINT8", 5: "DT_INT16",
               6: "DT_INT8", 7: "DT_STRING", 8: "DT_COMPLEX64", 9: "DT_INT64", 10: "DT_BOOL",
               14: "DT_BFLOAT16", 17: "DT_UINT16", 18: "DT_COMPLEX128", 19: "DT_HALF",
               20: "DT_RESOURCE", 21: "DT_VARIANT", 22: "DT_UINT32", 23: "DT_UINT64"}
DATA_TYPE_NAMES = dict(_ENUM_NAMES)
_ENUMS = {"DataType": _ENUM_NAMES}


class Message:
    """A protobuf-like message: attributes named by `FIELDS`; `str()` is text format."""

    FIELDS = ()
    ALWAYS = ()

    def __init__(self, **values):
        for name, kind in self.FIELDS:
            if isinstance(kind, str) and kind.startswith("*"):
                default = []
            elif isinstance(kind, str) and kind.startswith("map:"):
                default = {}
            elif isinstance(kind, str) and kind != "msg":
                default = _SCALAR_DEFAULTS[kind.split(":")[0]]
            else:
                default = None
            object.__setattr__(self, name, default)
        for name, value in values.items():
            if name not in self._field_names():
                raise TypeError(f"{type(self).__name__} has no field {name!r}")
            object.__setattr__(self, name, value)

    @classmethod
    def _field_names(cls):
        return {name for name, _ in cls.FIELDS}

    def ListFields(self):
        """(name, value) of the fields that are set, in field order."""
        return [(name, getattr(self, name)) for name, kind in self.FIELDS
                if _is_set(self, name, kind)]

    def HasField(self, name):
        kinds = dict(self.FIELDS)
        if name not in kinds:
            raise ValueError(f'Protocol message {type(self).__name__} has no field "{name}".')
        return _is_set(self, name, kinds[name])

    def __eq__(self, other):
        return type(self) is type(other) and str(self) == str(other)

    __hash__ = None

    def __str__(self):
        return text(self)

    def __repr__(self):
        return text(self)


_SCALAR_DEFAULTS = {"string": "", "bytes": b"", "int": 0, "float": 0.0, "double": 0.0,
                    "bool": False,
                    "enum": 0}


def _is_set(msg, name, kind):
    value = getattr(msg, name)
    if name in msg.ALWAYS:
        return value is not None
    if isinstance(kind, str) and kind.startswith(("*", "map:")):
        return bool(value)
    if isinstance(kind, str) and kind != "msg":
        return value != _SCALAR_DEFAULTS[kind.split(":")[0]]
    return value is not None and (bool(value.ListFields()) or name in msg.ALWAYS)


def text(msg, indent=""):
    """The text format of `msg`: each set field on its own line."""
    lines = []
    _write(msg, indent, lines)
    return "".join(line + "\n" for line in lines)


def _write(msg, indent, lines):
    for name, kind in msg.FIELDS:
        if not _is_set(msg, name, kind):
            continue
        value = getattr(msg, name)
        if isinstance(kind, str) and kind.startswith("map:"):
            for key in sorted(value):
                lines.append(f"{indent}{name} {{")
                lines.append(f"{indent}  key: {_quote(key)}")
                if kind == "map:str":
                    lines.append(f"{indent}  value: {_quote(value[key])}")
                else:
                    _write_message("value", value[key], indent + "  ", lines)
                lines.append(f"{indent}}}")
            continue
        repeated = isinstance(kind, str) and kind.startswith("*")
        base = kind[1:] if repeated else kind
        for item in (value if repeated else [value]):
            if isinstance(base, str) and base != "msg":
                lines.append(f"{indent}{name}: {_scalar(base, item)}")
            else:
                _write_message(name, item, indent, lines)


def _write_message(name, msg, indent, lines):
    lines.append(f"{indent}{name} {{")
    _write(msg, indent + "  ", lines)
    lines.append(f"{indent}}}")


def _scalar(kind, value):
    if kind == "string" or kind == "bytes":
        return _quote(value)
    if kind == "bool":
        return "true" if value else "false"
    if kind in ("float", "double"):
        return _float(value, kind == "double")
    if kind.startswith("enum:"):
        return _ENUMS[kind[5:]].get(int(value), str(int(value)))
    return str(int(value))


def _float(value, double=False):
    """Shortest text that reads back as the same float32 (or float64): "2", "0.1",
    "1e-07", "inf", as TensorFlow prints them."""
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    short = repr(float(value)) if double else str(np.float32(value))
    return short[:-2] if short.endswith(".0") else short


def _quote(value):
    data = value.encode("utf-8") if isinstance(value, str) else bytes(value)
    out = []
    for byte in data:
        ch = chr(byte)
        if ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch in "\"'\\":
            out.append("\\" + ch)
        elif 0x20 <= byte < 0x7F:
            out.append(ch)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'
