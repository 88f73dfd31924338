"""String ops of `tf.strings` on dense string tensors: `join`, `reduce_join`,
`length`, `lower`, `upper`, `strip`, `substr`, `regex_replace`,
`regex_full_match`, `to_number`, `as_string`, `to_hash_bucket_fast`, and
the splitting kernels (`split`, `unicode_split`, `unicode_decode`,
`bytes_split`) that return the flat pieces and the row splits of a ragged
result (runtime/_src/ragged wraps them into RaggedTensors).

Strings are bytes (UTF-8 when text matters), as TensorFlow's:

    length(constant(["héllo"]))                     # [6]  (bytes)
    length(constant(["héllo"]), unit="UTF8_CHAR")   # [5]
    to_hash_bucket_fast(constant(["a"]), 10)        # FarmHash Fingerprint64 % 10, as TF

Regular expressions are Python's `re` (TensorFlow's are RE2: the common
syntax agrees; RE2-only syntax is an error here). None of these ops has a
gradient (as in TensorFlow).
"""

import re

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.farmhash import fingerprint64

__all__ = ["join", "reduce_join", "length", "lower", "upper", "strip", "substr",
           "regex_replace", "regex_full_match", "to_number", "as_string",
           "to_hash_bucket_fast", "fingerprint", "split_flat", "unicode_split_flat", "unicode_decode_flat",
           "bytes_split_flat", "string_tensor"]


def _b(v):
    return v if isinstance(v, bytes) else str(v).encode("utf-8")


def _map(fn, value, out_dtype=object):
    arr = np.asarray(value, dtype=object)
    out = np.frompyfunc(lambda v: fn(_b(v)), 1, 1)(arr)
    return np.asarray(out, dtype=out_dtype).reshape(arr.shape)


def string_tensor(value, op):
    t = convert_to_tensor(value._as_tensor() if reads_as_tensor(value) else value)
    if t.dtype != dtypes.string:
        raise TypeError(f"{op}: expected a string tensor, got {t.dtype.name}")
    return t


def _like(dtype):
    return lambda inputs, attrs: [(dtype, inputs[0].shape)]


# --- elementwise ------------------------------------------------------------------------

@define_op("StringMap", infer=_like(dtypes.string))
def _string_map(x, *, fn):
    return _map(_STRING_FUNCS[fn[0]](*fn[1:]), x)


def _strip(b):
    return b.strip(b" \t\n\v\f\r")


_STRING_FUNCS = {
    "lower": lambda enc: lambda b: b.decode("utf-8").lower().encode("utf-8") if enc
    else b.lower(),
    "upper": lambda enc: lambda b: b.decode("utf-8").upper().encode("utf-8") if enc
    else b.upper(),
    "strip": lambda: _strip,
}


def _string_map_op(name, x, *fn):
    return apply("StringMap", [string_tensor(x, name)], {"fn": (name,) + fn})


def lower(input, encoding="", name=None):  # TensorFlow's name
    """`tf.strings.lower`: ASCII lower case (all of Unicode with encoding='utf-8')."""
    return _string_map_op("lower", input, bool(encoding))


def upper(input, encoding="", name=None):
    """`tf.strings.upper`: ASCII upper case (all of Unicode with encoding='utf-8')."""
    return _string_map_op("upper", input, bool(encoding))


def strip(input, name=None):
    """`tf.strings.strip`: leading and trailing whitespace removed."""
    return _string_map_op("strip", input)


def _units(b, unit):
    if unit == "BYTE":
        return b
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidArgumentError(f"Invalid UTF-8 string: {b!r}", "StringLength") from None


@define_op("StringLength", infer=_like(dtypes.int32))
def _string_length(x, *, unit):
    return _map(lambda b: len(_units(b, unit)), x, np.int32)


def _check_unit(unit, op):
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"{op}: unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}")
    return unit


def length(input, unit="BYTE", name=None):
    """`tf.strings.length`: bytes (or UTF-8 characters) in each string."""
    return apply("StringLength", [string_tensor(input, "length")],
                 {"unit": _check_unit(unit, "length")})


@define_op("Substr", infer=lambda inputs, attrs: [
    (dtypes.string, rules.broadcast_shapes(rules.broadcast_shapes(
        inputs[0].shape, inputs[1].shape), inputs[2].shape))])
