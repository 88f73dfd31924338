"""`keras.layers.ActivityRegularization(l1=0.0, l2=0.0)`: returns its input and
adds (l1 * sum|x| + l2 * sum x**2) / batch to layer.losses."""

from runtime._src.keras.regularizers import regularizers
from runtime._src.keras.layers.layer import ConfigurableLayer

__all__ = ["ActivityRegularization"]


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
