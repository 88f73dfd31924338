"""`tf.data`: input pipelines.

    >>> import runtime as tf
    >>> ds = tf.data.Dataset.range(5).map(lambda x: x * 2).batch(2)
    >>> [b.numpy().tolist() for b in ds]
    [[0, 2], [4, 6], [8]]

Implemented in runtime/_src/data/.
"""

from runtime._src.data import experimental_namespace as experimental
from runtime._src.data.dataset import DatasetSpec
from runtime._src.data.dataset import (
                                       AUTOTUNE,
                                       INFINITE_CARDINALITY,
                                       UNKNOWN_CARDINALITY,
                                       Dataset,
                                       DatasetV2,
                                       Options,
)
from runtime._src.data.iterator import IteratorSpec, NumpyIterator
from runtime._src.data.iterator import OwnedIterator as Iterator
from runtime._src.data.options import ThreadingOptions
from runtime._src.data.dataset import FixedLengthRecordDatasetV2 as FixedLengthRecordDataset
from runtime._src.data.dataset import TextLineDatasetV2 as TextLineDataset
from runtime._src.data.dataset import TFRecordDatasetV2 as TFRecordDataset

__all__ = [
                                       "AUTOTUNE",
                                       "INFINITE_CARDINALITY",
                                       "UNKNOWN_CARDINALITY",
                                       "Dataset",
                                       "DatasetSpec",
                                       "DatasetV2",
                                       "FixedLengthRecordDataset",
                                       "Iterator",
                                       "IteratorSpec",
                                       "NumpyIterator",
                                       "ThreadingOptions",
                                       "Options",
                                       "TFRecordDataset",
                                       "TextLineDataset",
                                       "experimental",
]
