"""Our checkpoint files: write them atomically, read them back safely.

A checkpoint at `prefix` is two files (format in docs/checkpoint_format.md):

    <prefix>.index                  JSON: the object graph and, per value, its
                                    dtype, shape, offset, length and CRC-32
    <prefix>.data-00000-of-00001    the values' bytes, one after another

Nothing is pickled and nothing in the files is executed: values are raw
little-endian bytes read with `numpy.frombuffer`, strings are length-prefixed.

Writing is atomic: both files are written under temporary names, flushed
to disk, then renamed, the index last. The index is what makes a prefix a
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

__all__ = ["FORMAT", "write", "read_index", "read_values", "data_path", "atomic_write"]

FORMAT = "runtime-checkpoint"
VERSION = 1
SHARDED_VERSION = 2        # written only with a sharding callback: several data files, slices


def data_path(prefix, shard=0, shards=1):
    return f"{prefix}.data-{shard:05d}-of-{shards:05d}"


def _encode(value):
    """(bytes, dtype name) of a numpy value."""
    arr = np.asarray(value)
    if arr.dtype.kind in "OSU":
        parts = []
        for item in arr.reshape(-1).tolist():
            b = item if isinstance(item, bytes) else str(item).encode("utf-8")
            parts.append(struct.pack("<Q", len(b)) + b)
        return b"".join(parts), "string"
    name = "bool" if arr.dtype.kind == "b" else arr.dtype.name
    return np.ascontiguousarray(arr, dtype=arr.dtype.newbyteorder("<")).tobytes(), name


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


def write(prefix, values, objects, shards=None):
    """Write `values` ({key: numpy value}) and the object graph `objects`
    (a JSON-able list) as a checkpoint at `prefix`. `shards` (from a sharding
    callback: [{key: {slice spec: numpy value}}]) spreads them over that many
    data files, a value sliced when its slice spec is not ""."""
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    if shards is None:
        blobs, tensors = _single(values)
        index = {"format": FORMAT, "version": VERSION,
                 "data_file": os.path.basename(data_path(prefix))}
    else:
        blobs, tensors = _sharded(shards, values)
        index = {"format": FORMAT, "version": SHARDED_VERSION,
                 "data_files": [os.path.basename(data_path(prefix, i, len(blobs)))
                                for i in range(len(blobs))]}
    index.update(objects=objects, tensors=tensors)
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
    atomic_write(index_path, json.dumps(index, indent=1, sort_keys=True).encode("utf-8"))
    _sync_directory(directory or ".")


def _single(values):
    """([data file bytes], tensors of the index) with every value in one file."""
    chunks, tensors, offset = [], {}, 0
    for key in sorted(values):
        data, dtype = _encode(values[key])
        tensors[key] = {"dtype": dtype, "shape": list(np.shape(values[key])),
                        "offset": offset, "length": len(data), "crc32": zlib.crc32(data)}
        chunks.append(data)
        offset += len(data)
    return [b"".join(chunks)], tensors


def _sharded(shards, values):
    """([bytes of each data file], tensors of the index) of a sharding
    callback's shards; a slice's entry also has its spec."""
    blobs, tensors = [], {}
    for i, shard in enumerate(shards):
        chunks, offset = [], 0
        for key in sorted(shard):
            for spec in sorted(shard[key]):
                value = np.asarray(shard[key][spec])
                data, dtype = _encode(value)
                where = {"shard": i, "offset": offset, "length": len(data),
                         "crc32": zlib.crc32(data)}
                full = np.shape(values[key]) if key in values else np.shape(value)
                entry = tensors.setdefault(key, {"dtype": dtype, "shape": list(full)})
                if spec.strip():
                    entry.setdefault("slices", []).append(
                        {"spec": spec.strip(), "shape": list(value.shape), **where})
                else:
                    entry.update(where)
                chunks.append(data)
                offset += len(data)
        blobs.append(b"".join(chunks))
    return blobs, tensors


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
