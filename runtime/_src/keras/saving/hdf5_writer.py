"""A small writer of HDF5 files, the subset Keras 3's weights files use, without h5py.

    data = write_datasets({"layers/dense/vars/0": kernel, "layers/dense/vars/1": bias},
                          groups=["layers/flatten/vars"])      # bytes of an HDF5 file

It writes what saving/hdf5.py reads (and what h5py reads): superblock version 0,
version-1 object headers, groups as symbol tables (a one-level version-1
B-tree over symbol nodes, names in a local heap, sorted as HDF5 looks them
up), and datasets of little-endian integers or IEEE floats stored
contiguously. Every offset and length is 8 bytes; every block starts at a
multiple of 8.
"""

import struct

import numpy as np

from runtime._src.keras.saving.hdf5 import HDF5_SIGNATURE

__all__ = ["write_datasets"]

_UNDEFINED = (1 << 64) - 1
_LEAF_K = 16              # a symbol node holds up to 2K = 32 names
_INTERNAL_K = 16          # a B-tree node points to up to 2K = 32 symbol nodes
_SUPERBLOCK_SIZE = 96
_NO_FREE_BLOCK = 1        # the HDF5 library's end of a local heap's free list (H5HL_FREE_NULL)


def _pad8(data):
    return data + b"\0" * (-len(data) % 8)


class _Writer:
    """Appends blocks to a file image; `at` is where the next block starts."""

    def __init__(self):
        self.blocks = []
        self.at = _SUPERBLOCK_SIZE

    def add(self, data):
        address = self.at
        data = _pad8(data)
        self.blocks.append(data)
        self.at += len(data)
        return address


def _object_header(messages):
    """A version-1 object header of (type, body) messages, each padded to 8 bytes."""
    body = b"".join(struct.pack("<HHB3x", kind, len(_pad8(data)), 0) + _pad8(data)
                    for kind, data in messages)
    return struct.pack("<BBHII4x", 1, 0, len(messages), 1, len(body)) + body


def _datatype(dtype):
    """The datatype message body of a numpy dtype (little-endian ints, IEEE floats)."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        flags = 0x08 if dtype.kind == "i" else 0
        return struct.pack("<BBBBIHH", 0x10, flags, 0, 0, dtype.itemsize, 0,
                           dtype.itemsize * 8)
    if dtype.kind == "f" and dtype.itemsize in (4, 8):
        bits = dtype.itemsize * 8
        exponent, mantissa, bias = (8, 23, 127) if bits == 32 else (11, 52, 1023)
        return struct.pack("<BBBBIHHBBBBI", 0x11, 0x20, bits - 1, 0, dtype.itemsize, 0,
                           bits, mantissa, exponent, 0, mantissa, bias)
    raise ValueError(f"HDF5 writer: dtype {dtype} is not supported (integers and float32 / "
                     "float64 are)")


def _dataset(writer, array):
    array = np.asarray(array, order="C")       # (ascontiguousarray makes scalars 1-d)
    if array.dtype.byteorder == ">":
        array = array.astype(array.dtype.newbyteorder("<"))
    raw = array.tobytes()
    address = writer.add(raw) if raw else _UNDEFINED
    space = struct.pack("<BBBB", 2, array.ndim, 0, 1 if array.ndim else 0) + b"".join(
        struct.pack("<Q", d) for d in array.shape)          # version 2: scalar or simple
    layout = struct.pack("<BBQQ", 3, 1, address, len(raw))
    fill = struct.pack("<BBBB", 2, 1, 0, 0)       # allocated early, no fill value defined
    return writer.add(_object_header([(0x0001, space), (0x0003, _datatype(array.dtype)),
                                      (0x0005, fill), (0x0008, layout)]))


def _group(writer, children):
    """A group of {name: object header address}; the address of its header."""
    names = sorted(children, key=lambda n: n.encode("utf-8"))
    heap_data = b"\0" * 8
    offsets = {}
    for name in names:
        offsets[name] = len(heap_data)
        heap_data += _pad8(name.encode("utf-8") + b"\0")
    data_at = writer.add(heap_data)
    heap = writer.add(b"HEAP" + struct.pack("<B3xQQQ", 0, len(heap_data), _NO_FREE_BLOCK,
                                            data_at))
    chunks = [names[i:i + 2 * _LEAF_K] for i in range(0, len(names), 2 * _LEAF_K)]
    if len(chunks) > 2 * _INTERNAL_K:
        raise ValueError(f"HDF5 writer: a group of {len(names)} entries is too large")
    nodes = []
    for chunk in chunks:
        entries = b"".join(struct.pack("<QQII16x", offsets[n], children[n], 0, 0)
                           for n in chunk)
        node = b"SNOD" + struct.pack("<BBH", 1, 0, len(chunk)) + entries
        nodes.append(writer.add(node.ljust(8 + 2 * _LEAF_K * 40, b"\0")))
    keys = [0] + [offsets[chunk[-1]] for chunk in chunks]
    tree = b"TREE" + struct.pack("<BBHQQ", 0, 0, len(nodes), _UNDEFINED, _UNDEFINED)
    for key, node in zip(keys, nodes):
        tree += struct.pack("<QQ", key, node)
    tree += struct.pack("<Q", keys[-1])
    size = 24 + (2 * _INTERNAL_K + 1) * 8 + 2 * _INTERNAL_K * 8
    btree = writer.add(tree.ljust(size, b"\0"))
    return writer.add(_object_header([(0x0011, struct.pack("<QQ", btree, heap))])), btree, heap


def _tree(paths):
    """A nested dict of group names, datasets at the leaves (their path)."""
    root = {}
    for path, value in paths:
        node = root
        parts = path.split("/")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        if value is None:
            node.setdefault(parts[-1], {})
        else:
            node[parts[-1]] = value
    return root


def write_datasets(datasets, groups=()):
    """The bytes of an HDF5 file holding `datasets` ({path: array}) and the
    (possibly empty) groups in `groups`."""
    writer = _Writer()

    def emit(node):
        """(header, B-tree, heap) addresses of the group `node`, children first."""
        children = {name: emit(child)[0] if isinstance(child, dict)
                    else _dataset(writer, child) for name, child in node.items()}
        return _group(writer, children)

    root_header, btree, heap = emit(_tree([(g, None) for g in groups]
                                          + list(datasets.items())))
    body = b"".join(writer.blocks)
    end = _SUPERBLOCK_SIZE + len(body)
    superblock = (HDF5_SIGNATURE + struct.pack("<8BHHI", 0, 0, 0, 0, 0, 8, 8, 0, _LEAF_K,
                                               _INTERNAL_K, 0)
                  + struct.pack("<QQQQ", 0, _UNDEFINED, end, _UNDEFINED)
                  + struct.pack("<QQII", 0, root_header, 1, 0) + struct.pack("<QQ", btree, heap))
    return superblock + body
