"""`tf.lookup`: hash tables from keys to values, eager and inside graphs.

    init = tf.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2])
    table = tf.lookup.StaticHashTable(init, default_value=-1)
    table.lookup(tf.constant(["a", "z"]))          # [1, -1]
    vocab = tf.lookup.StaticVocabularyTable(init64, num_oov_buckets=5)   # OOV keys hash
    m = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    m.insert(keys, values)                          # a graph op inside tf.function

The tables' contents and ops are in lookup_ops.py. A table made eagerly is
filled at once; one made while tracing is filled at trace time when its
initializer's tensors are constants, else by an initializing op that runs
on every call, before the table's first use.
"""

import os

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.context import init_scope
from runtime._src.core.errors import InvalidArgumentError, NotFoundError
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.graph.graph import current_graph
from runtime._src.graph.op_registry import apply
from runtime._src.ops import lookup_ops
from runtime._src.ops.lookup_ops import DenseStorage, HashStorage
from runtime._src.ops.math_ops import add, cast, equal, where
from runtime._src.ops.shape_rules import constant_value
from runtime._src.ops.text_ops import as_string, to_hash_bucket_fast

__all__ = ["KeyValueTensorInitializer", "TextFileInitializer", "TextFileIndex",
           "StaticHashTable", "StaticVocabularyTable", "MutableHashTable", "DenseHashTable"]


class TextFileIndex:
    """`tf.lookup.TextFileIndex`: the special column indices of a vocabulary file."""

    WHOLE_LINE = lookup_ops.WHOLE_LINE
    LINE_NUMBER = lookup_ops.LINE_NUMBER


def _tensor(value):
    return value._as_tensor() if reads_as_tensor(value) else value


# --- initializers --------------------------------------------------------------------

class KeyValueTensorInitializer:
    """`tf.lookup.KeyValueTensorInitializer(keys, values, key_dtype=None,
    value_dtype=None)`: a table's contents from two tensors of one length."""

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        self._keys = convert_to_tensor(_tensor(keys), dtype=key_dtype)
        self._values = convert_to_tensor(_tensor(values), dtype=value_dtype)
        self._name = name

    @property
    def key_dtype(self):
        return self._keys.dtype

    @property
    def value_dtype(self):
        return self._values.dtype

    def initialize(self, table):
        """Fill `table` (a StaticHashTable or StaticVocabularyTable's table)."""
        storage = table._storage
        keys, values = constant_value(self._keys), constant_value(self._values)
        if current_graph() is None or (keys is not None and values is not None):
            with init_scope():
                storage.items = {}
                storage.import_static(np.asarray(keys), np.asarray(values))
                storage.initialized = True
            return None
        return apply("InitializeTableV2", [self._keys, self._values], {"table": storage})


class TextFileInitializer:
    """`tf.lookup.TextFileInitializer`: a table's contents from a text file, one
    entry per line; `key_index`/`value_index` pick a column (split at
    `delimiter`), `TextFileIndex.LINE_NUMBER` or `TextFileIndex.WHOLE_LINE`."""

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index,
                 vocab_size=None, delimiter="\t", name=None, value_index_offset=0):
        if isinstance(filename, Tensor):
            filename = filename.numpy()
        if isinstance(filename, bytes):
            filename = filename.decode()
        if not filename:
            raise ValueError("`filename` argument required for tf.lookup.TextFileInitializer")
        key_dtype, value_dtype = dtypes.as_dtype(key_dtype), dtypes.as_dtype(value_dtype)
        _check_index("key_index", key_index, "key_dtype", key_dtype, "if `key_index` is")
        _check_index("value_index", value_index, "value_dtype", value_dtype,
                     "for `value_index`")
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError(f"`vocab_size` should be > 0, received: {vocab_size}")
        self._filename = os.fspath(filename)
        self._key_dtype, self._value_dtype = key_dtype, value_dtype
        self._attrs = {"filename": self._filename, "key_index": int(key_index),
                       "value_index": int(value_index),
                       "vocab_size": -1 if vocab_size is None else int(vocab_size),
                       "delimiter": delimiter, "value_index_offset": int(value_index_offset)}
        self._name = name

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return self._value_dtype

    def initialize(self, table):
        attrs = dict(self._attrs, table=table._storage)
        if current_graph() is None:
            return apply("InitializeTableFromTextFileV2", [], attrs)
        with init_scope():                  # read once, when the table is made
            apply("InitializeTableFromTextFileV2", [], attrs)
        return None