def _substr(x, pos, size, *, unit):
    x, pos, size = np.broadcast_arrays(np.asarray(x, object), pos, size)
    out = np.empty(x.shape, object)
    for i in np.ndindex(x.shape):
        s = _units(_b(x[i]), unit)
        p = int(pos[i])
        if p > len(s) or p < -len(s):
            raise InvalidArgumentError(f"pos {p} out of range for string {_b(x[i])!r} at "
                                       f"index {i[0] if i else 0}", "Substr")
        p = p + len(s) if p < 0 else p
        piece = s[p:p + max(int(size[i]), 0)]
        out[i] = piece if isinstance(piece, bytes) else piece.encode("utf-8")
    return out


def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002 - TF's names
    """`tf.strings.substr`: `len` units from `pos` (negative: from the end)."""
    pos = convert_to_tensor(pos, dtypes.int32) if not hasattr(pos, "dtype") else pos
    size = convert_to_tensor(len, pos.dtype) if not hasattr(len, "dtype") else len
    return apply("Substr", [string_tensor(input, "substr"), pos, size],
                 {"unit": _check_unit(unit, "substr")})


def _regex(pattern, op):
    try:
        return re.compile(_b(pattern))
    except re.error as e:
        raise InvalidArgumentError(f"{op}: invalid pattern {pattern!r}: {e}", op) from None


_GROUP_REF = re.compile(rb"\\(\d)")


@define_op("RegexReplace", infer=_like(dtypes.string))
def _regex_replace(x, *, pattern, rewrite, replace_global):
    rx = _regex(pattern, "RegexReplace")
    repl = _GROUP_REF.sub(rb"\\g<\1>", _b(rewrite))
    return _map(lambda b: rx.sub(repl, b, count=0 if replace_global else 1), x)


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):
    """`tf.strings.regex_replace`: matches of `pattern` replaced by `rewrite`
    (\\1 names a group); only the first when replace_global=False."""
    for what, v in (("pattern", pattern), ("rewrite", rewrite)):
        if not isinstance(v, (str, bytes)):
            raise TypeError(f"regex_replace: {what} must be a Python string here, got {v!r}")
    _regex(pattern, "RegexReplace")
    return apply("RegexReplace", [string_tensor(input, "regex_replace")],
                 {"pattern": pattern, "rewrite": rewrite, "replace_global": replace_global})


@define_op("RegexFullMatch", infer=_like(dtypes.bool))
def _regex_full_match(x, *, pattern):
    rx = _regex(pattern, "RegexFullMatch")
    return _map(lambda b: rx.fullmatch(b) is not None, x, bool)


def regex_full_match(input, pattern, name=None):
    """`tf.strings.regex_full_match`: whether all of each string matches `pattern`."""
    if not isinstance(pattern, (str, bytes)):
        raise TypeError(f"regex_full_match: pattern must be a Python string, got {pattern!r}")
    _regex(pattern, "RegexFullMatch")
    return apply("RegexFullMatch", [string_tensor(input, "regex_full_match")],
                 {"pattern": pattern})


_INT_TEXT = re.compile(rb"^\s*[+-]?\d+\s*$")


def _to_number(b, dtype):
    try:
        if dtype.is_integer:
            if not _INT_TEXT.match(b):
                raise ValueError
            v = int(b)
            info = np.iinfo(dtype.np_dtype)
            if not info.min <= v <= info.max:
                raise ValueError
            return v
        return float(b)
    except ValueError:
        raise InvalidArgumentError(
            f"StringToNumberOp could not correctly convert string: {b.decode('utf-8', 'replace')}",
            "StringToNumber") from None


@define_op("StringToNumber", infer=lambda inputs, attrs: [(attrs["out_type"], inputs[0].shape)])
def _string_to_number(x, *, out_type):
    return _map(lambda b: _to_number(b, out_type), x, out_type.np_dtype)


def to_number(input, out_type=dtypes.float32, name=None):
    """`tf.strings.to_number`: each string parsed as `out_type`."""
    out_type = dtypes.as_dtype(out_type)
    if out_type not in (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64):
        raise TypeError(f"to_number: out_type must be float32, float64, int32 or int64, got "
                        f"{out_type.name}")
    return apply("StringToNumber", [string_tensor(input, "to_number")], {"out_type": out_type})


def _float_text(v, precision, scientific, shortest):
    if shortest:                  # the shortest text that reads back as the same value
        text = str(v)
        return text[:-2] if text.endswith(".0") else text
    spec = "e" if scientific else "f"
    return f"{v:.{6 if precision < 0 else precision}{spec}}"


