"""`tf.io` decoding ops: `decode_raw`, `decode_csv`, `decode_compressed`,
`encode_base64` / `decode_base64` and `matching_files`. Each is an op, so it
runs eagerly, in a tf.function and in `dataset.map`.

    decode_raw(b"\\x01\\x00\\x02\\x00", tf.int16)         # [1, 2]
    decode_csv(["1,2.5,a"], [[0], [0.0], [""]])          # [[1], [2.5], [b'a']]
    encode_base64(b"hello")                              # b'aGVsbG8' (web-safe)
"""

import base64
import binascii
import glob
import re
import zlib

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.function.variables import Variable
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.io.csv_record import split_record
from runtime._src.io.tfrecord import inflate_error

__all__ = ["csv_default", "csv_field", "decode_base64", "decode_compressed", "decode_csv",
           "decode_raw", "encode_base64", "match_filenames_once", "matching_files"]


def _strings(value, what):
    t = value if isinstance(value, Tensor) else convert_to_tensor(value, dtypes.string)
    if t.dtype != dtypes.string:
        raise TypeError(f"{what} must be a string tensor, got {t.dtype.name}")
    return t


def _each(array, fn):
    """`fn` of every element of a string array, keeping its shape."""
    array = np.asarray(array, object)
    out = np.empty(array.shape, object)
    flat_in, flat_out = array.reshape(-1), out.reshape(-1)
    for i, v in enumerate(flat_in):
        flat_out[i] = fn(bytes(v))
    return out


def _same_shape(inputs, attrs):
    return [(dtypes.string, inputs[0].shape)]


# --- decode_raw -------------------------------------------------------------------------------

_RAW_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.uint16,
              dtypes.uint8, dtypes.int16, dtypes.int8, dtypes.int64, dtypes.complex64,
              dtypes.complex128, dtypes.bool)


def _infer_raw(inputs, attrs):
    dims = inputs[0].shape.dims
    width = attrs["fixed_length"] // attrs["out_type"].np_dtype.itemsize \
        if attrs["fixed_length"] else None
    return [(attrs["out_type"], TensorShape(None if dims is None else list(dims) + [width]))]


@define_op("DecodeRaw", infer=_infer_raw)
def _decode_raw(data, *, out_type, little_endian, fixed_length):
    data = np.asarray(data, object)
    np_dtype = out_type.np_dtype.newbyteorder("<" if little_endian else ">")
    size = np_dtype.itemsize
    flat = [bytes(v) for v in data.reshape(-1)]
    if fixed_length:
        flat = [v[:fixed_length].ljust(fixed_length, b"\x00") for v in flat]
    for i, v in enumerate(flat):
        if len(v) % size:
            raise InvalidArgumentError(f"Input to DecodeRaw has length {len(v)} that is not a "
                                       f"multiple of {size}, the size of {_c_name(out_type)}")
        if len(v) != len(flat[0]):
            raise InvalidArgumentError("DecodeRaw requires input strings to all be the same "
                                       f"size, but element {i} has size {len(flat[0])} != "
                                       f"{len(v)}")
    width = len(flat[0]) // size if flat else 0
    values = np.frombuffer(b"".join(flat), np_dtype).astype(out_type.np_dtype)
    return values.reshape(data.shape + (width,))


def _c_name(dtype):
    return {"float32": "float", "float64": "double", "float16": "Eigen::half"}.get(
        dtype.name, dtype.name)


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """`tf.io.decode_raw`: the bytes of each string as numbers of `out_type`
    (a new last dimension); `fixed_length` pads or cuts each string first."""
    out_type = dtypes.as_dtype(out_type)
    if out_type not in _RAW_TYPES:
        raise InvalidArgumentError(f"Value for attr 'out_type' of {out_type.name} is not in "
                                   "the list of allowed values: half, float, double, int32, "
                                   "uint16, uint8, int16, int8, int64, complex64, complex128, "
                                   "bool")
    length = 0 if fixed_length is None else int(fixed_length)
    if length % out_type.np_dtype.itemsize:
        raise InvalidArgumentError(f"fixed_length ({length}) must be a multiple of the size "
                                   f"of out_type ({out_type.np_dtype.itemsize})")
    return apply("DecodeRaw", [_strings(input_bytes, "input_bytes")],
                 {"out_type": out_type, "little_endian": bool(little_endian),
                  "fixed_length": length})


