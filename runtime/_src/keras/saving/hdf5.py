"""A small reader of the HDF5 files Keras 3 writes (`model.weights.h5`), without h5py.

    datasets = read_datasets(data)     # bytes of an HDF5 file
    datasets["layers/dense/vars/0"]    # a numpy array

It reads what h5py writes by default, which is what Keras's weights files
are: superblock version 0 or 1, version-1 object headers, groups as symbol
tables (a version-1 B-tree of symbol nodes and a local heap of names), and
datasets of fixed-point or floating-point numbers stored contiguously or
compactly, without filters. Anything else (compression, chunks, version-2
headers, other types) is a ValueError that names it. Only numbers are
decoded: no code, no pickles.

Layout references are to the HDF5 File Format Specification, version 2.0
(sections III.A superblock, III.A.1 B-trees, III.D local heaps, III.C
symbol nodes, IV.A object headers and their messages).
"""

import struct

import numpy as np

__all__ = ["read_datasets", "HDF5_SIGNATURE"]

HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"

_DATASPACE, _DATATYPE, _LAYOUT, _FILTERS, _CONTINUATION, _SYMBOL_TABLE = (
    0x0001, 0x0003, 0x0008, 0x000B, 0x0010, 0x0011)


class _File:
    """Offsets into `data` decoded with the file's sizes of offsets and lengths."""

    def __init__(self, data):
        if data[:8] != HDF5_SIGNATURE:
            raise ValueError("not an HDF5 file (its first bytes are not the HDF5 signature)")
        version = data[8]
        if version not in (0, 1):
            raise ValueError(f"HDF5 superblock version {version} is not supported (0 and 1 "
                             "are: h5py's default)")
        self.data = data
        self.offset_size, self.length_size = data[13], data[14]
        pos = 24 if version == 0 else 28
        pos += 4 * self.offset_size                  # base, free space, EOF, driver
        self.root_header = self.offset(pos + self.offset_size)

    def _uint(self, pos, size):
        return int.from_bytes(self.data[pos:pos + size], "little")

    def offset(self, pos):
        return self._uint(pos, self.offset_size)

    def length(self, pos):
        return self._uint(pos, self.length_size)

    def undefined(self, address):
        return address == (1 << (8 * self.offset_size)) - 1

    # --- object headers ---------------------------------------------------------

    def messages(self, address):
        """[(type, message bytes)] of the version-1 object header at `address`."""
        data = self.data
        if data[address:address + 4] == b"OHDR":
            raise ValueError("HDF5 version-2 object headers are not supported")
        if data[address] != 1:
            raise ValueError(f"unknown HDF5 object header version {data[address]}")
        count = struct.unpack_from("<H", data, address + 2)[0]
        size = struct.unpack_from("<I", data, address + 8)[0]
        blocks, found = [(address + 16, size)], []
        while blocks and len(found) < count:
            start, size = blocks.pop(0)
            pos = start
            while pos + 8 <= start + size and len(found) < count:
                kind, length = struct.unpack_from("<HH", data, pos)
                body = data[pos + 8:pos + 8 + length]
                if kind == _CONTINUATION:
                    blocks.append((self.offset(pos + 8),
                                   self.length(pos + 8 + self.offset_size)))
                found.append((kind, body))
                pos += 8 + length
        return found

    # --- groups ---------------------------------------------------------------------

    def children(self, header):
        """{name: object header address} of the group whose header is at `header`."""
        table = [body for kind, body in self.messages(header) if kind == _SYMBOL_TABLE]
        if not table:
            return None
        btree = int.from_bytes(table[0][:self.offset_size], "little")
        heap = int.from_bytes(table[0][self.offset_size:2 * self.offset_size], "little")
        names_at = self.offset(heap + 8 + 2 * self.length_size)
        found = {}
        for node in self._symbol_nodes(btree):
            count = struct.unpack_from("<H", self.data, node + 6)[0]
            entry = node + 8
            for _ in range(count):
                name_offset = self.offset(entry)
                target = self.offset(entry + self.offset_size)
                end = self.data.index(b"\0", names_at + name_offset)
                found[self.data[names_at + name_offset:end].decode("utf-8")] = target
                entry += 2 * self.offset_size + 24
        return found

    def _symbol_nodes(self, address):
        """The SNOD addresses under the group B-tree node at `address`."""
        data = self.data
        if data[address:address + 4] != b"TREE":
            raise ValueError("corrupt HDF5 file: a group B-tree node lacks its signature")
        level = data[address + 5]
        used = struct.unpack_from("<H", data, address + 6)[0]
        pos = address + 8 + 2 * self.offset_size + self.length_size      # first child
        nodes = []
        for _ in range(used):
            child = self.offset(pos)
            nodes.extend(self._symbol_nodes(child) if level else [child])
            pos += self.offset_size + self.length_size
        return nodes

    # --- datasets -------------------------------------------------------------------

    def dataset(self, header, path):
        """The numpy array of the dataset whose header is at `header`."""
        found = dict(self.messages(header))
        if _FILTERS in found:
            raise ValueError(f"HDF5 dataset {path!r} is compressed or filtered; only plain "
                             "datasets are supported")
        shape = self._shape(found[_DATASPACE])
        dtype = self._dtype(found[_DATATYPE], path)
        raw = self._raw(found[_LAYOUT], path)
        count = int(np.prod(shape, dtype=np.int64))
        if raw is None:
            return np.zeros(shape, dtype)
        return np.frombuffer(raw, dtype, count).reshape(shape).copy()

    def _shape(self, body):
        version, rank = body[0], body[1]
        start = 8 if version == 1 else 4
        return tuple(int.from_bytes(body[start + i * self.length_size:
                                         start + (i + 1) * self.length_size], "little")
                     for i in range(rank))

    def _dtype(self, body, path):
        kind, bits = body[0] & 0x0F, body[1]
        size = struct.unpack_from("<I", body, 4)[0]
        order = ">" if bits & 1 else "<"
        if kind == 0 and size in (1, 2, 4, 8):
            return np.dtype(f"{order}{'i' if bits & 0x08 else 'u'}{size}")
        if kind == 1 and size in (2, 4, 8):
            return np.dtype(f"{order}f{size}")
        raise ValueError(f"HDF5 dataset {path!r}: datatype class {kind} of {size} bytes is "
                         "not supported (integers and floats are)")

    def _raw(self, body, path):
        version = body[0]
        if version == 3:
            layout = body[1]
            if layout == 0:
                size = struct.unpack_from("<H", body, 2)[0]
                return body[4:4 + size]
            if layout == 1:
                address = int.from_bytes(body[2:2 + self.offset_size], "little")
                size = int.from_bytes(body[2 + self.offset_size:
                                           2 + self.offset_size + self.length_size], "little")
                return None if self.undefined(address) else self.data[address:address + size]
        elif version in (1, 2) and body[2] == 1:
            address = int.from_bytes(body[8:8 + self.offset_size], "little")
            return None if self.undefined(address) else self.data[address:]
        raise ValueError(f"HDF5 dataset {path!r}: chunked (or unknown) storage layout is not "
                         "supported")


def read_datasets(data):
    """{"group/.../name": numpy array} of every dataset in the HDF5 file `data`."""
    data = bytes(data)
    if data[:8] != HDF5_SIGNATURE:
        raise ValueError("not an HDF5 file (its first bytes are not the HDF5 signature)")
    try:
        return _read(data)
    except (IndexError, KeyError, struct.error, UnicodeDecodeError, RecursionError) as e:
        raise ValueError(f"truncated or corrupt HDF5 file ({type(e).__name__}: {e})") from None


def _read(data):
    f = _File(data)
    found = {}
    open_groups = set()

    def visit(header, path):
        if header in open_groups:
            raise ValueError(f"HDF5 group {path!r} contains itself")
        children = f.children(header)
        if children is None:
            found[path] = f.dataset(header, path)
            return
        open_groups.add(header)
        for name, child in children.items():
            visit(child, f"{path}/{name}" if path else name)
        open_groups.discard(header)
    visit(f.root_header, "")
    return found
