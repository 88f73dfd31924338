"""`tf.keras.metrics`: `Mean`, the accuracies, and `get`."""

from runtime._src.keras.metrics import (Accuracy, BinaryAccuracy, CategoricalAccuracy, Mean,
                                        MeanMetricWrapper, Metric, SparseCategoricalAccuracy,
                                        get)

__all__ = ["Metric", "Mean", "MeanMetricWrapper", "Accuracy", "BinaryAccuracy",
           "CategoricalAccuracy", "SparseCategoricalAccuracy", "get"]