# --- decode_csv -------------------------------------------------------------------------------

_CSV_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.string)
_INT = re.compile(rb"\s*[+-]?\d+\s*\Z")
_FLOAT = re.compile(rb"\s*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf|infinity|nan)"
                    rb"\s*\Z", re.IGNORECASE)


def csv_field(text, dtype, col, record):
    """The value of one CSV field of `dtype`; `record` words the error ("record
    3" for decode_csv, "record" for CsvDataset)."""
    if dtype == dtypes.string:
        return text
    pattern = _FLOAT if dtype.is_floating else _INT
    value = None
    if pattern.match(text):
        value = float(text) if dtype.is_floating else int(text)
        if not dtype.is_floating:
            info = np.iinfo(dtype.np_dtype)
            value = value if info.min <= value <= info.max else None
    if value is None:
        word = {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)
        raise InvalidArgumentError(f"Field {col} in {record} is not a valid {word}: "
                                   f"{text.decode('utf-8', 'replace')}")
    return value


def _infer_csv(inputs, attrs):
    return [(d, inputs[0].shape) for d in attrs["types"]]


@define_op("DecodeCSV", infer=_infer_csv, num_outputs=None)
def _decode_csv(records, *defaults, types, field_delim, use_quote_delim, na_value,
                select_cols):
    records = np.asarray(records, object)
    flat = records.reshape(-1)
    columns = [[] for _ in types]
    wanted = select_cols or tuple(range(len(types)))
    for row, record in enumerate(flat):
        fields = split_record(bytes(record), field_delim, use_quote_delim)
        if (len(fields) != len(types)) if not select_cols else len(fields) <= wanted[-1]:
            raise InvalidArgumentError(f"Expect {len(types) if not select_cols else wanted[-1] + 1} "
                                       f"fields but have {len(fields)} in record {row}")
        for i, (col, dtype) in enumerate(zip(wanted, types)):
            text = fields[col]
            if text == b"" or text == na_value:
                if np.asarray(defaults[i]).size == 0:
                    raise InvalidArgumentError(f"Field {i} is required but missing in record "
                                               f"{row}!")
                columns[i].append(np.asarray(defaults[i]).reshape(-1)[0])
            else:
                columns[i].append(csv_field(text, dtype, i, f"record {row}"))
    out = []
    for values, dtype in zip(columns, types):
        array = np.empty(len(values), object if dtype == dtypes.string else dtype.np_dtype)
        array[:] = values
        out.append(array.reshape(records.shape))
    return out


def csv_default(value, i):
    t = value if isinstance(value, Tensor) else convert_to_tensor(value)
    if t.dtype not in _CSV_TYPES:
        raise InvalidArgumentError(f"Value for attr 'OUT_TYPE' of {t.dtype.name} is not in the "
                                   "list of allowed values: float, double, int32, int64, "
                                   "string")
    dims = t.shape.dims
    n = None if dims is None or None in dims else int(np.prod(dims, dtype=np.int64))
    if n is not None and n > 1:
        raise InvalidArgumentError(f"There should only be 1 default per field but field {i} "
                                   f"has {n}")
    return t


def _check_select(select_cols, count):
    if select_cols is None:
        return ()
    cols = tuple(int(c) for c in select_cols)
    if any(b <= a for a, b in zip(cols, cols[1:])):
        raise ValueError("select_cols is not strictly increasing.")
    if cols and cols[0] < 0:
        raise ValueError("select_cols contains negative values.")
    if len(cols) != count:
        raise ValueError("Length of select_cols and record_defaults do not match.")
    return cols


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, na_value="",
               select_cols=None, name=None):
    """`tf.io.decode_csv`: one tensor per column of CSV records; each
    column's dtype and default (used for an empty or `na_value` field; an
    empty default makes the field required) come from `record_defaults`."""
    defaults = [csv_default(v, i) for i, v in enumerate(record_defaults)]
    cols = _check_select(select_cols, len(defaults))
    if len(field_delim) != 1:
        raise InvalidArgumentError("field_delim should be only 1 char")
    na = na_value.encode("utf-8") if isinstance(na_value, str) else bytes(na_value)
    return list(apply("DecodeCSV", [_strings(records, "records")] + defaults, {
        "types": tuple(d.dtype for d in defaults),
        "field_delim": field_delim.encode("utf-8") if isinstance(field_delim, str)
        else bytes(field_delim),
        "use_quote_delim": bool(use_quote_delim), "na_value": na, "select_cols": cols}))


