"""`tf.keras.regularizers`: weight penalties (runtime/_src/keras/regularizers/regularizers.py)."""

from runtime._src.keras.regularizers.regularizers import (L1, L1L2, L2, OrthogonalRegularizer,
                                                          Regularizer, deserialize, get, l1, l1_l2,
                                                          l2, orthogonal_regularizer, serialize)

__all__ = ["Regularizer", "L1", "L2", "L1L2", "OrthogonalRegularizer", "l1", "l2", "l1_l2",
           "orthogonal_regularizer", "get", "serialize", "deserialize"]
