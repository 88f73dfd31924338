"""The loss base: `Loss(reduction="sum_over_batch_size", name=None)`, called as
`loss(y_true, y_pred, sample_weight=None)`, computes in `keras.backend.floatx()`
and reduces the per-sample values `call` gives ("sum_over_batch_size", "sum",
"none", "mean_with_sample_weight"); `LossFunctionWrapper` makes a Loss of a
per-sample function."""

from runtime._src.core import dtypes
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.keras.backend import config as backend_config
from runtime._src.keras.saving.auto_config import AutoConfigured
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["Loss", "LossFunctionWrapper"]


_REDUCTIONS = ("sum_over_batch_size", "sum", "none", None, "mean", "mean_with_sample_weight")


def _in_dtype(x, dtype):
    """x as a tensor of `dtype` (Keras's Loss computes in floatx); a tensor
    already of that dtype is returned as it is (it may carry `_keras_logits`)."""
    if isinstance(x, (list, tuple, dict)) and not isinstance(x, Tensor):
        return x
    x = convert_to_tensor(x)
    return x if x.dtype == dtype else math_ops.cast(x, dtype)


def _same_rank(values, weights):
    """Keras's squeeze-or-expand: a trailing axis of size 1 on the one of rank
    one more is dropped (or a rank-1 other side gets one), so per-sample
    weights (n,) or (n, 1) line up with per-sample losses."""
    rv, rw = values.shape.rank, weights.shape.rank
    if rv is None or rw is None or rv == rw:
        return values, weights
    if rv == rw + 1 and values.shape.dims[-1] == 1:
        if rw == 1:
            weights = array_ops.expand_dims(weights, -1)
        else:
            values = array_ops.squeeze(values, [-1])
    if rw == rv + 1 and weights.shape.dims[-1] == 1:
        if rv == 1:
            values = array_ops.expand_dims(values, -1)
        else:
            weights = array_ops.squeeze(weights, [-1])
    return values, weights


class Loss(AutoConfigured):
    """`Loss(reduction="sum_over_batch_size", name=None)`: call it as
    `loss(y_true, y_pred, sample_weight=None)` for a reduced value.
    `get_config()` gives the constructor arguments. It computes in
    `keras.backend.floatx()`: inputs of another dtype are cast first."""

    _config_module = "keras.losses"

    def __init__(self, reduction="sum_over_batch_size", name=None):
        if reduction not in _REDUCTIONS:
            raise ValueError(f"Invalid value for argument `reduction`. Expected one of "
                             f"{list(_REDUCTIONS)}. Received: reduction={reduction!r}")
        self.reduction = reduction
        self.name = name or type(self).__name__

    def call(self, y_true, y_pred):
        raise NotImplementedError(f"{type(self).__name__}.call")

    def __call__(self, y_true, y_pred, sample_weight=None):
        dtype = dtypes.as_dtype(backend_config.floatx())
        values = self.call(_in_dtype(y_true, dtype), _in_dtype(y_pred, dtype))
        weights = None
        if sample_weight is not None:
            weights = math_ops.cast(convert_to_tensor(sample_weight), values.dtype)
            values, weights = _same_rank(values, weights)
            values = values * weights
        if self.reduction in ("none", None) or values.shape.rank == 0:
            return values
        total = reduction_ops.reduce_sum(values)
        if self.reduction == "sum":
            return total
        if self.reduction == "mean_with_sample_weight" and weights is not None:
            count = reduction_ops.reduce_sum(weights)
        else:
            count = math_ops.cast(array_ops.size(values), values.dtype)
        empty = math_ops.equal(count, array_ops.zeros_like(count))
        safe = math_ops.where(empty, array_ops.ones_like(count), count)
        return math_ops.where(empty, array_ops.zeros_like(total), math_ops.divide(total, safe))

    def get_config(self):
        config = {"name": self.name, "reduction": self.reduction}
        auto = getattr(self, "_auto_config", None) or {}
        config.update({k: v for k, v in auto.items() if k not in config and k != "fn"})
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A Loss computing `fn(y_true, y_pred, **kwargs)` per sample."""

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, **kwargs):
        super().__init__(reduction, name or fn.__name__)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)
