"""`keras.layers.Masking(mask_value=0.0)`: inputs * any(inputs != mask_value,
axis=-1, keepdims=True); the next layers get that mask."""

from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.ops import math_ops, reduction_ops

__all__ = ["Masking"]


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