# --- compression, base64, files ----------------------------------------------------------------

_WBITS = {"ZLIB": zlib.MAX_WBITS, "GZIP": 16 + zlib.MAX_WBITS}


def _inflate(data, compression_type):
    if not compression_type:
        return data
    try:
        return zlib.decompress(data, _WBITS[compression_type])
    except zlib.error as e:
        raise inflate_error(e) from None


@define_op("DecodeCompressed", infer=_same_shape)
def _decode_compressed(data, *, compression_type):
    return _each(data, lambda v: _inflate(v, compression_type))


def decode_compressed(bytes, compression_type="", name=None):  # noqa: A002 - TF's name
    """`tf.io.decode_compressed`: each string inflated ('' / 'ZLIB' / 'GZIP')."""
    kind = compression_type.upper() if compression_type else ""
    if kind not in ("", "ZLIB", "GZIP"):
        raise InvalidArgumentError("Only ZLIB, GZIP or NONE are supported compressions")
    return apply("DecodeCompressed", [_strings(bytes, "bytes")], {"compression_type": kind})


@define_op("EncodeBase64", infer=_same_shape)
def _encode_base64(data, *, pad):
    def one(v):
        out = base64.urlsafe_b64encode(v)
        return out if pad else out.rstrip(b"=")
    return _each(data, one)


_B64 = re.compile(rb"[A-Za-z0-9_-]*={0,2}\Z")


def _b64decode(v):
    if not _B64.match(v):
        raise InvalidArgumentError("Invalid character found in base64.")
    body = v.rstrip(b"=")
    if len(body) % 4 == 1:
        raise InvalidArgumentError("Base64 string length cannot be 1 modulo 4.")
    try:
        return base64.urlsafe_b64decode(body + b"=" * (-len(body) % 4))
    except binascii.Error:
        raise InvalidArgumentError("Invalid character found in base64.") from None


@define_op("DecodeBase64", infer=_same_shape)
def _decode_base64(data):
    return _each(data, _b64decode)


def encode_base64(input, pad=False, name=None):  # noqa: A002 - TF's name
    """`tf.io.encode_base64`: web-safe base64 ('-' and '_'), '=' padding only
    with `pad`."""
    return apply("EncodeBase64", [_strings(input, "input")], {"pad": bool(pad)})


def decode_base64(input, name=None):  # noqa: A002 - TF's name
    """`tf.io.decode_base64`: the bytes of web-safe base64 strings."""
    return apply("DecodeBase64", [_strings(input, "input")])


@define_op("MatchingFiles", infer=lambda inputs, attrs: [(dtypes.string, TensorShape([None]))],
           stateful=True)
def _matching_files(patterns):
    out = []
    for p in np.asarray(patterns, object).reshape(-1):
        out.extend(glob.glob(bytes(p).decode("utf-8")))
    return np.array([f.encode("utf-8") for f in sorted(out)], object).reshape(-1)


def matching_files(pattern, name=None):
    """`tf.io.matching_files`: the paths matching a glob pattern (or any of
    a vector of them), sorted."""
    return apply("MatchingFiles", [_strings(pattern, "pattern")])


def match_filenames_once(pattern, name=None):
    """`tf.io.match_filenames_once`: a non-trainable string Variable holding
    the files matching `pattern` now."""
    return Variable(matching_files(pattern), trainable=False, name=name)


not_differentiable("DecodeRaw", "DecodeCSV", "DecodeCompressed", "EncodeBase64",
                   "DecodeBase64", "MatchingFiles")
