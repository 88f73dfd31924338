"""The three layers `tf.keras.layers` keeps from Keras 2 (Keras 3.15's
`keras.src.legacy.layers`, absent from plain `keras.layers`).

    RandomHeight(factor, interpolation="bilinear", seed=None)
    RandomWidth(factor, interpolation="bilinear", seed=None)
        training (the default, as in Keras): the batch resized on one side to
        int(side * f), one f drawn per call from U[1 + lower, 1 + upper), where
        a float factor means (-factor, factor); otherwise the input as is.
        The output is the layer's dtype; the resized side is None statically.
    ThresholdedReLU(theta=1.0)
        x where x > theta, else 0.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor, is_symbolic_tensor
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.keras.layers.regularization.noise import _when_training
from runtime._src.ops import array_ops, image_ops, math_ops, random_ops, script_ops

__all__ = ["RandomHeight", "RandomWidth", "ThresholdedReLU"]


def _bounds(factor, less):
    lower, upper = (factor[0], factor[1]) if isinstance(factor, (tuple, list)) \
        else (-factor, factor)
    if upper < lower:
        raise ValueError(f"`factor` argument cannot have an upper bound {less} than the "
                         f"lower bound. Received: factor={factor}")
    if lower < -1.0 or upper < -1.0:
        raise ValueError("`factor` argument must have values larger than -1. "
                         f"Received: factor={factor}")
    return lower, upper


class _RandomSide(ConfigurableLayer):
    """Resize along one side (`_axis`, counted from the end) by a random factor."""

    _axis = -3
    _less = "lesser"
    _config_keys = ("factor", "interpolation", "seed")

    def __init__(self, factor, interpolation="bilinear", seed=None, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor
        self._lower, self._upper = _bounds(factor, self._less)
        self.interpolation, self.seed = interpolation, seed

    def call(self, inputs, training=True):
        x = convert_to_tensor(inputs)
        if x.dtype != dtypes.as_dtype(self.dtype):
            raise ValueError(f"{type(self).__name__}: the input's dtype {x.dtype.name} is "
                             f"not the layer's dtype {self.dtype}")
        return _when_training(training, lambda: self._resized(x), x)

    def _resized(self, x):
        f = random_ops.uniform([], 1.0 + self._lower, 1.0 + self._upper, dtypes.float32,
                               seed=self.seed)
        shape = array_ops.shape(x)
        side = math_ops.cast(math_ops.cast(shape[self._axis], dtypes.float32) * f,
                             dtypes.int32)
        if not is_symbolic_tensor(side):
            return self._resize_now(x, int(side.numpy()))
        out = script_ops.numpy_function(
            lambda a, n: self._resize_now(a, int(n)).numpy(), [x, side], x.dtype)
        out.set_shape(self.compute_output_shape(x.shape.as_list()))
        return out

    def _resize_now(self, x, side):
        x = convert_to_tensor(x)
        size = list(x.shape.as_list()[-3:-1])
        size[self._axis + 3] = side
        out = image_ops.resize(x, size, method=self.interpolation)
        return math_ops.cast(out, self.dtype)

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        shape[self._axis] = None
        return tuple(shape)


class RandomHeight(_RandomSide):
    """`tf.keras.layers.RandomHeight(factor, interpolation="bilinear", seed=None)`."""

    _axis, _less = -3, "lesser"


class RandomWidth(_RandomSide):
    """`tf.keras.layers.RandomWidth(factor, interpolation="bilinear", seed=None)`."""

    _axis, _less = -2, "less"


class ThresholdedReLU(ConfigurableLayer):
    """`tf.keras.layers.ThresholdedReLU(theta=1.0)`: x * (x > theta)."""

    supports_masking = True

    def __init__(self, theta=1.0, **kwargs):
        super().__init__(**kwargs)
        if theta is None:
            raise ValueError("Theta of a Thresholded ReLU layer cannot be None, expecting a "
                             f"float. Received: {theta}")
        if theta < 0:
            raise ValueError("The theta value of a Thresholded ReLU layer should be >=0. "
                             f"Received: {theta}")
        self.theta = float(np.float32(theta))

    def get_config(self):
        return {**super().get_config(), "theta": self.theta}

    def call(self, inputs):
        x = convert_to_tensor(inputs)
        theta = convert_to_tensor(self.theta, self.dtype)
        return x * math_ops.cast(math_ops.greater(x, theta), self.dtype)

    def compute_output_shape(self, input_shape):
        return input_shape
