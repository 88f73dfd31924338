"""`tf.keras.losses`: loss classes, their per-sample functions (and the
aliases tf.keras has: mse, MAE, kld, logcosh, ...), and `get`."""

from runtime._src.keras.losses.losses import (BinaryCrossentropy, CategoricalCrossentropy,
                                              MeanAbsoluteError, MeanAbsolutePercentageError,
                                              MeanSquaredError, MeanSquaredLogarithmicError,
                                              SparseCategoricalCrossentropy, binary_crossentropy,
                                              categorical_crossentropy, get, mean_absolute_error,
                                              mean_absolute_percentage_error, mean_squared_error,
                                              mean_squared_logarithmic_error,
                                              sparse_categorical_crossentropy)
from runtime._src.keras.losses.loss import Loss

from runtime._src.keras.losses.losses import (BinaryFocalCrossentropy, CategoricalFocalCrossentropy,
                                              CategoricalHinge, CosineSimilarity, categorical_hinge,
                                              Hinge, Huber, KLDivergence, LogCosh, Poisson,
                                              SquaredHinge, binary_focal_crossentropy,
                                              categorical_focal_crossentropy, cosine_similarity,
                                              hinge, huber, kl_divergence, log_cosh, poisson,
                                              squared_hinge)

from runtime._src.keras.losses.losses import (CTC, CategoricalGeneralizedCrossEntropy, Circle, Dice,
                                              Tversky, categorical_generalized_cross_entropy,
                                              circle, ctc, dice, tversky)
from runtime._src.keras.losses.serialization import Reduction, deserialize, serialize

# tf.keras's (TF 2.21) short names of the same functions
mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh

__all__ = ["Loss", "Huber", "KLDivergence", "LogCosh", "Poisson", "CosineSimilarity", "Hinge",
           "SquaredHinge", "BinaryFocalCrossentropy", "CategoricalFocalCrossentropy", "huber",
           "kl_divergence", "log_cosh", "poisson", "cosine_similarity", "hinge",
           "squared_hinge", "binary_focal_crossentropy", "categorical_focal_crossentropy",
           "BinaryCrossentropy", "CategoricalCrossentropy", "MeanAbsoluteError",
           "MeanSquaredError", "SparseCategoricalCrossentropy", "binary_crossentropy",
           "categorical_crossentropy", "mean_absolute_error", "mean_squared_error",
           "sparse_categorical_crossentropy", "get", "CategoricalHinge", "categorical_hinge",
           "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError",
           "mean_absolute_percentage_error", "mean_squared_logarithmic_error",
           "mse", "MSE", "mae", "MAE", "mape", "MAPE", "msle", "MSLE", "kld", "KLD",
           "kullback_leibler_divergence", "logcosh"]
__all__ += ["CategoricalGeneralizedCrossEntropy", "Circle", "Dice", "Tversky",
            "categorical_generalized_cross_entropy", "circle", "dice", "tversky", "serialize",
            "deserialize", "CTC", "ctc", "Reduction"]
