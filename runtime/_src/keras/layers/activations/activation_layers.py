"""Activation layers with parameters: `LeakyReLU`, `PReLU`, `ELU`.

    LeakyReLU(negative_slope=0.3)    x if x >= 0 else negative_slope * x
    ELU(alpha=1.0)                   x if x > 0 else alpha * (exp(x) - 1)
    PReLU(alpha_initializer="zeros", shared_axes=None)
        x if x >= 0 else alpha * x, alpha a weight of the input's shape without
        the batch axis (size 1 along shared_axes)
"""

from runtime._src.keras.layers.configurable import ConfigurableLayer
from runtime._src.ops import array_ops, math_ops, nn_ops

__all__ = ["ELU", "LeakyReLU", "PReLU"]


class LeakyReLU(ConfigurableLayer):
    """`keras.layers.LeakyReLU(negative_slope=0.3)`."""

    _config_keys = ("negative_slope",)

    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:
            negative_slope = kwargs.pop("alpha")
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError("The negative_slope value of a Leaky ReLU layer cannot be None "
                             f"or negative value. Expected a float. Received: "
                             f"negative_slope={negative_slope}")
        self.negative_slope = float(negative_slope)
        self.supports_masking = True

    def call(self, inputs):
        return nn_ops.leaky_relu(inputs, alpha=self.negative_slope)


class ELU(ConfigurableLayer):
    """`keras.layers.ELU(alpha=1.0)`."""

    _config_keys = ("alpha",)

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = float(alpha)
        self.supports_masking = True

    def call(self, inputs):
        out = nn_ops.elu(inputs)
        if self.alpha == 1.0:
            return out
        scaled = math_ops.multiply(out, array_ops.constant(self.alpha, out.dtype))
        return math_ops.where(math_ops.greater(inputs, array_ops.zeros_like(inputs)),
                              out, scaled)


class PReLU(ConfigurableLayer):
    """`keras.layers.PReLU(alpha_initializer="zeros", shared_axes=None)`."""

    _config_keys = ("alpha_initializer", "shared_axes")

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None,
                 alpha_constraint=None, shared_axes=None, **kwargs):
        super().__init__(**kwargs)
        self.alpha_initializer = alpha_initializer
        if shared_axes is not None and not isinstance(shared_axes, (list, tuple)):
            shared_axes = [shared_axes]
        self.shared_axes = None if shared_axes is None else list(shared_axes)
        self.supports_masking = True

    def build(self, input_shape):
        shape = list(input_shape[1:])
        for axis in self.shared_axes or ():
            shape[axis - 1] = 1
        self.alpha = self.add_weight(shape=tuple(shape), initializer=self.alpha_initializer,
                                     name="alpha")
        self.built = True

    def call(self, inputs):
        pos = nn_ops.relu(inputs)
        neg = math_ops.multiply(math_ops.negative(self.alpha),
                                nn_ops.relu(math_ops.negative(inputs)))
        return math_ops.add(pos, neg)
