"""Read a checkpoint written by TensorFlow itself (its "tensor bundle").

TensorFlow writes `<prefix>.index` and `<prefix>.data-00000-of-00001`. The
index is a LevelDB-style SSTable (uncompressed): data blocks of
prefix-compressed `key -> value` entries, an index block pointing at them, and
a 48-byte footer ending in a magic number. Its values are protobufs: under
the empty key a `BundleHeaderProto` (number of shards), under every tensor
name a `BundleEntryProto` (dtype, shape, shard, offset and size of the bytes
in the data file). Numeric tensors are raw little-endian bytes; a string
tensor is the varint length of each element, a 4-byte checksum of those
lengths, then the elements' bytes. A tensor saved in slices (a sharding
policy such as `MaxShardSizePolicy` splits large ones) has an entry listing
its slices' extents and no bytes; each slice is an entry of its own under a
binary key (TensorFlow's "ordered code" of the name and the extents), with
its bytes in any shard.

This module decodes just that, with the standard library and numpy (no
protobuf package, no TensorFlow); nothing in the files is executed.

    entries = read_index("ckpt-1.index")     # {name: Entry(dtype, shape, ...)}
    value = read_tensor("ckpt-1", entries["w/.ATTRIBUTES/VARIABLE_VALUE"], header)
"""

import struct

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core import protowire as wire
from runtime._src.core.errors import DataLossError
from runtime._src.io.crc32c import crc32c, unmask

__all__ = ["is_tf_index", "read_index", "read_tensor", "slice_key", "Entry"]

_MAGIC = 0xDB4775248B80FB57
_FOOTER = 48

class Entry:
    """One tensor of the bundle: where its bytes are and what they hold."""

    __slots__ = ("name", "dtype", "shape", "shard", "offset", "size", "slices", "crc")

    def __init__(self, name, dtype, shape, shard, offset, size, slices=(), crc=None):
        self.name, self.dtype, self.shape = name, dtype, shape
        self.shard, self.offset, self.size = shard, offset, size
        self.slices = slices      # a sliced tensor: [([(start, length), ...], slice Entry)]
        self.crc = crc            # the masked CRC-32C of the bytes (None: not stored)


def is_tf_index(data):
    """True when `data` (an index file's bytes) ends with the SSTable magic."""
    return len(data) >= _FOOTER and struct.unpack_from("<Q", data, len(data) - 8)[0] == _MAGIC


# --- the SSTable --------------------------------------------------------------------

def _varint(data, pos):
    try:
        return wire.read_varint(data, pos)
    except wire.DecodeError:
        raise DataLossError("truncated varint in a TensorFlow checkpoint") from None


def _block_entries(data, offset, size):
    """(key, value) pairs of the block at `offset` (`size` bytes, trailer excluded)."""
    block = data[offset:offset + size]
    if len(block) < 4:
        raise DataLossError("truncated block in a TensorFlow checkpoint index")
    num_restarts = struct.unpack_from("<I", block, len(block) - 4)[0]
    end = len(block) - 4 - 4 * num_restarts
    pos, key = 0, b""
    while pos < end:
        shared, pos = _varint(block, pos)
        unshared, pos = _varint(block, pos)
        value_len, pos = _varint(block, pos)
        key = key[:shared] + block[pos:pos + unshared]
        pos += unshared
        yield key, block[pos:pos + value_len]
        pos += value_len


def _table(data):
    """Every (key, value) of the SSTable `data`, in key order."""
    if not is_tf_index(data):
        raise DataLossError("not a TensorFlow checkpoint index (bad magic number)")
    footer = len(data) - _FOOTER
    _, pos = _varint(data, footer)          # metaindex handle (unused)
    _, pos = _varint(data, pos)
    index_offset, pos = _varint(data, pos)
    index_size, _ = _varint(data, pos)
    for _, handle in _block_entries(data, index_offset, index_size):
        offset, p = _varint(handle, 0)
        size, _ = _varint(handle, p)
        yield from _block_entries(data, offset, size)


# --- the protobufs ----------------------------------------------------------------------

