"""`tf.data.experimental`: the names TensorFlow keeps there too."""

from runtime._src.data.dataset import (
    AUTOTUNE,
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
)
from runtime._src.data.readers import TFRecordWriter

__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "TFRecordWriter", "UNKNOWN_CARDINALITY",
           "cardinality"]


def cardinality(dataset):
    return dataset.cardinality()
