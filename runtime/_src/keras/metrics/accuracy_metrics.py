"""Accuracy metrics beyond those of metrics.py: the elementwise
`keras.metrics.binary_accuracy`, and the top-k ones:

    TopKCategoricalAccuracy(k=5)  1 where the true class (argmax of a one-hot
                         y_true; SparseTopK: the integer label) is among the
                         k highest scores; ties at the boundary count as in,
                         as tf.math.in_top_k"""

from runtime._src.core import dtypes
from runtime._src.ops import math_ops
from runtime._src.keras.metrics.metrics import _float_pair
from runtime._src.keras.metrics.metrics import MeanMetricWrapper, _as
from runtime._src.ops import array_ops, reduction_ops

__all__ = ["binary_accuracy", "top_k_categorical_accuracy",
           "sparse_top_k_categorical_accuracy", "TopKCategoricalAccuracy",
           "SparseTopKCategoricalAccuracy"]


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """`keras.metrics.binary_accuracy`: 1.0 where (y_pred > threshold) == y_true,
    elementwise (the BinaryAccuracy metric averages these)."""
    y_true, y_pred = _float_pair(y_true, y_pred)
    hit = math_ops.greater(y_pred, math_ops.cast(threshold, y_pred.dtype))
    return math_ops.cast(math_ops.equal(y_true, math_ops.cast(hit, y_true.dtype)),
                         dtypes.float32)


def _in_top_k(targets, predictions, k):
    """1.0 where predictions[i, targets[i]] is among the row's k largest (ties in)."""
    classes = predictions.shape.dims[-1]
    picked = array_ops.one_hot(math_ops.cast(targets, dtypes.int32), classes,
                               dtype=predictions.dtype)
    target_score = reduction_ops.reduce_sum(predictions * picked, -1, keepdims=True)
    above = reduction_ops.reduce_sum(math_ops.cast(
        math_ops.greater(predictions, target_score), dtypes.float32), -1)
    return math_ops.cast(math_ops.less(above, float(k)), dtypes.float32)


def _flat_rows(y_pred):
    if y_pred.shape.rank is not None and y_pred.shape.rank > 2:
        return array_ops.reshape(y_pred, [-1, y_pred.shape.dims[-1]])
    return y_pred


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1.0 where argmax(y_true) is among the k highest of y_pred."""
    y_pred = _flat_rows(_as(y_pred, dtypes.float32))
    labels = array_ops.reshape(reduction_ops.argmax(_as(y_true, dtypes.float32), -1), [-1])
    return _in_top_k(labels, y_pred, k)


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1.0 where the integer label y_true is among the k highest of y_pred."""
    y_pred = _flat_rows(_as(y_pred, dtypes.float32))
    return _in_top_k(array_ops.reshape(_as(y_true, dtypes.int32), [-1]), y_pred, k)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    _direction = "up"

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name, dtype, k=k)
        self.k = k


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    _direction = "up"

    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None,
                 from_sorted_ids=False):
        if from_sorted_ids:
            raise TypeError("SparseTopKCategoricalAccuracy: from_sorted_ids=True is not "
                            "supported by runtime.keras")
        super().__init__(sparse_top_k_categorical_accuracy, name, dtype, k=k)
        self.k = k
