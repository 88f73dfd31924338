"""More `tf.strings` ops on dense tensors: `to_hash_bucket` (TF's Hash64, a
MurmurHash64A with seed 0xDECAFCAFFE), `to_hash_bucket_strong` (SipHash-2-4
with the given 128-bit key), `unsorted_segment_join`, `unicode_encode`
(code points of the last axis to strings), `unicode_transcode` and
`unicode_script` (ICU script codes, from a table of TF 2.21's answers).

    to_hash_bucket(["hello"], 1000000007)              # [302950538], as TF 2.21
    to_hash_bucket_strong(["hello"], 1000000007, [1, 2])   # [889399473]
    unsorted_segment_join(["a", "b", "c"], [1, 0, 1], 2, separator="-")  # [b'b', b'a-c']

Invalid input with `errors="replace"` (the default) becomes
`replacement_char` (U+FFFD); `"ignore"` drops it; `"strict"` raises
InvalidArgumentError. None has a gradient.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.context import executing_eagerly
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops.text_ops import _b, string_tensor

__all__ = ["to_hash_bucket", "to_hash_bucket_strong", "unsorted_segment_join",
           "unicode_encode", "unicode_transcode", "unicode_script", "murmur_hash64", "siphash24",
           "char_offsets_flat"]

_M64 = (1 << 64) - 1


def murmur_hash64(data, seed=0xDECAFCAFFE):
    """TF's `Hash64`: MurmurHash64A of `data` (bytes)."""
    m, r = 0xc6a4a7935bd1e995, 47
    n = len(data)
    h = (seed ^ (n * m)) & _M64
    end = n - n % 8
    for i in range(0, end, 8):
        k = (int.from_bytes(data[i:i + 8], "little") * m) & _M64
        k = ((k ^ (k >> r)) * m) & _M64
        h = ((h ^ k) * m) & _M64
    if n > end:
        h = ((h ^ int.from_bytes(data[end:], "little")) * m) & _M64
    h = ((h ^ (h >> r)) * m) & _M64
    return h ^ (h >> r)


def _rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & _M64


def _sip_round(v0, v1, v2, v3):
    v0 = (v0 + v1) & _M64
    v1 = _rotl(v1, 13) ^ v0
    v0 = _rotl(v0, 32)
    v2 = (v2 + v3) & _M64
    v3 = _rotl(v3, 16) ^ v2
    v0 = (v0 + v3) & _M64
    v3 = _rotl(v3, 21) ^ v0
    v2 = (v2 + v1) & _M64
    v1 = _rotl(v1, 17) ^ v2
    return v0, v1, _rotl(v2, 32), v3


def siphash24(k0, k1, data):
    """SipHash-2-4 of `data` (bytes) under the key (k0, k1)."""
    v = [k0 ^ 0x736f6d6570736575, k1 ^ 0x646f72616e646f6d,
         k0 ^ 0x6c7967656e657261, k1 ^ 0x7465646279746573]
    n = len(data)
    end = n - n % 8
    words = [int.from_bytes(data[i:i + 8], "little") for i in range(0, end, 8)]
    words.append(((n & 0xff) << 56) | int.from_bytes(data[end:], "little"))
    for word in words:
        v[3] ^= word
        v = list(_sip_round(*_sip_round(*v)))
        v[0] ^= word
    v[2] ^= 0xff
    for _ in range(4):
        v = list(_sip_round(*v))
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def _map_strings(x, fn, out_dtype):
    flat = [fn(_b(v)) for v in x.reshape(-1)]
    return np.array(flat, dtype=out_dtype).reshape(x.shape)


def _same_shape(dtype):
    return lambda inputs, attrs: [(dtype, inputs[0].shape)]


@define_op("StringToHashBucket", infer=_same_shape(dtypes.int64))
def _to_hash_bucket(x, *, num_buckets):
    return _map_strings(x, lambda b: murmur_hash64(b) % num_buckets, np.int64)


@define_op("StringToHashBucketStrong", infer=_same_shape(dtypes.int64))
def _to_hash_bucket_strong(x, *, num_buckets, key):
    return _map_strings(x, lambda b: siphash24(key[0], key[1], b) % num_buckets, np.int64)


def _buckets(num_buckets, op):
    n = int(num_buckets)
    if n < 1:
        raise InvalidArgumentError(f"{op}: num_buckets must be >= 1, got {n}", op)
    return n


def to_hash_bucket(string_tensor_, num_buckets, name=None):
    """`tf.strings.to_hash_bucket`: TF's Hash64 of each string modulo `num_buckets`."""
    return apply("StringToHashBucket", [string_tensor(string_tensor_, "to_hash_bucket")],
                 {"num_buckets": _buckets(num_buckets, "StringToHashBucket")})