def _check_index(name, index, dtype_name, dtype, phrase):
    if index < lookup_ops.WHOLE_LINE:               # (TF ends only the key's with a period)
        raise ValueError(f"`{name}` should be >= -2, received: {index}"
                         + ("." if name == "key_index" else ""))
    if index == lookup_ops.LINE_NUMBER and dtype != dtypes.int64:
        raise ValueError(f"`{dtype_name}` must be int64 {phrase} -1, received: {dtype!s}")
    if name == "key_index" and index == lookup_ops.WHOLE_LINE \
            and dtype != dtypes.string and not dtype.is_integer:
        raise ValueError(f"`key_dtype` should be either integer or string for `key_index` -2, "
                         f"received: {dtype!s}")


# --- tables --------------------------------------------------------------------------

# The key -> value dtypes TensorFlow 2.21 has kernels for, per table op.
_NUMBERS = ("int32", "float32", "float64")
_KERNELS = {
    "HashTableV2": {"string": _NUMBERS + ("int64", "bool", "string"),
                    "int64": _NUMBERS + ("int64", "string"), "int32": _NUMBERS + ("string",)},
    "MutableHashTableV2": {"string": _NUMBERS + ("int64", "bool"),
                           "int64": _NUMBERS + ("int64", "string"), "int32": _NUMBERS},
    "MutableDenseHashTableV2": {"string": _NUMBERS + ("int64", "bool"),
                                "int64": _NUMBERS + ("int64", "bool"), "int32": _NUMBERS},
}


def _check_kernel(op, key_dtype, value_dtype):
    """NotFoundError, as TF's, for a table of dtypes it has no kernel for."""
    if value_dtype.name not in _KERNELS[op].get(key_dtype.name, ()):
        raise NotFoundError(
            f"Could not find device for node: {{{{node {op}}}}} = {op}[key_dtype="
            f"{_enum(key_dtype)}, value_dtype={_enum(value_dtype)}]\nAll kernels registered "
            f"for op {op}: " + "; ".join(
                f"key_dtype in [{_enum(k)}]; value_dtype in [{_enum(v)}]"
                for k, values in _KERNELS[op].items() for v in values))


def _enum(dtype):
    name = dtype if isinstance(dtype, str) else dtype.name
    return "DT_" + {"float32": "FLOAT", "float64": "DOUBLE"}.get(name, name.upper())

class _Table:
    """What every table has: dtypes, `lookup` (also `table[keys]`), `size`."""

    _storage = None
    # Graph ops, not Python changes: autograph does not warn of them in staged loops.
    __autograph_staged_methods__ = ("insert", "remove", "insert_or_assign", "erase")

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return self._value_dtype

    @property
    def name(self):
        return self._name

    def __getitem__(self, keys):
        return self.lookup(keys)

    def size(self, name=None):
        """The number of entries, an int64 scalar tensor."""
        return apply("LookupTableSizeV2", [], {"table": self._storage})

    def _find(self, keys, default):
        return apply("LookupTableFindV2", [keys, default], {"table": self._storage})

    def _checked_keys(self, keys):
        """`keys` as a tensor of the key dtype; a tensor of another dtype is a TypeError."""
        keys = _tensor(keys)
        if not isinstance(keys, Tensor):
            keys = convert_to_tensor(keys, dtype=self._key_dtype)
        if keys.dtype != self._key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype!s}, "
                            f"received: {keys.dtype!s}")
        return keys

    def _converted(self, value, dtype, what):
        value = _tensor(value)
        try:
            return convert_to_tensor(value, dtype=dtype)
        except ValueError as e:
            raise ValueError(f"{what}: {e}") from None


