"""`keras.layers.Rescaling(scale, offset=0.0)`: x * scale + offset."""

from runtime._src.core import dtypes
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.ops import array_ops, math_ops

__all__ = ["Rescaling"]


class Rescaling(ConfigurableLayer):
    """`keras.layers.Rescaling(scale, offset=0.0)`."""

    _config_keys = ("scale", "offset")

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset
        self.supports_masking = True

    def call(self, inputs):
        dtype = inputs.dtype if inputs.dtype.is_floating else dtypes.float32
        x = math_ops.cast(inputs, dtype)
        return math_ops.add(math_ops.multiply(x, array_ops.constant(self.scale, dtype)),
                            array_ops.constant(self.offset, dtype))