def to_hash_bucket_strong(input, num_buckets, key, name=None):  # TensorFlow's names
    """`tf.strings.to_hash_bucket_strong`: SipHash-2-4 under `key` (two
    uint64s) of each string, modulo `num_buckets`."""
    key = [int(k) & _M64 for k in key]
    if len(key) != 2:
        raise ValueError(f"to_hash_bucket_strong: key must have 2 elements, got {len(key)}")
    return apply("StringToHashBucketStrong", [string_tensor(input, "to_hash_bucket_strong")],
                 {"num_buckets": _buckets(num_buckets, "StringToHashBucketStrong"),
                  "key": tuple(key)})


# --- unsorted_segment_join ----------------------------------------------------------------

def _infer_segment_join(inputs, attrs):
    data, ids = inputs[0], inputs[1]
    if data.shape.rank is None or ids.shape.rank is None:
        return [(dtypes.string, TensorShape(None))]
    return [(dtypes.string, TensorShape([attrs["num_segments"]] +
                                        list(data.shape.dims[ids.shape.rank:])))]


@define_op("UnsortedSegmentJoin", infer=_infer_segment_join)
def _unsorted_segment_join(data, ids, *, num_segments, separator):
    inner = data.shape[ids.ndim:]
    rows = [np.asarray(r, dtype=object) for r in data.reshape((-1,) + inner)]
    pieces = [[] for _ in range(num_segments)]
    for row, segment in zip(rows, ids.reshape(-1)):
        if segment >= num_segments:
            raise InvalidArgumentError(f"segment_ids[{segment}] is out of range [0, "
                                       f"{num_segments})", "UnsortedSegmentJoin")
        if segment >= 0:
            pieces[segment].append(row)
    out = np.empty((num_segments,) + inner, dtype=object)
    for s, parts in enumerate(pieces):
        for index in np.ndindex(inner):
            out[(s,) + index] = separator.join(_b(p[index]) for p in parts)
    return out


not_differentiable("StringToHashBucket", "StringToHashBucketStrong", "UnsortedSegmentJoin")


def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    """`tf.strings.unsorted_segment_join`: the strings of each segment joined
    with `separator`, in input order (b'' for an empty segment; negative ids
    are dropped)."""
    ids = convert_to_tensor(segment_ids)
    return apply("UnsortedSegmentJoin", [string_tensor(inputs, "unsorted_segment_join"), ids],
                 {"num_segments": int(num_segments), "separator": _b(separator)})


# --- unicode_encode / unicode_transcode -----------------------------------------------------

_ENCODINGS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}


def _codec(encoding, what, allowed=_ENCODINGS):
    name = str(encoding).upper().replace("_", "-")
    if name not in allowed:
        raise ValueError(f"{what}: encoding must be one of {sorted(allowed)}, got "
                         f"{encoding!r}")
    return allowed[name]


def _check_errors(errors):
    if errors not in ("replace", "ignore", "strict"):
        raise ValueError(f"errors must be 'replace', 'ignore' or 'strict', got {errors!r}")


def encode_points(points, codec, errors, replacement):
    """The string of `points` (ints) in `codec`, invalid ones handled per `errors`."""
    chars = []
    for p in points:
        p = int(p)
        if 0 <= p <= 0x10FFFF and not 0xD800 <= p <= 0xDFFF:
            chars.append(chr(p))
        elif errors == "strict":
            raise InvalidArgumentError("Code point is out of range for Unicode, or is a "
                                       "surrogate.", "UnicodeEncode")
        elif errors == "replace":
            chars.append(chr(replacement))
    return "".join(chars).encode(codec)


def _infer_encode(inputs, attrs):
    shape = inputs[0].shape
    return [(dtypes.string, TensorShape(None if shape.rank is None else shape.dims[:-1]))]


@define_op("UnicodeEncodeDense", infer=_infer_encode)
def _unicode_encode(points, *, codec, errors, replacement):
    rows = points.reshape(-1, points.shape[-1]) if points.ndim else points.reshape(1, 1)
    out = np.array([encode_points(r, codec, errors, replacement) for r in rows], dtype=object)
    return out.reshape(points.shape[:-1])


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533,
                   name=None):  # TensorFlow's names
    """`tf.strings.unicode_encode` of a dense tensor: each row of code points
    (the last axis, padding included) becomes one string."""
    _check_errors(errors)
    points = convert_to_tensor(input)
    if points.dtype != dtypes.int32:
        raise TypeError(f"unicode_encode: input must be int32 code points, got "
                        f"{points.dtype.name}")
    return apply("UnicodeEncodeDense", [points], {
        "codec": _codec(output_encoding, "unicode_encode"), "errors": errors,
        "replacement": int(replacement_char)})


_INPUT_ENCODINGS = dict(_ENCODINGS, **{"ISO-8859-1": "latin-1", "US-ASCII": "ascii",
                                       "UTF-16-LE": "utf-16-le", "UTF-32-LE": "utf-32-le"})


