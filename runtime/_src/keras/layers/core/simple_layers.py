"""Small layers without weights: `Identity`, `Masking`, `ActivityRegularization`,
`UnitNormalization`.

    Identity()                         returns its input
    Masking(mask_value=0.0)            inputs * any(inputs != mask_value, axis=-1,
                                       keepdims=True); the next layers get that mask
    ActivityRegularization(l1=0.0, l2=0.0)   returns its input and adds
                                       (l1 * sum|x| + l2 * sum x**2) / batch to layer.losses
    UnitNormalization(axis=-1)         x * min(rsqrt(sum x**2 over axis), 1e12), as
                                       Keras 3 (a zero slice: 0, gradient 1e12)
"""

from runtime._src.keras.regularizers import regularizers
from runtime._src.keras.losses.loss_functions import normalize
from runtime._src.keras.layers.configurable import ConfigurableLayer
from runtime._src.ops import math_ops, reduction_ops

__all__ = ["Identity", "Masking", "ActivityRegularization", "UnitNormalization"]


class Identity(ConfigurableLayer):
    """`keras.layers.Identity()`: the input unchanged (its mask too)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape


class Masking(ConfigurableLayer):
    """`keras.layers.Masking(mask_value=0.0)`: timesteps whose features all
    equal mask_value are zeroed and masked for the layers after it."""

    _config_keys = ("mask_value",)

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value
        self.supports_masking = True

    def compute_mask(self, inputs, mask=None):
        return reduction_ops.reduce_any(math_ops.not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        keep = reduction_ops.reduce_any(math_ops.not_equal(inputs, self.mask_value), axis=-1,
                                        keepdims=True)
        return inputs * math_ops.cast(keep, inputs.dtype)

    def compute_output_shape(self, input_shape):
        return input_shape


class ActivityRegularization(ConfigurableLayer):
    """`keras.layers.ActivityRegularization(l1=0.0, l2=0.0)`: the identity
    with an L1/L2 activity loss (divided by the batch size, as Keras 3)."""

    _config_keys = ("l1", "l2")

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        kwargs.pop("activity_regularizer", None)
        super().__init__(**kwargs)
        self.l1, self.l2 = l1, l2
        self.activity_regularizer = regularizers.L1L2(l1=l1, l2=l2)
        self.supports_masking = True

    def get_config(self):
        config = super().get_config()
        config.pop("activity_regularizer", None)          # Keras lists only l1 and l2
        return config

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape


class UnitNormalization(ConfigurableLayer):
    """`keras.layers.UnitNormalization(axis=-1)`: each slice along `axis`
    (an int or a list) scaled to unit L2 norm."""

    _config_keys = ("axis",)

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError("Invalid value for `axis` argument: expected an int or a list/"
                            f"tuple of ints. Received: axis={axis}")
        self.supports_masking = True

    def call(self, inputs):
        return normalize(inputs, axis=self.axis, epsilon=1e-12)

    def compute_output_shape(self, input_shape):
        return input_shape
