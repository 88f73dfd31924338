"""Our checkpoint files: write them atomically in TensorFlow's format, and
read back the JSON-indexed format earlier versions of this runtime wrote.

A checkpoint at `prefix` is TensorFlow's (tf_bundle_write.py writes it,
tf_bundle.py reads it; TensorFlow restores it too):

    <prefix>.index                  an SSTable: per value its dtype, shape,
                                    shard, offset, length and CRC-32C
    <prefix>.data-00000-of-00001    the values' bytes, then the object graph

Checkpoints written before (docs/checkpoint_format.md: a JSON index, raw
bytes with CRC-32s) still restore. Nothing is pickled and nothing in the
files is executed.

Writing is atomic: the files are written under temporary names, flushed to
disk, then renamed, the index last. The index is what makes a prefix a
checkpoint, so a crash mid-write leaves either the old checkpoint, no
checkpoint, or the new one, never a torn one (and the CRCs catch a damaged
data file).
"""

import json
import os
import struct
import zlib

import numpy as np

from runtime._src.core.errors import DataLossError, NotFoundError
from runtime._src.train import tf_bundle_write
from runtime._src.train.tf_bundle_write import object_graph_bytes

__all__ = ["FORMAT", "write", "read_index", "read_values", "data_path", "atomic_write"]

FORMAT = "runtime-checkpoint"
VERSION = 1
SHARDED_VERSION = 2        # was written with a sharding callback: several data files, slices


def data_path(prefix, shard=0, shards=1):
    return f"{prefix}.data-{shard:05d}-of-{shards:05d}"


def _fsync_write(path, data):
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def atomic_write(path, data):
    """Write `data` to `path` through a temporary file and a rename."""
    tmp = f"{path}.tmp{os.getpid()}"
    _fsync_write(tmp, data)
    os.replace(tmp, path)


def write(prefix, values, objects, shards=None, names=None):
    """Write `values` ({key: numpy value}) and the object graph `objects` (our
    node list) as a TensorFlow checkpoint at `prefix` (tf_bundle_write.py).
    `shards` (from a sharding callback: [{key: {slice spec: numpy value}}])
    spreads them over that many data files, a value sliced when its slice spec
    is not ""; `names` ({key: the variable's name}) fills TF's `full_name`."""
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    if shards is None:
        shards = [{key: {"": values[key]} for key in _node_order(objects, values)}]
    index, blobs = tf_bundle_write.bundle(shards, object_graph_bytes(objects, names or {}))
    temporary = []
    for i, blob in enumerate(blobs):
        path = data_path(prefix, i, len(blobs))
        temporary.append((f"{path}.tmp{os.getpid()}", path))
        _fsync_write(temporary[-1][0], blob)
    index_path = f"{prefix}.index"
    if os.path.exists(index_path):
        os.remove(index_path)        # the prefix stops being a checkpoint until renamed back
    for tmp, path in temporary:
        os.replace(tmp, path)
    atomic_write(index_path, index)
    _sync_directory(directory or ".")


def _node_order(objects, values):
    """The keys of `values` in the object graph's node order (a node's
    variable value, then its other tensors by name), as TensorFlow writes them."""
    keys = []
    for node in objects:
        if node.get("key") in values:
            keys.append(node["key"])
        for prefix in node.get("tensors", {}).values():
            keys.extend(sorted(k for k in values if k.startswith(prefix)))
    seen = set(keys)
    return keys + sorted(k for k in values if k not in seen)


def _sync_directory(directory):
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass                          # some filesystems refuse fsync on a directory
    finally:
        os.close(fd)


def index_bytes(prefix):
    """The bytes of `<prefix>.index`, or NotFoundError naming the path."""
    path = f"{prefix}.index"
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise NotFoundError(f"Unsuccessful TensorSliceReader constructor: Failed to find any "
                            f"matching files for {prefix}\nPlease double-check that the path "
                            "is correct. You may be missing the checkpoint suffix (e.g. the "
                            "'-1' in 'path/to/ckpt-1'); tf.train.latest_checkpoint(directory) "
                            "gives the newest one.") from None


def read_index(prefix, data):
    """The parsed JSON index of our format (`data`: the index file's bytes)."""
    try:
        index = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise DataLossError(f"{prefix}.index is neither a runtime checkpoint nor a "
                            "TensorFlow one (it may be damaged)") from None
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        raise DataLossError(f"{prefix}.index is not a runtime checkpoint")
    if index.get("version", 0) > SHARDED_VERSION:
        raise DataLossError(f"{prefix}.index has format version {index['version']}; this "
                            f"runtime reads up to {SHARDED_VERSION}: upgrade the package")
    return index


def read_values(prefix, index, keys=None):
    """{key: numpy value} of the index's tensors (all, or those in `keys`); a
    sliced value put together from its slices."""
    files = _DataFiles(prefix, index.get("data_files") or [index["data_file"]])
    out = {}
    for key, info in index["tensors"].items():
        if keys is not None and key not in keys:
            continue
        if "slices" not in info:
            out[key] = _decode(files.bytes(key, info), info)
            continue
        value = np.zeros(info["shape"], dtype=object if info["dtype"] == "string"
                         else np.dtype(info["dtype"]))
        for part in info["slices"]:
            _, offset, shape = _extents(part["spec"])
            where = tuple(slice(o, o + n) for o, n in zip(offset, shape))
            value[where] = _decode(files.bytes(key, part), {**info, "shape": part["shape"]})
        out[key] = value
    return out


def _extents(spec):
    """(full shape, offset, shape) of a slice spec "3 4 0,1:0,4"."""
    parts = spec.split()
    extents = [e.split(",") for e in parts[-1].split(":")]
    return ([int(d) for d in parts[:-1]], [int(o) for o, _ in extents],
            [int(n) for _, n in extents])


class _DataFiles:
    """The data files of one checkpoint, each read once when first needed."""

    def __init__(self, prefix, names):
        self.prefix, self.names, self.blobs = prefix, names, {}

    def bytes(self, key, info):
        """The checked bytes of one value (or slice) `info` describes."""
        shard = info.get("shard", 0)
        path = os.path.join(os.path.dirname(self.prefix), self.names[shard])
        if shard not in self.blobs:
            try:
                with open(path, "rb") as f:
                    self.blobs[shard] = f.read()
            except FileNotFoundError:
                raise DataLossError(f"{path}, the data file of checkpoint {self.prefix}, is "
                                    "missing") from None
        raw = self.blobs[shard][info["offset"]:info["offset"] + info["length"]]
        if len(raw) != info["length"] or zlib.crc32(raw) != info["crc32"]:
            raise DataLossError(f"Checksum does not match for {key!r} in {path}: the "
                                "checkpoint is damaged")
        return raw


def _decode(raw, info):
    shape = tuple(info["shape"])
    if info["dtype"] == "string":
        count = int(np.prod(shape, dtype=np.int64))
        items, pos = np.empty(count, dtype=object), 0
        for i in range(count):
            (n,) = struct.unpack_from("<Q", raw, pos)
            items[i] = bytes(raw[pos + 8:pos + 8 + n])
            pos += 8 + n
        return items.reshape(shape)
    dtype = np.dtype(info["dtype"]).newbyteorder("<")
    value = np.frombuffer(raw, dtype=dtype).reshape(shape)
    return value.astype(value.dtype.newbyteorder("="))
