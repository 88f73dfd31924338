"""Lookup tables' state and ops: what `tf.lookup` (runtime/_src/ops/lookup_tables.py)
stages in graphs or runs eagerly.

A table's contents live in a Python object, a `HashStorage` (a dict, for the
static and mutable hash tables) or a `DenseStorage` (open addressing in numpy
arrays, laid out as TensorFlow's MutableDenseHashTable lays them out). Ops name
the storage in their `table` attr, as `ReadVariableOp` names its Variable: a
graph captures the table by reference, every run sees its current contents,
and the writes (`LookupTableInsertV2`, `LookupTableRemoveV2`, the initializers)
are side-effecting nodes that run in program order on every call.

    keys, values, default -> LookupTableFindV2 -> values or default, per key
    keys, values          -> LookupTableInsertV2 / LookupTableImportV2
    keys                  -> LookupTableRemoveV2
                             LookupTableSizeV2 (int64), LookupTableExportV2
"""

import os

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import (FailedPreconditionError, InvalidArgumentError,
                                      NotFoundError)
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import define_op, not_differentiable

__all__ = ["HashStorage", "DenseStorage", "read_text_file", "tf_hash64"]


def _shape_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _python_keys(keys):
    """The keys of a numpy array as hashable Python values (bytes or ints)."""
    flat = np.asarray(keys).ravel()
    if flat.dtype == object:
        return [k if isinstance(k, bytes) else str(k).encode() for k in flat]
    return flat.tolist()


def _key_text(key):
    return key.decode("utf-8", "replace") if isinstance(key, bytes) else str(key)


class HashStorage:
    """The contents of a hash table: key -> value (a numpy scalar or array)."""

    def __init__(self, key_dtype, value_dtype, value_shape=()):
        self.key_dtype, self.value_dtype = key_dtype, value_dtype
        self.value_shape = tuple(value_shape)
        self.items = {}
        self.initialized = False

    def size(self):
        return len(self.items)

    def check_values(self, keys, values):
        expected = np.shape(keys) + self.value_shape
        if np.shape(values) != expected:
            raise InvalidArgumentError(f"Expected shape {_shape_text(expected)} for value, "
                                       f"got {_shape_text(np.shape(values))}")

    def find(self, keys, default):
        shape, flat = np.shape(keys), _python_keys(keys)
        default = np.asarray(default, self.value_dtype.np_dtype)
        out = np.empty((len(flat),) + self.value_shape, self.value_dtype.np_dtype)
        if default.shape == shape + self.value_shape and default.shape != self.value_shape:
            out[...] = default.reshape(out.shape)       # one default per key
        else:
            out[...] = _default_of(default, self.value_shape)
        items = self.items
        for i, key in enumerate(flat):
            row = items.get(key)
            if row is not None:
                out[i] = row
        return _scalar(out.reshape(shape + self.value_shape))

    def insert(self, keys, values):
        self.check_values(keys, values)
        rows = np.asarray(values).reshape((-1,) + self.value_shape)
        for key, row in zip(_python_keys(keys), rows):
            self.items[key] = _own(row)

    def import_static(self, keys, values):
        """Fill a static table: a key given twice must have one value."""
        self.check_values(keys, values)
        rows = np.asarray(values).reshape((-1,) + self.value_shape)
        for key, row in zip(_python_keys(keys), rows):
            old = self.items.get(key)
            if old is not None and not np.array_equal(old, row):
                raise FailedPreconditionError(
                    f"HashTable has different value for same key. Key {_key_text(key)} has "
                    f"{_value_text(old)} and trying to add value {_value_text(row)}")
            self.items[key] = _own(row)

    def remove(self, keys):
        for key in _python_keys(keys):
            self.items.pop(key, None)

    def restore(self, keys, values):
        """Replace the contents with a checkpoint's `table-keys`/`table-values`."""
        self.items = {}
        self.insert(keys, values)

    def export(self):
        n = len(self.items)
        keys = np.array(list(self.items), dtype=self.key_dtype.np_dtype).reshape(n)
        values = np.empty((n,) + self.value_shape, self.value_dtype.np_dtype)
        for i, row in enumerate(self.items.values()):
            values[i] = row
        return keys, values