def decode_points(data, codec, errors, replacement, replace_control):
    """The code points of `data` (bytes) in `codec`, invalid input per `errors`."""
    text = data.decode(codec, errors="surrogateescape" if errors != "strict" else "strict")
    points = []
    for ch in text:
        p = ord(ch)
        if 0xDC80 <= p <= 0xDCFF:              # an undecodable byte
            if errors == "replace":
                points.append(replacement)
            continue
        if replace_control and (p < 0x20 or 0x7F <= p < 0xA0) and ch not in "\t\n\r":
            p = replacement
        points.append(p)
    return points


@define_op("UnicodeTranscode", infer=_same_shape(dtypes.string))
def _unicode_transcode(x, *, source, target, errors, replacement, replace_control):
    def one(b):
        try:
            points = decode_points(b, source, errors, replacement, replace_control)
        except UnicodeDecodeError:
            raise InvalidArgumentError(f"Invalid formatting on input string {b!r}",
                                       "UnicodeTranscode") from None
        return encode_points(points, target, errors, replacement)
    return _map_strings(x, one, object)


not_differentiable("UnicodeEncodeDense", "UnicodeTranscode")


def unicode_transcode(input, input_encoding, output_encoding, errors="replace",
                      replacement_char=65533, replace_control_characters=False,
                      name=None):  # TensorFlow's names
    """`tf.strings.unicode_transcode`: each string decoded from
    `input_encoding` and encoded in `output_encoding`."""
    _check_errors(errors)
    return apply("UnicodeTranscode", [string_tensor(input, "unicode_transcode")], {
        "source": _codec(input_encoding, "unicode_transcode", _INPUT_ENCODINGS),
        "target": _codec(output_encoding, "unicode_transcode"), "errors": errors,
        "replacement": int(replacement_char),
        "replace_control": bool(replace_control_characters)})


# --- offsets of characters ------------------------------------------------------------------

def _char_offsets(b):
    """The byte offset where each UTF-8 character of `b` starts."""
    try:
        text = b.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidArgumentError(f"Invalid UTF-8 string: {b!r}", "UnicodeDecodeWithOffsets") \
            from None
    offsets, at = [], 0
    for ch in text:
        offsets.append(at)
        at += len(ch.encode("utf-8"))
    return offsets


def _infer_offsets(inputs, attrs):
    return [(dtypes.int64, TensorShape([None])), (dtypes.int64, TensorShape([None]))]


@define_op("UnicodeCharOffsets", infer=_infer_offsets, num_outputs=2)
def _unicode_char_offsets(x):
    values, splits = [], [0]
    for v in x.reshape(-1):
        offsets = _char_offsets(_b(v))
        values.extend(offsets)
        splits.append(splits[-1] + len(offsets))
    return np.array(values, np.int64), np.array(splits, np.int64)


not_differentiable("UnicodeCharOffsets")


def char_offsets_flat(x):
    """(start byte offsets, row_splits) of the characters of each string of `x`."""
    return apply("UnicodeCharOffsets", [string_tensor(x, "unicode_decode_with_offsets")])


# --- unicode_script -------------------------------------------------------------------------

_LAST_CODE_POINT = 0x10FFFF
_script_runs = []   # (starts, codes) arrays, built on first use


def _script_table():
    if not _script_runs:
        from runtime._src.ops.unicode_script_table import CODES, STARTS
        _script_runs.append((np.array(STARTS, np.int64), np.array(CODES, np.int32)))
    return _script_runs[0]


@define_op("UnicodeScript", infer=_same_shape(dtypes.int32))
def _unicode_script(x):
    starts, codes = _script_table()
    x = np.asarray(x)
    out = codes[np.searchsorted(starts, x, side="right") - 1]
    return np.where((x < 0) | (x > _LAST_CODE_POINT), np.int32(-1), out)  # USCRIPT_INVALID_CODE


def _int32_points(input):
    given_tensor = isinstance(input, Tensor) or reads_as_tensor(input)
    x = convert_to_tensor(input, None if given_tensor else dtypes.int32)
    if x.dtype == dtypes.int32:
        return x
    given = {"float32": "float", "float64": "double"}.get(x.dtype.name, x.dtype.name)
    if executing_eagerly():
        raise InvalidArgumentError(
            "cannot compute UnicodeScript as input #0(zero-based) was expected to be a int32 "
            f"tensor but is a {given} tensor [Op:UnicodeScript]", "UnicodeScript")
    raise TypeError(f"Input 'input' of 'UnicodeScript' Op has type {x.dtype.name} that does "
                    "not match expected type of int32.")


def unicode_script(input, name=None):  # TensorFlow's names
    """`tf.strings.unicode_script`: the ICU script code (`UScriptCode`) of each
    int32 code point, -1 for one outside 0..0x10FFFF; the same shape."""
    return apply("UnicodeScript", [_int32_points(input)], {})


not_differentiable("UnicodeScript")