def _fields(msg):
    """(field number, value) of a protobuf message: ints for varints and fixed
    widths, bytes for length-delimited fields."""
    try:
        for number, _, value in wire.fields(msg):
            yield number, value
    except wire.DecodeError as e:
        raise DataLossError(f"a malformed protobuf in a TensorFlow checkpoint ({e})") from None


def _shape(msg):
    dims = []
    for number, value in _fields(msg):
        if number == 2:                       # dim { size: N }
            size = 0
            for n, v in _fields(value):
                if n == 1:
                    size = v - (1 << 64) if v >= 1 << 63 else v
            dims.append(size)
    return dims


def _extents(msg):
    """[(start, length)] of a TensorSliceProto (length -1: the whole dimension)."""
    out = []
    for number, extent in _fields(msg):
        if number == 1:
            fields = dict(_fields(extent))
            out.append((_signed(fields.get(1, 0)), _signed(fields.get(2, -1))))
    return out


def _signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def _entry(name, value):
    fields = {"dtype": 0, "shape": [], "shard": 0, "offset": 0, "size": 0, "crc": None}
    slices = []
    for number, v in _fields(value):
        if number == 1:
            fields["dtype"] = v
        elif number == 2:
            fields["shape"] = _shape(v)
        elif number in (3, 4, 5, 6):
            fields[("shard", "offset", "size", "crc")[number - 3]] = v
        elif number == 7:
            slices.append(_extents(v))
    return Entry(name, **fields), slices


def read_index(data):
    """({name: Entry}, number of shards) of a TensorFlow index file's bytes;
    a sliced tensor's Entry lists its slices' Entries."""
    entries, sliced, parts, shards = {}, {}, {}, 1
    for key, value in _table(data):
        if key == b"":
            shards = dict(_fields(value)).get(1, 1)
        elif key.startswith(b"\x00"):               # one slice of a sliced tensor
            parts[key] = value
        else:
            name = key.decode("utf-8")
            entries[name], slices = _entry(name, value)
            if slices:
                sliced[name] = slices
    for name, slices in sliced.items():
        found = []
        for extents in slices:
            raw = parts.get(slice_key(name, extents))
            if raw is None:
                raise DataLossError(f"{name}: a slice {extents} listed in the index is missing")
            found.append((extents, _entry(name, raw)[0]))
        entries[name].slices = found
    return entries, shards


