"""`keras.layers.Normalization(axis=-1, mean=None, variance=None)`:
(x - mean) / max(sqrt(variance), 1e-7); `adapt(data)` sets mean and variance
(population) per index of `axis`, over every other axis."""

import numpy as np
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.ops import array_ops, math_ops
from runtime._src.keras.layers.preprocessing.index_lookup import _as_numpy

__all__ = ["Normalization"]


_EPSILON = 1e-7


class Normalization(ConfigurableLayer):
    """`keras.layers.Normalization(axis=-1, mean=None, variance=None, invert=False)`."""

    _config_keys = ("axis", "invert")

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        if axis is None:
            axis = ()
        self.axis = tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
        if (mean is None) != (variance is None):
            raise ValueError("When setting values directly, both `mean` and `variance` must "
                             f"be set. Received: mean={mean} and variance={variance}")
        self.input_mean, self.input_variance = mean, variance
        self.invert = bool(invert)
        self.adapt_mean = self.adapt_variance = None

    def _kept(self, rank):
        return sorted(a % rank for a in self.axis)

    def build(self, input_shape):
        if self.input_mean is None:
            shape = tuple(input_shape[a] for a in self._kept(len(input_shape)))
            self.adapt_mean = self.add_weight(shape=shape, initializer="zeros", name="mean",
                                              trainable=False)
            self.adapt_variance = self.add_weight(shape=shape, initializer="ones",
                                                  name="variance", trainable=False)
            self.count = self.add_weight(shape=(), initializer="zeros", name="count",
                                         dtype="int64", trainable=False)
        self.built = True

    def adapt(self, data):
        """Set mean and variance from `data` (an array, tensor or dataset)."""
        data = _as_numpy(data).astype("float64")
        if not self.built:
            self._build_for(convert_to_tensor(data[:1].astype("float32")))
        kept = self._kept(data.ndim)
        reduce = tuple(a for a in range(data.ndim) if a not in kept)
        self.adapt_mean.assign(data.mean(axis=reduce).astype("float32"))
        self.adapt_variance.assign(data.var(axis=reduce).astype("float32"))
        self.count.assign(np.int64(np.prod([data.shape[a] for a in reduce])))

    def _broadcast(self, value, rank):
        kept = self._kept(rank)
        shape = [1] * rank
        value = convert_to_tensor(np.asarray(value, "float32")) if not isinstance(
            value, Tensor) and not hasattr(value, "read_value") else value
        dims = list(value.shape.dims) if hasattr(value.shape, "dims") else list(value.shape)
        if len(dims) == len(kept):
            for a, d in zip(kept, dims):
                shape[a] = d
            return array_ops.reshape(value, shape)
        return value

    def call(self, inputs):
        rank = inputs.shape.rank
        mean = self.input_mean if self.adapt_mean is None else self.adapt_mean
        var = self.input_variance if self.adapt_variance is None else self.adapt_variance
        mean = math_ops.cast(self._broadcast(mean, rank), inputs.dtype)
        var = math_ops.cast(self._broadcast(var, rank), inputs.dtype)
        std = math_ops.maximum(math_ops.sqrt(var), array_ops.constant(_EPSILON, inputs.dtype))
        if self.invert:
            return math_ops.add(mean, math_ops.multiply(inputs, std))
        return math_ops.divide(math_ops.subtract(inputs, mean), std)

    def get_config(self):
        config = super().get_config()
        mean, var = self.input_mean, self.input_variance
        config["mean"] = None if mean is None else np.asarray(mean).tolist()
        config["variance"] = None if var is None else np.asarray(var).tolist()
        return config