def _scalar(out):
    """A 0-d numeric result as a numpy scalar, as the other kernels give them."""
    return out[()] if out.ndim == 0 and out.dtype != object else out


def _own(row):
    """A table's copy of one value (a string row is a bytes object, kept as is)."""
    return row.copy() if isinstance(row, np.ndarray) else row


def _default_of(default, value_shape):
    if default.shape != value_shape:
        raise InvalidArgumentError(f"Expected shape {_shape_text(value_shape)} for default "
                                   f"value, got {_shape_text(default.shape)}")
    return default


def _value_text(value):
    value = np.asarray(value)
    if value.ndim == 0:
        return _key_text(value.item())
    return str(value.tolist())


# --- the dense table ---------------------------------------------------------------

_M = 0xc6a4a7935bd1e995
_MASK64 = (1 << 64) - 1


def tf_hash64(data, seed=0xDECAFCAFFE):
    """TensorFlow's `Hash64` of a byte string (a MurmurHash64A variant), which
    its dense hash tables use for string keys."""
    n = len(data)
    h = (seed ^ (n * _M)) & _MASK64
    full = n - n % 8
    for i in range(0, full, 8):
        k = int.from_bytes(data[i:i + 8], "little")
        k = (k * _M) & _MASK64
        k ^= k >> 47
        k = (k * _M) & _MASK64
        h ^= k
        h = (h * _M) & _MASK64
    rest = data[full:]
    if rest:
        for j in range(len(rest) - 1, -1, -1):
            h ^= rest[j] << (8 * j)
        h = (h * _M) & _MASK64
    h ^= h >> 47
    h = (h * _M) & _MASK64
    h ^= h >> 47
    return h


def _hash_key(key):
    if isinstance(key, bytes):
        return tf_hash64(key)
    return key & _MASK64          # TF casts an integer key to uint64