class StaticHashTable(_Table):
    """`tf.lookup.StaticHashTable(initializer, default_value)`: a table filled
    once by its initializer; keys not in it look up as `default_value`."""

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        self._key_dtype, self._value_dtype = initializer.key_dtype, initializer.value_dtype
        _check_kernel("HashTableV2", self._key_dtype, self._value_dtype)
        self._default_value = convert_to_tensor(_tensor(default_value),
                                                dtype=self._value_dtype)
        self._storage = HashStorage(self._key_dtype, self._value_dtype,
                                    tuple(self._default_value.shape.as_list()))
        self._initializer, self._name = initializer, None   # None in TF 2.21 too
        self._init_op = initializer.initialize(self)

    @property
    def default_value(self):
        return self._default_value

    def _checkpoint_children(self):
        return []                # tracked, with nothing to save (as TF's)

    def lookup(self, keys, name=None):
        """The value of each key (`default_value` for a missing key); the
        result has the keys' shape (a RaggedTensor's row structure)."""
        if _is_ragged(keys):
            return keys.with_flat_values(self.lookup(keys.flat_values))
        return self._find(self._checked_keys(keys), self._default_value)

    def export(self, name=None):
        """(keys, values): every entry, as two tensors."""
        return apply("LookupTableExportV2", [], {"table": self._storage})


class StaticVocabularyTable(_Table):
    """`tf.lookup.StaticVocabularyTable(initializer, num_oov_buckets)`: string
    or int64 keys to int64 ids; a key not in the vocabulary gets
    `vocab size + Fingerprint64(key) % num_oov_buckets` (an integer key is
    hashed as its decimal text), as TensorFlow's."""

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        if initializer.key_dtype not in (dtypes.int64, dtypes.string):
            raise TypeError("Invalid `key_dtype`, expected one of (tf.int64, tf.string), but "
                            f"got {initializer.key_dtype!s}.")
        if initializer.value_dtype != dtypes.int64:
            raise TypeError(f"Invalid `value_dtype`, expected {dtypes.int64!s} but got "
                            f"{initializer.value_dtype!s}.")
        if lookup_key_dtype is not None:
            lookup_key_dtype = dtypes.as_dtype(lookup_key_dtype)
            if not (lookup_key_dtype == initializer.key_dtype or
                    lookup_key_dtype.is_integer and initializer.key_dtype.is_integer):
                raise TypeError("Invalid `key_dtype`, expected integer but got "
                                f"{initializer.key_dtype!s}.")
        self._table = StaticHashTable(initializer, -1)
        self._storage = self._table._storage
        self._num_oov_buckets = int(num_oov_buckets)
        self._key_dtype = lookup_key_dtype or initializer.key_dtype
        self._value_dtype = dtypes.int64
        self._name = None

    def _checkpoint_children(self):
        return []

    def size(self, name=None):
        """The vocabulary's size plus `num_oov_buckets`."""
        return add(self._table.size(), np.int64(self._num_oov_buckets))

    def lookup(self, keys, name=None):
        """Each key's id; an out-of-vocabulary key's bucket id."""
        if _is_ragged(keys):
            return keys.with_flat_values(self.lookup(keys.flat_values))
        keys = self._checked_keys(keys)
        if keys.dtype != self._table.key_dtype:
            keys = cast(keys, self._table.key_dtype)
        ids = self._table._find(keys, self._table.default_value)
        text = keys if keys.dtype == dtypes.string else as_string(keys)
        buckets = add(to_hash_bucket_fast(text, self._num_oov_buckets), self._table.size())
        return where(equal(ids, np.int64(-1)), buckets, ids)


