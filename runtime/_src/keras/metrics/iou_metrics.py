"""`keras.metrics.MeanIoU(num_classes)`: the mean over classes of the
intersection over union, tp / (tp + fp + fn), from a confusion matrix summed
over every update (Keras 3's `total_confusion_matrix`, int64 by default, so
a fractional sample weight is truncated as in Keras).

    m = MeanIoU(num_classes=3)
    m.update_state([0, 1, 2, 2, 1], [0, 2, 2, 1, 1])
    m.result()       # mean of 1/1, 1/3, 1/3 = 0.5556

Labels outside [0, num_classes) and `ignore_class` are not counted; classes
that never occur (an empty row and column) are left out of the mean;
`sparse_y_true=False` / `sparse_y_pred=False` take the argmax along `axis`.

IoU(num_classes, target_class_ids), BinaryIoU(target_class_ids=(0, 1),
threshold=0.5), OneHotIoU(num_classes, target_class_ids), OneHotMeanIoU(num_classes):
MeanIoU's confusion matrix; the mean IoU over the target classes.
"""

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.keras.backend import config as backend_config
from runtime._src.keras.metrics.metrics import Metric
from runtime._src.ops import (array_ops, math_ops, matrix_diag_ops, reduction_ops,
                              segment_ops)
from runtime._src.keras.metrics.metrics import _as

__all__ = ["MeanIoU", "IoU", "BinaryIoU", "OneHotIoU", "OneHotMeanIoU"]


class MeanIoU(Metric):
    """See the module docstring."""

    _direction = "up"

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(name, dtype or "int64")
        self.num_classes, self.ignore_class, self.axis = num_classes, ignore_class, axis
        self.sparse_y_true, self.sparse_y_pred = sparse_y_true, sparse_y_pred
        self.total_cm = self.add_variable("total_confusion_matrix",
                                          shape=(num_classes, num_classes), initializer=0)

    def _labels(self, values, sparse):
        values = convert_to_tensor(values)
        if not sparse:
            values = reduction_ops.argmax(values, axis=self.axis)
        return array_ops.reshape(math_ops.cast(values, self.dtype), [-1])

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = self._labels(y_true, self.sparse_y_true)
        y_pred = self._labels(y_pred, self.sparse_y_pred)
        weight = 1 if sample_weight is None else sample_weight
        weight = array_ops.reshape(math_ops.cast(weight, self.dtype), [-1])
        weight = weight * array_ops.ones_like(y_true)
        n = math_ops.cast(self.num_classes, self.dtype)
        keep = math_ops.logical_and(
            math_ops.logical_and(math_ops.greater_equal(y_true, 0), math_ops.less(y_true, n)),
            math_ops.logical_and(math_ops.greater_equal(y_pred, 0), math_ops.less(y_pred, n)))
        if self.ignore_class is not None:
            keep = math_ops.logical_and(keep, math_ops.not_equal(
                y_true, math_ops.cast(self.ignore_class, self.dtype)))
        zero = array_ops.zeros_like(y_true)
        current = segment_ops.confusion_matrix(
            math_ops.where(keep, y_true, zero), math_ops.where(keep, y_pred, zero),
            self.num_classes, weights=math_ops.where(keep, weight, zero), dtype=self.dtype)
        self.total_cm.assign_add(current)

    def result(self):
        cm = self.total_cm.read_value()
        tp = math_ops.cast(matrix_diag_ops.diag_part(cm), dtypes.float32)
        rows = math_ops.cast(reduction_ops.reduce_sum(cm, 0), dtypes.float32)
        cols = math_ops.cast(reduction_ops.reduce_sum(cm, 1), dtypes.float32)
        denominator = rows + cols - tp
        valid = math_ops.greater(denominator, 1e-9)
        eps = backend_config.epsilon()
        iou = math_ops.where(valid, tp / (denominator + eps), array_ops.zeros_like(tp))
        count = reduction_ops.reduce_sum(math_ops.cast(valid, dtypes.float32))
        return reduction_ops.reduce_sum(iou) / (count + eps)

    def get_config(self):
        return {"num_classes": self.num_classes, "name": self.name, "dtype": self.dtype.name,
                "ignore_class": self.ignore_class, "sparse_y_true": self.sparse_y_true,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


class IoU(MeanIoU):
    """`keras.metrics.IoU(num_classes, target_class_ids, ignore_class=None,
    sparse_y_true=True, sparse_y_pred=True, axis=-1)`."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None,
                 ignore_class=None, sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=sparse_y_true, sparse_y_pred=sparse_y_pred, axis=axis)
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, "
                             f"which is [0, {num_classes}).")
        self.target_class_ids = list(target_class_ids)

    def result(self):
        cm = math_ops.cast(self.total_cm.read_value(), dtypes.float32)
        tp = array_ops.gather(matrix_diag_ops.diag_part(cm), self.target_class_ids)
        denominator = array_ops.gather(reduction_ops.reduce_sum(cm, 0) +
                                       reduction_ops.reduce_sum(cm, 1), self.target_class_ids)
        denominator = denominator - tp
        valid = reduction_ops.reduce_sum(math_ops.cast(math_ops.greater(denominator, 1e-9),
                                                       dtypes.float32))
        eps = backend_config.epsilon()
        return reduction_ops.reduce_sum(tp / (denominator + eps)) / (valid + eps)

    def get_config(self):
        config = super().get_config()
        config["target_class_ids"] = self.target_class_ids
        return config


class BinaryIoU(IoU):
    """`keras.metrics.BinaryIoU(target_class_ids=(0, 1), threshold=0.5)`: y_pred >
    threshold is class 1."""

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(2, target_class_ids, name=name, dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = _as(y_pred, dtypes.float32)
        y_pred = math_ops.cast(math_ops.greater_equal(y_pred, self.threshold), y_pred.dtype)
        y_true = math_ops.cast(math_ops.greater_equal(_as(y_true, dtypes.float32),
                                                      self.threshold), dtypes.float32)
        return super().update_state(y_true, y_pred, sample_weight)

    def get_config(self):
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold,
                "name": self.name, "dtype": self.dtype.name}


class OneHotIoU(IoU):
    """`keras.metrics.OneHotIoU(num_classes, target_class_ids)`: one-hot y_true,
    scores y_pred (the argmax of each)."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None,
                 ignore_class=None, sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, target_class_ids, name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "target_class_ids": self.target_class_ids,
                "name": self.name, "dtype": self.dtype.name,
                "ignore_class": self.ignore_class, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}


class OneHotMeanIoU(MeanIoU):
    """`keras.metrics.OneHotMeanIoU(num_classes)`: MeanIoU of one-hot y_true and
    scores y_pred."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "name": self.name, "dtype": self.dtype.name,
                "ignore_class": self.ignore_class, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}