class DenseStorage:
    """MutableDenseHashTable's buckets: `keys` and `values` numpy arrays of
    `num_buckets` rows, probed quadratically from the key's hash; a free bucket
    holds `empty_key`, a removed one `deleted_key`."""

    MAX_LOAD_FACTOR = 0.8

    def __init__(self, key_dtype, value_dtype, value_shape, empty_key, deleted_key,
                 num_buckets):
        self.key_dtype, self.value_dtype = key_dtype, value_dtype
        self.value_shape = tuple(value_shape)
        self.empty, self.deleted = _python_keys(empty_key)[0], _python_keys(deleted_key)[0]
        self.entries = 0
        self._allocate(num_buckets)

    def _allocate(self, num_buckets):
        self.keys = [self.empty] * num_buckets
        self.values = np.zeros((num_buckets,) + self.value_shape, self.value_dtype.np_dtype)

    def size(self):
        return self.entries

    def _check_keys(self, keys):
        for key in keys:
            if key == self.empty:
                raise InvalidArgumentError("Using the empty_key as a table key is not allowed")
            if key == self.deleted:
                raise InvalidArgumentError("Using the deleted_key as a table key is not allowed")

    def _probe(self, key):
        """Bucket indices along `key`'s probe sequence."""
        mask = len(self.keys) - 1
        bucket = _hash_key(key) & mask
        for n in range(len(self.keys)):
            yield bucket
            bucket = (bucket + n + 1) & mask

    def find(self, keys, default):
        flat = _python_keys(keys)
        self._check_keys(flat)
        default = np.broadcast_to(np.asarray(default, self.value_dtype.np_dtype),
                                  self.value_shape)
        out = np.empty((len(flat),) + self.value_shape, self.value_dtype.np_dtype)
        for i, key in enumerate(flat):
            out[i] = default
            for bucket in self._probe(key):
                found = self.keys[bucket]
                if found == key:
                    out[i] = self.values[bucket]
                    break
                if found == self.empty:
                    break
        return _scalar(out.reshape(np.shape(keys)[:1] + self.value_shape))

    def insert(self, keys, values):
        flat = _python_keys(keys)
        self._check_keys(flat)
        expected = (len(flat),) + self.value_shape
        if np.shape(values) != expected:
            raise InvalidArgumentError(f"Expected shape {_shape_text(expected)} for value, "
                                       f"got {_shape_text(np.shape(values))}")
        needed = self.entries + len(flat)
        if needed > len(self.keys) * self.MAX_LOAD_FACTOR:
            size = len(self.keys)
            while needed > size * self.MAX_LOAD_FACTOR:
                size *= 2
            self._rebucket(size)
        for key, row in zip(flat, np.asarray(values)):
            self._insert_one(key, row)

    def _insert_one(self, key, row):
        for bucket in self._probe(key):
            found = self.keys[bucket]
            if found == key:
                self.values[bucket] = row
                return
            if found == self.empty or found == self.deleted:
                self.keys[bucket] = key
                self.values[bucket] = row
                self.entries += 1
                return
        raise InvalidArgumentError("Internal error in MutableDenseHashTable insert")

    def _rebucket(self, num_buckets):
        old_keys, old_values = self.keys, self.values
        self._allocate(num_buckets)
        self.entries = 0
        for key, row in zip(old_keys, old_values):
            if key != self.empty and key != self.deleted:
                self._insert_one(key, row)

    def remove(self, keys):
        flat = _python_keys(keys)
        self._check_keys(flat)
        for key in flat:
            for bucket in self._probe(key):
                found = self.keys[bucket]
                if found == key:
                    self.keys[bucket] = self.deleted
                    self.entries -= 1
                    break
                if found == self.empty:
                    break

    def restore(self, keys, values):
        """Take a checkpoint's buckets as they are (TF's import of a dense table)."""
        self.keys = _python_keys(keys)
        self.values = np.array(values).reshape((len(self.keys),) + self.value_shape)
        self.entries = sum(k != self.empty and k != self.deleted for k in self.keys)

    def export(self):
        keys = np.array(self.keys, dtype=self.key_dtype.np_dtype).reshape(-1, 1)
        values = self.values.reshape((len(self.keys), -1)) if not self.value_shape \
            else self.values.copy()
        return keys, values.copy()


# --- text files ----------------------------------------------------------------------

WHOLE_LINE, LINE_NUMBER = -2, -1


