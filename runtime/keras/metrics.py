"""`tf.keras.metrics`: `Mean`, the accuracies, and `get`."""

from runtime._src.keras.metrics import (Accuracy, BinaryAccuracy, CategoricalAccuracy, Mean,
                                        MeanMetricWrapper, Metric, SparseCategoricalAccuracy,
                                        get)
from runtime._src.keras.confusion_metrics import AUC, F1Score, Precision, Recall
from runtime._src.keras.iou_metrics import MeanIoU
from runtime._src.keras.value_metrics import (BinaryCrossentropy, CosineSimilarity,
                                              MeanAbsoluteError, MeanAbsolutePercentageError,
                                              MeanSquaredError, MeanSquaredLogarithmicError,
                                              R2Score, RootMeanSquaredError,
                                              SparseTopKCategoricalAccuracy, Sum,
                                              TopKCategoricalAccuracy)

__all__ = ["Metric", "Mean", "MeanMetricWrapper", "Accuracy", "BinaryAccuracy",
           "CategoricalAccuracy", "SparseCategoricalAccuracy", "AUC", "F1Score", "Precision",
           "Recall", "BinaryCrossentropy", "MeanAbsoluteError", "MeanAbsolutePercentageError",
           "MeanSquaredError", "R2Score", "RootMeanSquaredError",
           "SparseTopKCategoricalAccuracy", "Sum", "TopKCategoricalAccuracy", "get", "MeanIoU",
           "CosineSimilarity", "MeanSquaredLogarithmicError"]
