"""`tf.io`: `read_file`, `write_file`, `serialize_tensor`, `parse_tensor`.

`serialize_tensor` writes TensorFlow's own TensorProto bytes (the wire
format, encoded here by hand: dtype, shape, then the raw little-endian
`tensor_content`, or one `string_val` per element of a string tensor), so
bytes from TensorFlow parse here and ours parse in TensorFlow:

    serialize_tensor(constant([1, 2, 3]))
    # b'\\x08\\x03\\x12\\x04\\x12\\x02\\x08\\x03"\\x0c\\x01\\x00...'  (as TF 2.21)
    parse_tensor(that, tf.int32)      # [1, 2, 3]

`read_file` / `write_file` run when the graph runs (write_file is a side
effect, kept in program order); a missing file is `NotFoundError`.
"""

import os

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core import protowire as wire
from runtime._src.core.errors import InvalidArgumentError, NotFoundError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op, not_differentiable

__all__ = ["read_file", "write_file", "serialize_tensor", "parse_tensor"]

# TensorFlow's DataType enum values (types.proto).
_TYPE_CODES = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6,
               "string": 7, "int64": 9, "bool": 10, "float16": 19}
_CODE_TYPES = {v: k for k, v in _TYPE_CODES.items()}


def _scalar_string(inputs, attrs):
    return [(dtypes.string, TensorShape([]))]


def _text(value):
    v = value.item() if isinstance(value, np.ndarray) else value
    return v.decode("utf-8") if isinstance(v, bytes) else str(v)


@define_op("ReadFile", infer=_scalar_string, stateful=True)
def _read_file(filename):
    path = _text(filename)
    try:
        with open(path, "rb") as f:
            return np.array(f.read(), dtype=object)
    except FileNotFoundError:
        raise NotFoundError(f"{path}; No such file or directory", "ReadFile") from None


@define_op("WriteFile", infer=lambda inputs, attrs: [], side_effect=True, num_outputs=0)
def _write_file(filename, contents):
    path = _text(filename)
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    data = contents.item() if isinstance(contents, np.ndarray) else contents
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else str(data).encode("utf-8"))
    return ()


def _string_scalar(value, op, what):
    t = convert_to_tensor(value)
    if t.dtype != dtypes.string or t.shape.rank not in (0, None):
        raise TypeError(f"{op}: {what} must be a scalar string, got {t.dtype.name} of shape "
                        f"{t.shape}")
    return t


def read_file(filename, name=None):
    """`tf.io.read_file`: the bytes of the file, a scalar string tensor."""
    return apply("ReadFile", [_string_scalar(filename, "read_file", "filename")])


def write_file(filename, contents, name=None):
    """`tf.io.write_file`: write `contents` (a scalar string) to `filename`
    (its folders are made); returns None eagerly, as TF."""
    apply("WriteFile", [_string_scalar(filename, "write_file", "filename"),
                        _string_scalar(contents, "write_file", "contents")])


# --- TensorProto bytes (wire format: runtime/_src/core/protowire.py) --------------------

def encode_tensor_proto(value, dtype):
    """TensorProto bytes of numpy `value` with our `dtype`."""
    value = np.asarray(value)
    shape = b"".join(wire.length_field(2, wire.varint_field(1, d) if d else b"")
                     for d in value.shape)
    out = wire.varint_field(1, _TYPE_CODES[dtype.name]) + wire.length_field(2, shape)
    if dtype == dtypes.string:
        for v in value.ravel():
            out += wire.length_field(8, v if isinstance(v, bytes) else str(v).encode("utf-8"))
    elif value.size:
        out += wire.length_field(
            4, value.astype(value.dtype.newbyteorder("<"), copy=False).tobytes())
    return out


def decode_tensor_proto(data):
    """(numpy value, dtype name) of TensorProto bytes."""
    code, dims, content, strings = None, [], None, []
    for number, _, value in wire.fields(data):
        if number == 1:
            code = value
        elif number == 2:
            for n, _, dim in wire.fields(value):
                if n == 2:
                    dims.append(next((v for k, _, v in wire.fields(dim) if k == 1), 0))
        elif number == 4:
            content = value
        elif number == 8:
            strings.append(bytes(value))
    name = _CODE_TYPES.get(code)
    if name is None:
        raise ValueError(f"unsupported dtype code {code}")
    if name == "string":
        return np.array(strings, dtype=object).reshape(dims), name
    np_dtype = dtypes.as_dtype(name).np_dtype.newbyteorder("<")
    flat = np.frombuffer(content or b"", np_dtype) if content or not int(np.prod(dims)) else None
    if flat is None:
        raise ValueError("values in typed fields (float_val, ...) are not supported")
    return flat.astype(np_dtype.newbyteorder("="), copy=True).reshape(dims), name


@define_op("SerializeTensor", infer=_scalar_string)
def _serialize(value, *, dtype):
    return np.array(encode_tensor_proto(value, dtype), dtype=object)


@define_op("ParseTensor", infer=lambda inputs, attrs: [(attrs["out_type"], TensorShape(None))])
def _parse(serialized, *, out_type):
    data = serialized.item() if isinstance(serialized, np.ndarray) else serialized
    try:
        value, name = decode_tensor_proto(bytes(data))
    except (ValueError, IndexError) as e:
        raise InvalidArgumentError(f"Could not parse `serialized` as TensorProto ({e})",
                                   "ParseTensor") from None
    if name != out_type.name:
        raise InvalidArgumentError(f"Type mismatch between parsed tensor ({name}) and dtype "
                                   f"({out_type.name})", "ParseTensor")
    return value


not_differentiable("ReadFile", "WriteFile", "SerializeTensor", "ParseTensor")


def serialize_tensor(tensor, name=None):
    """`tf.io.serialize_tensor`: TensorFlow's TensorProto bytes of `tensor`."""
    t = convert_to_tensor(tensor._as_tensor() if hasattr(tensor, "_as_tensor") else tensor)
    return apply("SerializeTensor", [t], {"dtype": t.dtype})


def parse_tensor(serialized, out_type, name=None):
    """`tf.io.parse_tensor`: the tensor in TensorProto bytes; `out_type` must be
    its dtype (InvalidArgumentError otherwise)."""
    return apply("ParseTensor", [_string_scalar(serialized, "parse_tensor", "serialized")],
                 {"out_type": dtypes.as_dtype(out_type)})
