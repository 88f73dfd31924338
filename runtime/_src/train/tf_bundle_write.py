"""Write TensorFlow's checkpoint files (its "tensor bundle"), which
tf_bundle.py reads: TensorFlow restores what this writes, and the bytes are
TensorFlow's own for the same values and object graph.

`bundle(shards, graph)` gives the bytes of `<prefix>.index` and of each
`<prefix>.data-<i>-of-<n>`:

- a data file holds its tensors' bytes one after another: numbers raw and
  little-endian (bool one byte each), a string tensor as the varint length of
  each element, a 4-byte masked CRC-32C of those lengths (each taken as a
  4-byte little-endian int), then the elements' bytes;
- the index is a LevelDB-style SSTable (uncompressed, a restart point every 16
  keys, blocks of up to 256 KiB, each followed by its type byte and masked
  CRC-32C), mapping the empty key to a `BundleHeaderProto` and each tensor's
  name to a `BundleEntryProto` (dtype, shape, shard, offset, size, masked
  CRC-32C of the bytes; a tensor saved in slices lists its slices' extents,
  each slice an entry of its own under tf_bundle.slice_key).

The object graph (`_CHECKPOINTABLE_OBJECT_GRAPH`, a serialized
TrackableObjectGraph) is the last tensor of the first data file, or where a
sharding callback put it.
"""

import struct

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core import protowire as wire
from runtime._src.io.crc32c import crc32c, mask, masked_crc32c
from runtime._src.train.tf_bundle import slice_key

__all__ = ["bundle", "object_graph_bytes", "OBJECT_GRAPH"]

OBJECT_GRAPH = "_CHECKPOINTABLE_OBJECT_GRAPH"
_MAGIC = 0xDB4775248B80FB57
_BLOCK_SIZE = 262144
_RESTART_INTERVAL = 16
_STRING = 7


def tensor_bytes(value):
    """(bytes in a data file, TF dtype number, masked CRC-32C) of a numpy value."""
    arr = np.asarray(value)
    if arr.dtype.kind in "OSU":
        items = [b if isinstance(b, bytes) else str(b).encode("utf-8")
                 for b in arr.reshape(-1).tolist()]
        lengths = b"".join(wire.varint(len(b)) for b in items)
        checked = b"".join(struct.pack("<I", len(b)) if len(b) < 1 << 32
                           else struct.pack("<Q", len(b)) for b in items)
        check = struct.pack("<I", masked_crc32c(checked))
        body = b"".join(items)
        return lengths + check + body, _STRING, mask(crc32c(checked + check + body))
    enum = dtypes.as_dtype(arr.dtype).as_datatype_enum
    data = np.ascontiguousarray(arr, dtype=arr.dtype.newbyteorder("<")).tobytes()
    return data, enum, masked_crc32c(data)


def _shape_proto(shape):
    return b"".join(wire.length_field(2, wire.varint_field(1, d) if d else b"")
                    for d in shape)


def _entry_proto(dtype, shape, shard=0, offset=0, size=0, crc=None, slices=()):
    """A BundleEntryProto (proto3: fields at their default are left out)."""
    out = wire.varint_field(1, dtype) + wire.length_field(2, _shape_proto(shape))
    for number, n in ((3, shard), (4, offset), (5, size)):
        if n:
            out += wire.varint_field(number, n)
    if crc:
        out += wire.key(6, 5) + struct.pack("<I", crc)
    for extents in slices:
        out += wire.length_field(7, b"".join(
            wire.length_field(1, wire.varint_field(1, start) if start else b"")
            if length < 0 else
            wire.length_field(1, (wire.varint_field(1, start) if start else b"") +
                              wire.varint_field(2, length))
            for start, length in extents))
    return out


def _header_proto(shards):
    """A BundleHeaderProto: the number of shards, little-endian, producer version 1."""
    return wire.varint_field(1, shards) + wire.length_field(3, wire.varint_field(1, 1))


# --- the SSTable -----------------------------------------------------------------------

class _Block:
    """A block of prefix-compressed entries with a restart point every 16 keys."""

    def __init__(self):
        self.buf, self.restarts, self.count, self.last = bytearray(), [0], 0, b""

    def add(self, key, value):
        shared = 0
        if self.count < _RESTART_INTERVAL:
            limit = min(len(key), len(self.last))
            while shared < limit and key[shared] == self.last[shared]:
                shared += 1
        else:
            self.restarts.append(len(self.buf))
            self.count = 0
        self.buf += wire.varint(shared) + wire.varint(len(key) - shared) + wire.varint(len(value))
        self.buf += key[shared:] + value
        self.last, self.count = key, self.count + 1

    def size(self):
        return len(self.buf) + 4 * len(self.restarts) + 4

    def finish(self):
        return bytes(self.buf) + struct.pack(f"<{len(self.restarts) + 1}I", *self.restarts,
                                             len(self.restarts))


def _separator(start, limit):
    """A short key >= start and < limit (LevelDB's FindShortestSeparator)."""
    n = 0
    while n < min(len(start), len(limit)) and start[n] == limit[n]:
        n += 1
    if n < min(len(start), len(limit)) and start[n] < 0xFF and start[n] + 1 < limit[n]:
        return start[:n] + bytes([start[n] + 1])
    return start


