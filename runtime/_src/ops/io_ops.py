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
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.graph.op_registry import apply, define_op, not_differentiable

__all__ = ["read_file", "write_file", "serialize_tensor", "parse_tensor"]

# TensorFlow's DataType enum values (types.proto).
_TYPE_CODES = {"float32": 1, "float64": 2, "int32": 3, "uint8": 4, "int16": 5, "int8": 6,
               "string": 7, "int64": 9, "bool": 10, "bfloat16": 14, "float16": 19}
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


# The typed value fields of TensorProto: number -> (wire element, numpy type read)
_TYPED = {5: ("<f4", None), 6: ("<f8", None), 7: ("varint", np.int64), 10: ("varint", np.int64),
          11: ("varint", np.int64), 13: ("varint", np.uint16), 16: ("varint", np.uint64),
          17: ("varint", np.uint64)}


def _typed_values(number, wt, value):
    """The values one occurrence of a typed field holds (packed or not)."""
    element, kind = _TYPED[number]
    if element != "varint":
        width = np.dtype(element).itemsize
        raw = value if wt == 2 else value.to_bytes(width, "little")
        return list(np.frombuffer(raw, element))
    ints = wire.packed_varints(value) if wt == 2 else [value]
    if kind is np.int64:
        return [wire.signed64(v) for v in ints]
    return ints


def decode_tensor_proto(data):
    """(numpy value, dtype name) of TensorProto bytes: values from
    `tensor_content`, or from the typed fields (float_val, int_val, ...),
    whose last value fills the rest of the shape, as TensorFlow reads them."""
    code, dims, content, strings, typed = None, [], None, [], []
    for number, wt, value in wire.fields(data):
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
        elif number in _TYPED:
            typed.append((number, _typed_values(number, wt, value)))
    name = _CODE_TYPES.get(code)
    if name is None:
        raise ValueError(f"unsupported dtype code {code}")
    size = int(np.prod(dims, dtype=np.int64))
    if name == "string":
        if content is not None:
            strings = _string_content(bytes(content), size)
        return np.array(_filled(strings, size, b""), dtype=object).reshape(dims), name
    np_dtype = dtypes.as_dtype(name).np_dtype
    if content is not None:
        flat = np.frombuffer(content, np_dtype.newbyteorder("<"))
        return flat.astype(np_dtype, copy=True).reshape(dims), name
    values = [v for _, vs in typed for v in vs]
    if name in ("float16", "bfloat16"):
        values = list(np.array(values, np.uint16).view(np_dtype))
    return np.array(_filled(values, size, 0), np_dtype).reshape(dims), name


def _string_content(content, size):
    """The strings of a string tensor's `tensor_content`: `size` varint
    lengths, then the bytes of each (as serialize_sparse writes them)."""
    lengths, pos = [], 0
    for _ in range(size):
        n, pos = wire.read_varint(content, pos)
        lengths.append(n)
    out = []
    for n in lengths:
        out.append(content[pos:pos + n])
        pos += n
    return out


def string_content_field(values):
    """TensorProto's `tensor_content` field (4) for string values."""
    data = [v if isinstance(v, bytes) else str(v).encode("utf-8") for v in values]
    return wire.length_field(4, b"".join(wire.varint(len(v)) for v in data) + b"".join(data))


def _filled(values, size, zero):
    if len(values) > size:
        raise ValueError(f"{len(values)} values for a tensor of {size} elements")
    if not values:
        return [zero] * size
    return list(values) + [values[-1]] * (size - len(values))


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
    t = convert_to_tensor(tensor._as_tensor() if reads_as_tensor(tensor) else tensor)
    return apply("SerializeTensor", [t], {"dtype": t.dtype})


def parse_tensor(serialized, out_type, name=None):
    """`tf.io.parse_tensor`: the tensor in TensorProto bytes; `out_type` must be
    its dtype (InvalidArgumentError otherwise)."""
    return apply("ParseTensor", [_string_scalar(serialized, "parse_tensor", "serialized")],
                 {"out_type": dtypes.as_dtype(out_type)})
