"""`tf.io.decode_json_example`: JSON-encoded `tf.train.Example` protos
(protobuf's JSON mapping) to their binary form, with the bytes TensorFlow
gives: fields in the order the JSON has them, repeated numbers unpacked.

    decode_json_example('{"features": {"feature": {"a": {"int64List": '
                        '{"value": ["1", 2]}}}}}')
    # b'\\n\\x0b\\n\\t\\n\\x01a\\x12\\x04\\x1a\\x02\\x08\\x01\\x08\\x02' ...

Field names are accepted in lowerCamelCase or as in the .proto; int64
values as numbers or strings; floats as numbers, numeric strings, "NaN",
"Infinity" or "-Infinity"; bytes as base64 (standard or web-safe).
"""

import base64
import binascii
import json
import math
import struct

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core import protowire as wire
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.graph.op_registry import apply, define_op, not_differentiable

__all__ = ["decode_json_example"]

_KINDS = {"bytesList": 1, "bytes_list": 1, "floatList": 2, "float_list": 2,
          "int64List": 3, "int64_list": 3}


class _JsonError(ValueError):
    pass


def _fields_of(obj, where, allowed):
    if not isinstance(obj, dict):
        raise _JsonError(f"{where}: expected an object, got {json.dumps(obj)[:40]}")
    for k, v in obj.items():
        if k not in allowed:
            raise _JsonError(f"{where}: no such field: '{k}'")
        if v is not None:
            yield k, v


def _int64(v, where):
    if isinstance(v, bool) or not isinstance(v, (int, str, float)):
        raise _JsonError(f"{where}: expected an integer")
    try:
        n = int(v) if not isinstance(v, float) else None
    except ValueError:
        n = None
    if isinstance(v, float) and v == int(v):
        n = int(v)
    if n is None or not -(1 << 63) <= n < 1 << 63:
        raise _JsonError(f"{where}: expected an int64, got {json.dumps(v)}")
    return wire.varint_field(1, n)


def _float(v, where):
    special = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
    if isinstance(v, str):
        try:
            v = special[v] if v in special else float(v)
        except ValueError:
            raise _JsonError(f"{where}: expected a number, got {json.dumps(v)}") from None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise _JsonError(f"{where}: expected a number")
    return wire.key(1, 5) + struct.pack("<f", np.float32(v))


def _bytes(v, where):
    if not isinstance(v, str):
        raise _JsonError(f"{where}: expected a base64 string")
    text = v.replace("-", "+").replace("_", "/").rstrip("=")
    try:
        return wire.length_field(1, base64.b64decode(text + "=" * (-len(text) % 4),
                                                     validate=True))
    except binascii.Error:
        raise _JsonError(f"{where}: corrupt base64") from None


def _feature(obj, where):
    out, kind = b"", None
    for name, value_list in _fields_of(obj, where, _KINDS):
        if kind is not None:
            raise _JsonError(f"{where}: '{name}' has already been set (a Feature holds one "
                             "list)")
        kind = _KINDS[name]
        convert = {1: _bytes, 2: _float, 3: _int64}[kind]
        items = b""
        for _, values in _fields_of(value_list, f"{where}.{name}", ("value",)):
            if not isinstance(values, list):
                raise _JsonError(f"{where}.{name}.value: expected a list")
            items += b"".join(convert(v, f"{where}.{name}.value") for v in values)
        out = wire.length_field(kind, items)
    return out


def example_bytes(text):
    """The binary Example of one JSON text."""
    try:
        obj = json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise _JsonError(str(e)) from None
    out = b""
    for _, features in _fields_of(obj, "Example", ("features",)):
        entries = b""
        for _, table in _fields_of(features, "features", ("feature",)):
            if not isinstance(table, dict):
                raise _JsonError("features.feature: expected an object")
            for key, feature in table.items():
                entry = wire.length_field(1, key.encode("utf-8")) + wire.length_field(
                    2, _feature(feature, f"features.feature[{key!r}]"))
                entries += wire.length_field(1, entry)
        out += wire.length_field(1, entries)
    return out


@define_op("DecodeJSONExample", infer=lambda inputs, attrs: [(dtypes.string, inputs[0].shape)])
def _decode_json_example(data):
    data = np.asarray(data, object)
    out = np.empty(data.shape, object)
    flat_out = out.reshape(-1)
    for i, v in enumerate(data.reshape(-1)):
        try:
            flat_out[i] = example_bytes(bytes(v))
        except _JsonError as e:
            raise InvalidArgumentError(f"Error while parsing JSON: {e}") from None
    return out


not_differentiable("DecodeJSONExample")


def decode_json_example(json_examples, name=None):
    """`tf.io.decode_json_example`: binary Example protos of JSON-encoded ones."""
    t = json_examples if isinstance(json_examples, Tensor) else convert_to_tensor(
        json_examples, dtypes.string)
    if t.dtype != dtypes.string:
        raise TypeError(f"json_examples must be a string tensor, got {t.dtype.name}")
    return apply("DecodeJSONExample", [t])
