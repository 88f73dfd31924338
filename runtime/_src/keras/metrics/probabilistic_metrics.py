"""Probabilistic metrics: `KLDivergence`, `Poisson`, `BinaryCrossentropy`,
`CategoricalCrossentropy`, `SparseCategoricalCrossentropy`: the mean over samples
of the loss function of the same name."""

from runtime._src.core import dtypes
from runtime._src.keras.losses.losses import kl_divergence, poisson
from runtime._src.keras.losses.losses import (categorical_crossentropy,
                                              sparse_categorical_crossentropy)
from runtime._src.keras.metrics.metrics import Mean, MeanMetricWrapper, _as
from runtime._src.ops import array_ops, math_ops
from runtime._src.keras.metrics.metrics import _loss_metric
from runtime._src.keras.losses.losses import binary_crossentropy

__all__ = ["KLDivergence", "Poisson", "CategoricalCrossentropy",
           "SparseCategoricalCrossentropy", "BinaryCrossentropy"]


KLDivergence = _loss_metric("KLDivergence", kl_divergence, "kl_divergence")


Poisson = _loss_metric("Poisson", poisson, "poisson")


class CategoricalCrossentropy(MeanMetricWrapper):
    """`keras.metrics.CategoricalCrossentropy(from_logits=False, label_smoothing=0,
    axis=-1)`."""

    def __init__(self, name="categorical_crossentropy", dtype=None, from_logits=False,
                 label_smoothing=0, axis=-1):
        super().__init__(categorical_crossentropy, name, dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(Mean):
    """`keras.metrics.SparseCategoricalCrossentropy(from_logits=False,
    ignore_class=None, axis=-1)`; samples labelled `ignore_class` are left out."""

    def __init__(self, name="sparse_categorical_crossentropy", dtype=None, from_logits=False,
                 ignore_class=None, axis=-1):
        super().__init__(name, dtype)
        self.from_logits, self.ignore_class, self.axis = from_logits, ignore_class, axis

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = _as(y_true, dtypes.int64)
        if self.ignore_class is None:
            loss = sparse_categorical_crossentropy(y_true, y_pred, self.from_logits, self.axis)
            return super().update_state(loss, sample_weight)
        if y_true.shape.rank == _as(y_pred, self.dtype).shape.rank:
            y_true = array_ops.squeeze(y_true, [-1])
        keep = math_ops.not_equal(y_true, self.ignore_class)
        labels = math_ops.where(keep, y_true, array_ops.zeros_like(y_true))
        loss = sparse_categorical_crossentropy(labels, y_pred, self.from_logits, self.axis)
        # as Keras 3.15: an ignored sample's loss is 0, and it still counts
        return super().update_state(loss * math_ops.cast(keep, loss.dtype), sample_weight)

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype.name, "from_logits": self.from_logits,
                "ignore_class": self.ignore_class, "axis": self.axis}


class BinaryCrossentropy(MeanMetricWrapper):
    """`tf.keras.metrics.BinaryCrossentropy(from_logits=False, label_smoothing=0)`."""

    def __init__(self, name="binary_crossentropy", dtype=None, from_logits=False,
                 label_smoothing=0):
        super().__init__(binary_crossentropy, name, dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing)
