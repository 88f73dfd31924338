"""`tf.data.experimental`'s lookup tables from datasets: `DatasetInitializer`,
`table_from_dataset`, `index_table_from_dataset`.

    keys = tf.data.Dataset.range(100)
    ds = tf.data.Dataset.zip((keys, keys.map(lambda x: tf.strings.as_string(x * 2))))
    table = table_from_dataset(ds, default_value="n/a", key_dtype=tf.int64)
    index_table_from_dataset(tf.data.Dataset.from_tensor_slices(["a", "b"]))  # a -> 0

The dataset is read once, when the table is made (as TF's initializer runs
when made eagerly). A table with `num_oov_buckets` is a StaticVocabularyTable
(TF: an IdTableWithHashBuckets with the same ids).
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import wrap_numpy
from runtime._src.core.tensor import TensorSpec
from runtime._src.data.env import EMPTY
from runtime._src.data.dataset import AssertCardinality
from runtime._src.ops.lookup_tables import (KeyValueTensorInitializer, StaticHashTable,
                                            StaticVocabularyTable)

__all__ = ["DatasetInitializer", "table_from_dataset", "index_table_from_dataset"]

_BASE = ("Datasets used to initialize lookup tables must produce elements in the form "
         "(key, value), where the keys and values are scalar tensors. ")


def _check_spec(spec):
    if not isinstance(spec, tuple) or len(spec) != 2:
        count = len(spec) if isinstance(spec, (tuple, list, dict)) else 1
        raise ValueError(_BASE + f"However, the given dataset produces {count} components "
                         f"instead of two (key, value) components. Full dataset element "
                         f"spec: {spec}.")
    for what, s in zip(("key", "value"), spec):
        if not isinstance(s, TensorSpec):
            raise ValueError(_BASE + f"However, the given dataset produces non-Tensor {what}s "
                             f"of type {type(s)}.")
        if s.shape.rank not in (None, 0):
            raise ValueError(_BASE + f"However, the given dataset produces non-scalar {what} "
                             f"Tensors of rank {s.shape.rank}.")


class DatasetInitializer(KeyValueTensorInitializer):
    """`tf.data.experimental.DatasetInitializer(dataset)`: a table's contents
    from a dataset of (key, value) scalar pairs."""

    def __init__(self, dataset):
        _check_spec(dataset.element_spec)
        key_spec, value_spec = dataset.element_spec
        pairs = list(dataset._iterate(EMPTY))
        keys = np.array([np.asarray(k)[()] for k, _ in pairs], dtype=key_spec.dtype.np_dtype)
        values = np.array([np.asarray(v)[()] for _, v in pairs],
                          dtype=value_spec.dtype.np_dtype)
        self.dataset = dataset
        super().__init__(wrap_numpy(keys.reshape(-1)), wrap_numpy(values.reshape(-1)))


def table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=None,
                       hasher_spec=None, key_dtype=dtypes.string, name=None):
    """A StaticHashTable of a dataset's (key, value) pairs; with
    `num_oov_buckets`, a missing key's id is a hash bucket after the vocabulary."""
    _check_spec(dataset.element_spec)
    value_dtype = dataset.element_spec[1].dtype
    if default_value is None:
        default_value = -1
        if not (value_dtype.is_integer or value_dtype.is_floating):
            raise ValueError("`default_value` must be specified when creating a table from a "
                             f"dataset that produces values of type {value_dtype}.")
    if num_oov_buckets < 0:
        raise ValueError(f"`num_oov_buckets` must be greater than or equal to 0, got "
                         f"{num_oov_buckets}.")
    if vocab_size is not None and vocab_size < 1:
        raise ValueError(f"`vocab_size` must be greater than 0, got {vocab_size}.")
    key_dtype = dtypes.as_dtype(key_dtype)
    if not key_dtype.is_integer and key_dtype != dtypes.string:
        raise TypeError(f"`key_dtype` must be either an integer or string type, but got "
                        f"{key_dtype}")
    if vocab_size is not None:
        dataset = AssertCardinality(dataset.take(vocab_size), vocab_size)
    initializer = DatasetInitializer(dataset)
    if num_oov_buckets:
        return StaticVocabularyTable(initializer, num_oov_buckets)
    return StaticHashTable(initializer, default_value)


def index_table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None,
                             default_value=-1, hasher_spec=None, key_dtype=dtypes.string,
                             name=None):
    """A table from each key of `dataset` to its position (int64)."""
    return table_from_dataset(dataset.enumerate().map(lambda v, k: (k, v)), num_oov_buckets,
                              vocab_size, default_value, hasher_spec, key_dtype, name)
