"""`tf.keras.losses`: loss classes, their per-sample functions, and `get`."""

from runtime._src.keras.losses import (BinaryCrossentropy, CategoricalCrossentropy, Loss,
                                       MeanAbsoluteError, MeanSquaredError,
                                       SparseCategoricalCrossentropy, binary_crossentropy,
                                       categorical_crossentropy, get, mean_absolute_error,
                                       mean_squared_error, sparse_categorical_crossentropy)

__all__ = ["Loss", "BinaryCrossentropy", "CategoricalCrossentropy", "MeanAbsoluteError",
           "MeanSquaredError", "SparseCategoricalCrossentropy", "binary_crossentropy",
           "categorical_crossentropy", "mean_absolute_error", "mean_squared_error",
           "sparse_categorical_crossentropy", "get"]