def read_text_file(filename, key_index, value_index, key_dtype, value_dtype, vocab_size,
                   delimiter, value_index_offset):
    """(keys, values) numpy arrays read from a vocabulary file as TensorFlow's
    InitializeTableFromTextFileV2 reads it, raising its errors."""
    try:
        with open(filename, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise NotFoundError(f"{filename}; No such file or directory") from None
    except IsADirectoryError:
        raise FailedPreconditionError(f"{filename}; Is a directory") from None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if vocab_size is not None and vocab_size >= 0:
        if len(lines) < vocab_size:
            raise InvalidArgumentError(f"Invalid vocab_size in {filename}: expected "
                                       f"{vocab_size} but got {len(lines)}")
        lines = lines[:vocab_size]
    keys, values, position = [], [], 0
    columns = max(key_index, value_index) + 1
    sep = delimiter.encode() if isinstance(delimiter, str) else delimiter
    for number, line in enumerate(lines):
        position += len(line) + 1
        line = line[:-1] if line.endswith(b"\r") else line
        if not line:
            raise InvalidArgumentError(f"Invalid content in {filename}: empty line found at "
                                       f"position {position}.")
        fields = line.split(sep) if columns > 0 else []
        if len(fields) < columns:
            raise InvalidArgumentError(
                f"Invalid number of columns in {filename} line {number} "
                f"({line.decode('utf-8', 'replace')}) : expected at least {columns} got "
                f"{len(fields)}")
        keys.append(_field(line, fields, key_index, number, 0, key_dtype))
        values.append(_field(line, fields, value_index, number, value_index_offset,
                             value_dtype))
    return (np.array(keys, dtype=key_dtype.np_dtype).reshape(len(keys)),
            np.array(values, dtype=value_dtype.np_dtype).reshape(len(values)))


def _field(line, fields, index, number, offset, dtype):
    if index == LINE_NUMBER:
        return number + offset
    text = line if index == WHOLE_LINE else fields[index]
    if dtype == dtypes.string:
        return text
    try:
        value = int(text) if dtype.is_integer else float(text)
        np.array(value, dtype.np_dtype if dtype.is_integer else np.float64)
    except (ValueError, OverflowError):
        raise InvalidArgumentError(f"Field {text.decode('utf-8', 'replace')} in line "
                                   f"{number} is not a valid {dtype.name}.") from None
    if dtype.is_integer and not np.iinfo(dtype.np_dtype).min <= value \
            <= np.iinfo(dtype.np_dtype).max:
        raise InvalidArgumentError(f"Field {text.decode('utf-8', 'replace')} in line "
                                   f"{number} is not a valid {dtype.name}.")
    return value


# --- ops -----------------------------------------------------------------------------

def _infer_find(inputs, attrs):
    table = attrs["table"]
    keys = inputs[0].shape
    if keys.rank is None:
        return [(table.value_dtype, TensorShape(None))]
    dims = list(keys.dims)
    if isinstance(table, DenseStorage):
        dims = dims[:1]
    return [(table.value_dtype, TensorShape(dims + list(table.value_shape)))]


def _infer_none(inputs, attrs):
    return [(dtypes.bool, TensorShape([]))]


def _infer_size(inputs, attrs):
    return [(dtypes.int64, TensorShape([]))]


def _infer_export(inputs, attrs):
    table = attrs["table"]
    if isinstance(table, DenseStorage):
        width = int(np.prod(table.value_shape)) if table.value_shape else 1
        return [(table.key_dtype, TensorShape([None, 1])),
                (table.value_dtype, TensorShape([None] + ([width] if not table.value_shape
                                                          else list(table.value_shape))))]
    return [(table.key_dtype, TensorShape([None])),
            (table.value_dtype, TensorShape([None] + list(table.value_shape)))]


@define_op("LookupTableFindV2", infer=_infer_find, stateful=True)
def _find(keys, default, *, table):
    if isinstance(table, DenseStorage) and np.ndim(keys) > 1:
        raise InvalidArgumentError(f"Expected key shape {_shape_text(np.shape(keys)[:1])} "
                                   f"got {_shape_text(np.shape(keys))}")
    return table.find(keys, default)


@define_op("LookupTableSizeV2", infer=_infer_size, stateful=True)
def _size(*, table):
    return np.int64(table.size())


@define_op("LookupTableExportV2", infer=_infer_export, stateful=True, num_outputs=2)
def _export(*, table):
    return table.export()


@define_op("LookupTableInsertV2", infer=_infer_none, side_effect=True)
def _insert(keys, values, *, table):
    table.insert(keys, values)
    return np.bool_(True)


@define_op("LookupTableRemoveV2", infer=_infer_none, side_effect=True)
def _remove(keys, *, table):
    table.remove(keys)
    return np.bool_(True)


@define_op("InitializeTableV2", infer=_infer_none, side_effect=True)
def _initialize(keys, values, *, table):
    """Fill a static table from tensors (each run starts it afresh)."""
    table.items = {}
    table.import_static(keys, values)
    table.initialized = True
    return np.bool_(True)


@define_op("InitializeTableFromTextFileV2", infer=_infer_none, side_effect=True)
def _initialize_from_file(*, table, filename, key_index, value_index, vocab_size, delimiter,
                          value_index_offset):
    keys, values = read_text_file(os.fspath(filename), key_index, value_index,
                                  table.key_dtype, table.value_dtype, vocab_size, delimiter,
                                  value_index_offset)
    table.items = {}
    table.import_static(keys, values)
    table.initialized = True
    return np.bool_(True)


not_differentiable("LookupTableFindV2", "LookupTableSizeV2", "LookupTableExportV2",
                   "LookupTableInsertV2", "LookupTableRemoveV2", "InitializeTableV2",
                   "InitializeTableFromTextFileV2")
