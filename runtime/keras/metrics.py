"""`tf.keras.metrics`: `Mean`, the accuracies, and `get`."""

from runtime._src.keras.metrics.metrics import (Accuracy, BinaryAccuracy, CategoricalAccuracy, Mean,
                                                MeanMetricWrapper, Metric,
                                                SparseCategoricalAccuracy, get)
from runtime._src.keras.metrics.confusion_metrics import AUC, F1Score, Precision, Recall
from runtime._src.keras.metrics.iou_metrics import MeanIoU
from runtime._src.keras.metrics.regression_metrics import (CosineSimilarity, MeanAbsoluteError,
                                                           MeanAbsolutePercentageError,
                                                           MeanSquaredError,
                                                           MeanSquaredLogarithmicError, R2Score,
                                                           RootMeanSquaredError)
from runtime._src.keras.metrics.accuracy_metrics import (SparseTopKCategoricalAccuracy,
                                                         TopKCategoricalAccuracy)
from runtime._src.keras.metrics.probabilistic_metrics import BinaryCrossentropy
from runtime._src.keras.metrics.metrics import Sum

from runtime._src.keras.metrics.metrics import categorical_accuracy, sparse_categorical_accuracy
from runtime._src.keras.metrics.accuracy_metrics import binary_accuracy
from runtime._src.keras.metrics.iou_metrics import BinaryIoU, IoU, OneHotIoU, OneHotMeanIoU
from runtime._src.keras.metrics.confusion_metrics import (FalseNegatives, FalsePositives,
                                                          FBetaScore, PrecisionAtRecall,
                                                          RecallAtPrecision,
                                                          SensitivityAtSpecificity,
                                                          SpecificityAtSensitivity, TrueNegatives,
                                                          TruePositives)
from runtime._src.keras.metrics.correlation_metrics import (ConcordanceCorrelation,
                                                            PearsonCorrelation,
                                                            concordance_correlation,
                                                            pearson_correlation)
from runtime._src.keras.metrics.regression_metrics import LogCoshError
from runtime._src.keras.metrics.probabilistic_metrics import (CategoricalCrossentropy, KLDivergence,
                                                              Poisson,
                                                              SparseCategoricalCrossentropy)
from runtime._src.keras.metrics.hinge_metrics import CategoricalHinge, Hinge, SquaredHinge
from runtime._src.keras.metrics.accuracy_metrics import (sparse_top_k_categorical_accuracy,
                                                         top_k_categorical_accuracy)
from runtime._src.keras.losses.losses import (binary_crossentropy, categorical_crossentropy,
                                              mean_absolute_error, mean_absolute_percentage_error,
                                              mean_squared_error, mean_squared_logarithmic_error,
                                              sparse_categorical_crossentropy)
from runtime._src.keras.losses.losses import (binary_focal_crossentropy,
                                              categorical_focal_crossentropy, categorical_hinge,
                                              hinge, huber, kl_divergence, log_cosh, poisson,
                                              squared_hinge)
from runtime._src.keras.metrics.serialization import deserialize, serialize

# tf.keras's (TF 2.21) short names of the same functions, as in tf.keras.losses
mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh

__all__ = ["Metric", "Mean", "MeanMetricWrapper", "Accuracy", "BinaryAccuracy",
           "CategoricalAccuracy", "SparseCategoricalAccuracy", "AUC", "F1Score", "Precision",
           "Recall", "BinaryCrossentropy", "MeanAbsoluteError", "MeanAbsolutePercentageError",
           "MeanSquaredError", "R2Score", "RootMeanSquaredError",
           "SparseTopKCategoricalAccuracy", "Sum", "TopKCategoricalAccuracy", "get", "MeanIoU",
           "CosineSimilarity", "MeanSquaredLogarithmicError"]
__all__ += ["BinaryIoU", "CategoricalCrossentropy", "CategoricalHinge",
            "ConcordanceCorrelation", "FalseNegatives", "FalsePositives", "FBetaScore", "Hinge",
            "IoU", "KLDivergence", "LogCoshError", "OneHotIoU", "OneHotMeanIoU",
            "PearsonCorrelation", "Poisson", "PrecisionAtRecall", "RecallAtPrecision",
            "SensitivityAtSpecificity", "SparseCategoricalCrossentropy",
            "SpecificityAtSensitivity", "SquaredHinge", "TrueNegatives", "TruePositives",
            "binary_accuracy", "binary_crossentropy", "binary_focal_crossentropy",
            "categorical_accuracy", "categorical_crossentropy", "categorical_focal_crossentropy",
            "categorical_hinge", "concordance_correlation", "hinge", "huber", "kl_divergence",
            "log_cosh", "mean_absolute_error", "mean_absolute_percentage_error",
            "mean_squared_error", "mean_squared_logarithmic_error", "pearson_correlation",
            "poisson", "sparse_categorical_accuracy", "sparse_categorical_crossentropy",
            "sparse_top_k_categorical_accuracy", "squared_hinge", "top_k_categorical_accuracy",
            "serialize", "deserialize"]
