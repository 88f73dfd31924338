"""`tf.lookup`: hash tables (runtime/_src/ops/lookup_tables.py).

    table = lookup.StaticHashTable(lookup.KeyValueTensorInitializer(keys, values), -1)
    table.lookup(tf.constant(["a", "z"]))
    lookup.StaticVocabularyTable(initializer, num_oov_buckets=3)   # OOV keys hash, as TF's
    lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
"""

from types import SimpleNamespace as _Namespace

from runtime._src.ops import lookup_tables as _tables
from runtime._src.ops.lookup_tables import (KeyValueTensorInitializer, StaticHashTable,
                                            StaticVocabularyTable, TextFileIndex,
                                            TextFileInitializer)

experimental = _Namespace(DenseHashTable=_tables.DenseHashTable,
                          MutableHashTable=_tables.MutableHashTable)

__all__ = ["KeyValueTensorInitializer", "StaticHashTable", "StaticVocabularyTable",
           "TextFileIndex", "TextFileInitializer", "experimental"]