def _ordered_unsigned(value):
    """TensorFlow's OrderedCode of a non-negative int: its byte count, then the bytes."""
    body = value.to_bytes((value.bit_length() + 7) // 8, "big") if value else b""
    return bytes([len(body)]) + body


def _ordered_signed(value):
    """TensorFlow's OrderedCode of a signed int (order-preserving, length in the
    leading bits of the first byte)."""
    magnitude = ~value if value < 0 else value
    length = (magnitude.bit_length() + 7) // 7
    if length == 1:
        return bytes([0x80 ^ (value & 0xFF)])
    raw = bytearray((value & ((1 << 80) - 1)).to_bytes(10, "big")[10 - length:])
    header = (0xFF00 >> length) & 0xFF if length <= 8 else 0xFF
    raw[0] ^= header
    if length > 8:
        raw[1] ^= (0xFF00 >> (length - 8)) & 0xFF
    return bytes(raw)


def slice_key(name, extents):
    """The index key of one slice of tensor `name` (TensorFlow's
    EncodeTensorNameSlice): 0, the escaped name, the rank, each (start, length)."""
    escaped = name.encode("utf-8").replace(b"\xff", b"\xff\x00").replace(b"\x00", b"\x00\xff")
    out = _ordered_unsigned(0) + escaped + b"\x00\x01" + _ordered_unsigned(len(extents))
    return out + b"".join(_ordered_signed(s) + _ordered_signed(n) for s, n in extents)


def dtype_name(entry):
    """Our dtype name of an entry ('float32'), or raise naming the entry."""
    try:
        found = dtypes.public_as_dtype(int(entry.dtype))
    except (TypeError, ValueError, KeyError):
        found = None
    if found is None or found.name == "variant":
        raise DataLossError(f"{entry.name}: TensorFlow dtype number "
                            f"{entry.dtype} is not supported")
    return found.name


def _numpy_dtype(entry):
    """The little-endian numpy dtype of an entry's bytes."""
    np_dtype = np.dtype(dtypes.public_as_dtype(int(entry.dtype)).as_numpy_dtype)
    return np_dtype.newbyteorder("<") if np_dtype.byteorder in "=><" else np_dtype


def read_tensor(prefix, entry, shards):
    """The numpy value of `entry` from `<prefix>.data-<shard>-of-<shards>`
    (a sliced tensor: its slices put together)."""
    if entry.slices:
        return _assemble(prefix, entry, shards)
    path = f"{prefix}.data-{entry.shard:05d}-of-{shards:05d}"
    with open(path, "rb") as f:
        f.seek(entry.offset)
        raw = f.read(entry.size)
    if len(raw) != entry.size:
        raise DataLossError(f"{entry.name}: {path} is truncated")
    name = dtype_name(entry)
    count = int(np.prod(entry.shape, dtype=np.int64))
    if name == "string":
        strings, checked = _strings(raw, count, entry)
        _check(prefix, entry, checked)
        return strings.reshape(entry.shape)
    _check(prefix, entry, raw)
    value = np.frombuffer(raw, dtype=_numpy_dtype(entry), count=count)
    return value.astype(value.dtype.newbyteorder("=")).reshape(entry.shape)


def _assemble(prefix, entry, shards):
    out = np.zeros(entry.shape, dtype=object if dtype_name(entry) == "string"
                   else _numpy_dtype(entry))
    for extents, part in entry.slices:
        where = tuple(slice(s, None if n < 0 else s + n) for s, n in extents)
        out[where] = read_tensor(prefix, part, shards)
    return out.astype(out.dtype.newbyteorder("="))


def _check(prefix, entry, checked):
    """DataLossError, TensorFlow's, when the CRC-32C of `checked` (a value's
    bytes as TF sums them) is not the one the entry stores."""
    if entry.crc is None:
        return
    actual, stored = crc32c(checked), unmask(entry.crc)
    if actual != stored:
        raise DataLossError(f"TensorBundle at {prefix} shard {entry.shard} ({entry.size} "
                            f"bytes): Checksum does not match: stored {stored} vs. "
                            f"calculated on the restored bytes {actual}")


def _strings(raw, count, entry):
    """(the elements of a string tensor's bytes, those bytes as TF sums
    them: each length as 4 bytes, the lengths' checksum, the elements)."""
    lengths, pos = [], 0
    for _ in range(count):
        n, pos = _varint(raw, pos)
        lengths.append(n)
    head = pos
    pos += 4                                   # masked crc32c of the lengths
    out = np.empty(count, dtype=object)
    for i, n in enumerate(lengths):
        out[i] = bytes(raw[pos:pos + n])
        pos += n
    if pos != len(raw):
        raise DataLossError(f"{entry.name}: string tensor bytes do not add up")
    sizes = b"".join(struct.pack("<I", n) if n < 1 << 32 else struct.pack("<Q", n)
                     for n in lengths)
    return out, sizes + raw[head:]


def object_graph(blob):
    """TensorFlow's TrackableObjectGraph (the `_CHECKPOINTABLE_OBJECT_GRAPH`
    string) as our object graph nodes: children by local name, the
    checkpoint key of a variable's value, and optimizer slot references."""
    nodes = []
    for number, obj in _fields(blob):
        if number != 1:
            continue
        node = {"children": []}
        for n, value in _fields(obj):
            if n == 1:                                   # children: ObjectReference
                ref = dict(_fields(value))
                node["children"].append([ref.get(2, b"").decode("utf-8"), ref.get(1, 0)])
            elif n == 2:                                 # attributes: SerializedTensor
                attr = dict(_fields(value))
                name = attr.get(1, b"").decode("utf-8")
                if name == "VARIABLE_VALUE":
                    node["key"] = attr.get(3, b"").decode("utf-8")
                else:                                    # a lookup table's tensors
                    node.setdefault("tensors", {})[name] = attr.get(3, b"").decode("utf-8")
            elif n == 3:                                 # slot_variables
                ref = dict(_fields(value))
                node.setdefault("slots", []).append(
                    [ref.get(1, 0), ref.get(2, b"").decode("utf-8"), ref.get(3, 0)])
        nodes.append(node)
    return nodes