def _successor(key):
    """A short key >= key (LevelDB's FindShortSuccessor)."""
    for i, byte in enumerate(key):
        if byte != 0xFF:
            return key[:i] + bytes([byte + 1])
    return key


def _handle(offset, size):
    return wire.varint(offset) + wire.varint(size)


def table_bytes(items):
    """The SSTable of `items` ((key bytes, value bytes), in increasing key order)."""
    out, index, block = bytearray(), _Block(), _Block()
    pending, last = None, b""

    def flush():
        nonlocal block
        contents = block.finish() + b"\x00"
        at = len(out)
        out.extend(contents + struct.pack("<I", masked_crc32c(contents)))
        block = _Block()
        return _handle(at, len(contents) - 1)

    for key, value in items:
        if pending is not None:
            index.add(_separator(last, key), pending)
            pending = None
        block.add(key, value)
        last = key
        if block.size() >= _BLOCK_SIZE:
            pending = flush()
    if block.count:
        pending = flush()
    metaindex = flush()
    if pending is not None:
        index.add(_successor(last), pending)
    block = index
    footer = metaindex + flush()
    return bytes(out) + footer + b"\x00" * (40 - len(footer)) + struct.pack("<Q", _MAGIC)


# --- the bundle ------------------------------------------------------------------------

def bundle(shards, graph):
    """(index bytes, [bytes of each data file]) of a checkpoint: `shards` is a
    list of {name: {slice spec: numpy value}} in write order (spec "" for a
    whole tensor, else "d0 d1 s0,l0:s1,l1"); `graph` the serialized object
    graph, written last in the first data file unless a shard holds it
    already (a sharding callback places it)."""
    entries, blobs, sliced = {}, [], {}
    placed = any(OBJECT_GRAPH in shard for shard in shards)
    for i, shard in enumerate(shards):
        chunks, offset = [], 0
        items = list(shard.items())
        if i == 0 and not placed:
            items.append((OBJECT_GRAPH, {"": np.array(graph, object)}))
        for name, pieces in items:
            for spec, value in pieces.items():
                data, dtype, crc = tensor_bytes(value)
                entry = _entry_proto(dtype, np.shape(value), i, offset, len(data), crc)
                if spec.strip():
                    full, extents = _spec(spec)
                    sliced.setdefault(name, [dtype, full, [], i])[2].append(extents)
                    entries[slice_key(name, extents)] = entry
                else:
                    entries[name.encode("utf-8")] = entry
                chunks.append(data)
                offset += len(data)
        blobs.append(b"".join(chunks))
    for name, (dtype, full, slices, first) in sliced.items():      # TF: the first slice's shard
        entries[name.encode("utf-8")] = _entry_proto(dtype, full, first, slices=sorted(slices))
    items = [(b"", _header_proto(len(blobs)))] + sorted(entries.items())
    return table_bytes(items), blobs


def _spec(spec):
    """(full shape, [(start, length)]) of a slice spec "3 4 0,1:0,4" ('-' is a whole dim)."""
    parts = spec.split()
    full = [int(d) for d in parts[:-1]]
    extents = []
    for extent in parts[-1].split(":"):
        if extent == "-":
            extents.append((0, -1))
        else:
            start, length = extent.split(",")
            extents.append((int(start), int(length)))
    return full, extents


# --- the object graph --------------------------------------------------------------------

def object_graph_bytes(nodes, names=None):
    """Our object graph nodes as TensorFlow's serialized TrackableObjectGraph
    (the inverse of tf_bundle.object_graph): per node its children, its
    tensors (a variable's VARIABLE_VALUE with `names`' full name of the
    variable), its optimizer slots, and whether it or a descendant holds a
    value (TF's `has_checkpoint_values`)."""
    names = names or {}
    valued = _valued(nodes)
    out = bytearray()
    for i, node in enumerate(nodes):
        obj = bytearray()
        for name, child in node.get("children", ()):
            obj += wire.length_field(1, wire.varint_field(1, child) +
                                     wire.length_field(2, name.encode()))
        attributes = dict(node.get("tensors", {}))
        if node.get("key"):
            attributes = {"VARIABLE_VALUE": node["key"], **attributes}
        for name, key in attributes.items():
            full = names.get(key, "")
            obj += wire.length_field(2, wire.length_field(1, name.encode()) +
                                     (wire.length_field(2, full.encode()) if full else b"") +
                                     wire.length_field(3, key.encode()))
        for original, slot_name, slot in node.get("slots", ()):
            obj += wire.length_field(3, wire.varint_field(1, original) +
                                     wire.length_field(2, slot_name.encode()) +
                                     wire.varint_field(3, slot))
        obj += wire.length_field(5, wire.varint_field(1, 1) if valued[i] else b"")
        out += wire.length_field(1, bytes(obj))
    return bytes(out)


def _valued(nodes):
    """Per node: whether it or anything below it holds a tensor."""
    valued = [bool(n.get("key") or n.get("tensors")) for n in nodes]
    changed = True
    while changed:
        changed = False
        for i, node in enumerate(nodes):
            if not valued[i] and any(valued[j] for _, j in node.get("children", ())):
                valued[i] = changed = True
    return valued
