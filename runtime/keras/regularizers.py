"""`tf.keras.regularizers`: weight penalties (runtime/_src/keras/regularizers.py)."""

from runtime._src.keras.regularizers import (L1, L1L2, L2, Regularizer, deserialize, get, l1,
                                             l1_l2, l2, serialize)

__all__ = ["Regularizer", "L1", "L2", "L1L2", "l1", "l2", "l1_l2", "get", "serialize",
           "deserialize"]
