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


def data_path(prefix):
    return f"{prefix}.data-00000-of-00001"


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


def write(prefix, values, objects):
    """Write `values` ({key: numpy value}) and the object graph `objects`
    (a JSON-able list) as a checkpoint at `prefix`."""
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    chunks, tensors, offset = [], {}, 0
    for key in sorted(values):
        data, dtype = _encode(values[key])
        tensors[key] = {"dtype": dtype, "shape": list(np.shape(values[key])),
                        "offset": offset, "length": len(data), "crc32": zlib.crc32(data)}
        chunks.append(data)
        offset += len(data)
    index = {"format": FORMAT, "version": VERSION,
             "data_file": os.path.basename(data_path(prefix)),
             "objects": objects, "tensors": tensors}
    tmp_data = f"{data_path(prefix)}.tmp{os.getpid()}"
    _fsync_write(tmp_data, b"".join(chunks))
    index_path = f"{prefix}.index"
    if os.path.exists(index_path):
        os.remove(index_path)        # the prefix stops being a checkpoint until renamed back
    os.replace(tmp_data, data_path(prefix))
    atomic_write(index_path, json.dumps(index, indent=1, sort_keys=True).encode("utf-8"))
    _sync_directory(directory or ".")


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
    if index.get("version", 0) > VERSION:
        raise DataLossError(f"{prefix}.index has format version {index['version']}; this "
                            f"runtime reads up to {VERSION}: upgrade the package")
    return index


def read_values(prefix, index, keys=None):
    """{key: numpy value} of the index's tensors (all, or those in `keys`)."""
    path = os.path.join(os.path.dirname(prefix), index["data_file"])
    try:
        with open(path, "rb") as f:
            blob = f.read()
    except FileNotFoundError:
        raise DataLossError(f"{path}, the data file of checkpoint {prefix}, is missing") \
            from None
    out = {}
    for key, info in index["tensors"].items():
        if keys is not None and key not in keys:
            continue
        raw = blob[info["offset"]:info["offset"] + info["length"]]
        if len(raw) != info["length"] or zlib.crc32(raw) != info["crc32"]:
            raise DataLossError(f"Checksum does not match for {key!r} in {path}: the "
                                "checkpoint is damaged")
        out[key] = _decode(raw, info)
    return out


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
