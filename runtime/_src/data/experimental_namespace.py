"""`tf.data.experimental`: the names TensorFlow keeps there too."""

from runtime._src.data.dataset import (
    AUTOTUNE,
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
)

__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "cardinality"]


def cardinality(dataset):
    return dataset.cardinality()
