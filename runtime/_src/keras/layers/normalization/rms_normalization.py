"""`keras.layers.RMSNormalization(axis=-1, epsilon=1e-6)`:
x / sqrt(mean(x^2) + epsilon) * scale."""

from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["RMSNormalization"]


class RMSNormalization(ConfigurableLayer):
    """`keras.layers.RMSNormalization(axis=-1, epsilon=1e-6)`: a `scale` weight
    (ones) over `axis`."""

    _config_keys = ("axis", "epsilon")

    def __init__(self, axis=-1, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        self.axis, self.epsilon = axis, epsilon

    def build(self, input_shape):
        axes = [self.axis] if isinstance(self.axis, int) else list(self.axis)
        rank = len(input_shape)
        shape = tuple(input_shape[a % rank] for a in axes)
        self.scale = self.add_weight(shape=shape, initializer="ones", name="scale")
        self.built = True

    def call(self, x):
        axes = [self.axis] if isinstance(self.axis, int) else list(self.axis)
        mean_square = reduction_ops.reduce_mean(math_ops.square(x), axis=axes, keepdims=True)
        scale = self.scale.read_value()
        rank = x.shape.rank
        shape = [1] * rank
        for a, n in zip(axes, scale.shape.as_list()):
            shape[a % rank] = n
        return x * math_ops.rsqrt(mean_square + self.epsilon) * array_ops.reshape(scale, shape)

    def compute_output_shape(self, input_shape):
        return input_shape