@define_op("AsString", infer=_like(dtypes.string))
def _as_string(x, *, precision, scientific, shortest, width, fill):
    x = np.asarray(x)
    out = np.empty(x.shape, object)
    for i in np.ndindex(x.shape):
        v = x[i]
        if x.dtype == np.bool_:
            text = "true" if v else "false"
        elif x.dtype.kind == "f" or x.dtype == dtypes.bfloat16.np_dtype:
            text = _float_text(v, precision, scientific, shortest)
        else:
            text = str(int(v))
        if width > 0:
            text = text.rjust(width, fill or " ")
        out[i] = text.encode("utf-8")
    return out


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1,
              fill="", name=None):
    """`tf.strings.as_string`: numbers and bools as text (floats with 6 decimals
    unless `precision`/`scientific`/`shortest` say otherwise)."""
    t = convert_to_tensor(input._as_tensor() if reads_as_tensor(input) else input)
    if t.dtype == dtypes.string:
        raise TypeError("as_string: the input is already a string tensor")
    return apply("AsString", [t], {"precision": int(precision), "scientific": bool(scientific),
                                   "shortest": bool(shortest), "width": int(width),
                                   "fill": fill})


@define_op("StringToHashBucketFast", infer=_like(dtypes.int64))
def _hash_bucket(x, *, num_buckets):
    return _map(lambda b: fingerprint64(b) % num_buckets, x, np.int64)


def to_hash_bucket_fast(input, num_buckets, name=None):
    """`tf.strings.to_hash_bucket_fast`: FarmHash Fingerprint64 of each string
    modulo `num_buckets` (the same buckets as TensorFlow's)."""
    n = rules.static_int(num_buckets, "to_hash_bucket_fast", "num_buckets")
    if n < 1:
        raise ValueError(f"to_hash_bucket_fast: num_buckets must be >= 1, got {n}")
    return apply("StringToHashBucketFast", [string_tensor(input, "to_hash_bucket_fast")],
                 {"num_buckets": n})


# --- fingerprint -----------------------------------------------------------------

def _infer_fingerprint(inputs, attrs):
    shape = inputs[0].shape
    if shape.rank == 0:
        raise ValueError(f"Fingerprint: `data` should have at least one dimension: {shape}")
    batch = shape.dims[0] if shape.rank is not None else None
    return [(dtypes.uint8, TensorShape([batch, 8]))]


def _row_fingerprint(row):
    """FarmHash Fingerprint64 of one row: of its bytes (numbers), of its one
    string, or of the concatenated fingerprints of its strings (as TF's)."""
    if row.dtype != object:
        return fingerprint64(np.ascontiguousarray(row).tobytes())
    strings = [_b(v) for v in row]
    if len(strings) == 1:
        return fingerprint64(strings[0])
    return fingerprint64(np.array([fingerprint64(b) for b in strings], "<u8").tobytes())


@define_op("Fingerprint", infer=_infer_fingerprint)
def _fingerprint(data, *, method):
    if data.ndim == 0:
        raise InvalidArgumentError(f"`data` should have at least one dimension: "
                                   f"{list(data.shape)}", "Fingerprint")
    rows = data.reshape(len(data), int(np.prod(data.shape[1:], dtype=np.int64)))
    out = np.array([_row_fingerprint(row) for row in rows], "<u8")
    return out.view(np.uint8).reshape(len(data), 8)


not_differentiable("Fingerprint")


def fingerprint(data, method="farmhash64", name=None):
    """`tf.fingerprint`: an 8-byte FarmHash Fingerprint64 (little-endian
    uint8) of each row of `data` (its first dimension), as TF's."""
    if method != "farmhash64":
        raise ValueError(f"fingerprint: unsupported method {method!r}; TensorFlow knows "
                         "only 'farmhash64'")
    return apply("Fingerprint", [convert_to_tensor(data)], {"method": method})


# --- joining ----------------------------------------------------------------------------

@define_op("StringJoin", infer=lambda inputs, attrs: [(dtypes.string, _join_shape(inputs))])
def _string_join(*xs, separator):
    arrays = np.broadcast_arrays(*[np.asarray(x, object) for x in xs])
    out = np.empty(arrays[0].shape, object)
    sep = _b(separator)
    for i in np.ndindex(out.shape):
        out[i] = sep.join(_b(a[i]) for a in arrays)
    return out


def _join_shape(inputs):
    shape = TensorShape([])
    for t in inputs:
        shape = rules.broadcast_shapes(shape, t.shape)
    return shape


def join(inputs, separator="", name=None):
    """`tf.strings.join`: the strings of `inputs` joined elementwise (broadcast)."""
    tensors = [string_tensor(v, "join") for v in inputs]
    return apply("StringJoin", tensors, {"separator": separator})