class MutableHashTable(_Table):
    """`tf.lookup.experimental.MutableHashTable(key_dtype, value_dtype,
    default_value)`: `insert`, `remove`, `lookup`, `export`; values may be
    vectors (the shape of `default_value`)."""

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable",
                 checkpoint=True, experimental_is_anonymous=False):
        self._key_dtype, self._value_dtype = dtypes.as_dtype(key_dtype), \
            dtypes.as_dtype(value_dtype)
        _check_kernel(self._kernel, self._key_dtype, self._value_dtype)
        self._default_value = convert_to_tensor(_tensor(default_value),
                                                dtype=self._value_dtype)
        self._storage = self._make_storage()
        self._name = None       # TF 2.21 reports None for a table made eagerly
        self._checkpoint = checkpoint

    def _make_storage(self):
        return HashStorage(self._key_dtype, self._value_dtype,
                           tuple(self._default_value.shape.as_list()))

    def lookup(self, keys, dynamic_default_values=None, name=None):
        """The value of each key, `default_value` for a missing key
        (`dynamic_default_values` instead, when given: one default per key)."""
        keys = self._converted(keys, self._key_dtype, "keys")
        if dynamic_default_values is None:
            return self._find(keys, self._default_value)
        defaults = convert_to_tensor(_tensor(dynamic_default_values), dtype=self._value_dtype)
        return self._find(keys, defaults)

    def insert(self, keys, values, name=None):
        """Add or overwrite `keys`' values (a side effect, in program order)."""
        keys = self._converted(keys, self._key_dtype, "keys")
        values = self._converted(values, self._value_dtype, "values")
        return _effect(apply("LookupTableInsertV2", [keys, values], {"table": self._storage}))

    def remove(self, keys, name=None):
        """Remove `keys` (missing keys are ignored)."""
        keys = self._checked_keys(keys)
        return _effect(apply("LookupTableRemoveV2", [keys], {"table": self._storage}))

    def export(self, name=None):
        """(keys, values): every entry, as two tensors."""
        return apply("LookupTableExportV2", [], {"table": self._storage})

    # tf.train.Checkpoint saves the attribute `table` as `<path>/.ATTRIBUTES/table-keys`
    # and `table-values`, as TensorFlow's.
    _checkpoint_attribute = "table"
    _kernel = "MutableHashTableV2"

    def _checkpoint_children(self):
        return []

    def _serialize_to_tensors(self):
        keys, values = self._storage.export()
        return {"-keys": keys, "-values": values}

    def _restore_from_tensors(self, restored_tensors):
        keys = np.asarray(restored_tensors["-keys"])
        values = np.asarray(restored_tensors["-values"])
        self._storage.restore(keys.astype(self._key_dtype.np_dtype, copy=False),
                              values.astype(self._value_dtype.np_dtype, copy=False))


class DenseHashTable(MutableHashTable):
    """`tf.lookup.experimental.DenseHashTable`: a mutable table with open
    addressing; `empty_key` and `deleted_key` mark free and removed buckets and
    can never be keys. `export` returns every bucket, as TensorFlow's."""

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key,
                 initial_num_buckets=None, name="MutableDenseHashTable", checkpoint=True,
                 experimental_is_anonymous=False):
        self._key_dtype = dtypes.as_dtype(key_dtype)
        _check_kernel("MutableDenseHashTableV2", self._key_dtype, dtypes.as_dtype(value_dtype))
        self._empty_key = convert_to_tensor(_tensor(empty_key), dtype=self._key_dtype)
        self._deleted_key = convert_to_tensor(_tensor(deleted_key), dtype=self._key_dtype)
        if self._empty_key.shape.rank != 0:
            raise ValueError("DenseHashTable: only scalar keys are supported here "
                             f"(empty_key has shape {self._empty_key.shape})")
        if np.array_equal(self._empty_key.numpy(), self._deleted_key.numpy()):
            raise InvalidArgumentError("Empty and deleted keys cannot be equal")
        buckets = 131072 if initial_num_buckets is None else int(initial_num_buckets)
        if buckets < 4 or buckets & (buckets - 1):
            raise InvalidArgumentError("Number of buckets must be at least 4 and a power of 2, "
                                       f"got: {buckets}")
        self._num_buckets = buckets
        super().__init__(key_dtype, value_dtype, default_value, name, checkpoint)

    _kernel = "MutableDenseHashTableV2"

    def _make_storage(self):
        return DenseStorage(self._key_dtype, self._value_dtype,
                            tuple(self._default_value.shape.as_list()),
                            self._empty_key.numpy(), self._deleted_key.numpy(),
                            self._num_buckets)

    def lookup(self, keys, name=None):
        keys = self._converted(keys, self._key_dtype, "keys")
        return self._find(keys, self._default_value)

    def insert_or_assign(self, keys, values, name=None):
        """The same as `insert`."""
        return self.insert(keys, values, name)

    def erase(self, keys, name=None):
        """The same as `remove`."""
        return self.remove(keys, name)


def _is_ragged(value):
    """A RaggedTensor (known by its interface: the ragged layer sits above ops)."""
    return hasattr(value, "flat_values") and hasattr(value, "with_flat_values")


def _effect(op):
    """Eagerly, the write already happened: None, as TF. In a graph, the op."""
    return None if current_graph() is None else op