def _infer_reduce_join(inputs, attrs):
    shape, axis, keep = inputs[0].shape, attrs["axis"], attrs["keepdims"]
    if shape.rank is None:
        return [(dtypes.string, TensorShape(None))]
    axes = range(shape.rank) if axis is None else [rules.normalize_axis(a, shape.rank)
                                                   for a in axis]
    dims = [1 if i in axes else d for i, d in enumerate(shape.dims)] if keep else \
        [d for i, d in enumerate(shape.dims) if i not in axes]
    return [(dtypes.string, TensorShape(dims))]


@define_op("ReduceJoin", infer=_infer_reduce_join)
def _reduce_join(x, *, axis, keepdims, separator):
    x = np.asarray(x, object)
    axes = tuple(range(x.ndim)) if axis is None else tuple(a % x.ndim for a in axis)
    rest = [i for i in range(x.ndim) if i not in axes]
    moved = np.transpose(x, rest + list(axes)).reshape([x.shape[i] for i in rest] + [-1])
    sep = _b(separator)
    out = np.empty(moved.shape[:-1], object)
    for i in np.ndindex(out.shape):
        out[i] = sep.join(_b(v) for v in moved[i])
    if keepdims:
        out = out.reshape([1 if i in axes else d for i, d in enumerate(x.shape)])
    return out


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """`tf.strings.reduce_join`: the strings along `axis` joined with `separator`."""
    axis = None if axis is None else rules.static_ints(axis, "reduce_join", "axis")
    return apply("ReduceJoin", [string_tensor(inputs, "reduce_join")],
                 {"axis": axis, "keepdims": bool(keepdims), "separator": separator})


# --- splitting: flat pieces + row splits -------------------------------------------------

def _infer_split(value_dtype):
    def infer(inputs, attrs):
        return [(value_dtype, TensorShape([None])), (dtypes.int64, TensorShape([None]))]
    return infer


def _flat_split(x, pieces, dtype):
    x = np.asarray(x, object).reshape(-1)
    values, splits = [], [0]
    for v in x:
        parts = pieces(_b(v))
        values.extend(parts)
        splits.append(splits[-1] + len(parts))
    return np.array(values, dtype=dtype).reshape(-1), np.array(splits, np.int64)


def _split_pieces(b, sep, maxsplit):
    if sep is None or sep == b"":
        return b.split(None, maxsplit) if maxsplit >= 0 else b.split()
    return b.split(sep, maxsplit)


@define_op("StringSplitV2", infer=_infer_split(dtypes.string), num_outputs=2)
def _string_split(x, *, sep, maxsplit):
    return _flat_split(x, lambda b: _split_pieces(b, sep, maxsplit), object)


def _chars(b):
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidArgumentError(f"Invalid UTF-8 string: {b!r}", "UnicodeDecode") from None


@define_op("UnicodeSplit", infer=_infer_split(dtypes.string), num_outputs=2)
def _unicode_split(x):
    return _flat_split(x, lambda b: [c.encode("utf-8") for c in _chars(b)], object)


@define_op("UnicodeDecode", infer=_infer_split(dtypes.int32), num_outputs=2)
def _unicode_decode(x):
    return _flat_split(x, lambda b: [ord(c) for c in _chars(b)], np.int32)


@define_op("BytesSplit", infer=_infer_split(dtypes.string), num_outputs=2)
def _bytes_split(x):
    return _flat_split(x, lambda b: [b[i:i + 1] for i in range(len(b))], object)


not_differentiable("StringMap", "StringLength", "Substr", "RegexReplace", "RegexFullMatch",
                   "StringToNumber", "AsString", "StringToHashBucketFast", "StringJoin",
                   "ReduceJoin", "StringSplitV2", "UnicodeSplit", "UnicodeDecode", "BytesSplit")


def split_flat(x, sep=None, maxsplit=-1):
    """(pieces, row_splits) of splitting each string of `x` (flattened)."""
    sep = None if sep is None else _b(sep)
    return apply("StringSplitV2", [string_tensor(x, "split")],
                 {"sep": sep, "maxsplit": int(maxsplit)})


def unicode_split_flat(x):
    return apply("UnicodeSplit", [string_tensor(x, "unicode_split")])


def unicode_decode_flat(x):
    return apply("UnicodeDecode", [string_tensor(x, "unicode_decode")])


def bytes_split_flat(x):
    return apply("BytesSplit", [string_tensor(x, "bytes_split")])
