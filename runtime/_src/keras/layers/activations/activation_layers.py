"""Activation layers: `Activation`, `ReLU`, `Softmax`, `LeakyReLU`, `PReLU`, `ELU`.

Activation(activation)           activation(x), by name or callable
ReLU(max_value=None, negative_slope=0.0, threshold=0.0)
Softmax(axis=-1)                 softmax(x), masked entries (mask False) get probability ~0
LeakyReLU(negative_slope=0.3)    x if x >= 0 else negative_slope * x
ELU(alpha=1.0)                   x if x > 0 else alpha * (exp(x) - 1)
PReLU(alpha_initializer="zeros", shared_axes=None)
    x if x >= 0 else alpha * x, alpha a weight of the input's shape without
    the batch axis (size 1 along shared_axes)"""

from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.ops import array_ops, math_ops, nn_ops
from runtime._src.keras.activations import activations
from runtime._src.keras.constraints import constraints
from runtime._src.keras.initializers import initializers
from runtime._src.keras.layers.layer import Layer
from runtime._src.keras.regularizers import regularizers
from runtime._src.keras.saving import serialization_lib as serialization

__all__ = ["ELU", "LeakyReLU", "PReLU", "ReLU", "Softmax", "Activation"]


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

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None,
                 alpha_constraint=None, shared_axes=None, **kwargs):
        super().__init__(**kwargs)
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
        if shared_axes is not None and not isinstance(shared_axes, (list, tuple)):
            shared_axes = [shared_axes]
        self.shared_axes = None if shared_axes is None else list(shared_axes)
        self.supports_masking = True

    def build(self, input_shape):
        shape = list(input_shape[1:])
        for axis in self.shared_axes or ():
            shape[axis - 1] = 1
        self.alpha = self.add_weight(shape=tuple(shape), initializer=self.alpha_initializer,
                                     name="alpha", regularizer=self.alpha_regularizer,
                                     constraint=self.alpha_constraint)
        self.built = True

    def get_config(self):
        ser = serialization.serialize_keras_object
        return {**super().get_config(), "alpha_initializer": ser(self.alpha_initializer),
                "alpha_regularizer": ser(self.alpha_regularizer),
                "alpha_constraint": ser(self.alpha_constraint), "shared_axes": self.shared_axes}

    def call(self, inputs):
        pos = nn_ops.relu(inputs)
        neg = math_ops.multiply(math_ops.negative(self.alpha),
                                nn_ops.relu(math_ops.negative(inputs)))
        return math_ops.add(pos, neg)


class ReLU(Layer):
    """`tf.keras.layers.ReLU(max_value=None, negative_slope=0.0, threshold=0.0)`:
    `keras.activations.relu` with these arguments: x above threshold (TF 2.21:
    [0, 0, 2] for [0, 1, 2] and threshold 1), clipped at max_value,
    negative_slope * (x - threshold) below threshold."""

    supports_masking = True         # the input's mask passes on (Keras 3.15)

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        for arg, value in (("max_value", max_value), ("negative_slope", negative_slope),
                           ("threshold", threshold)):
            if value is not None and value < 0:
                raise ValueError(f"{arg} of a ReLU layer cannot be a negative value. "
                                 f"Received: {arg}={value}")
        self.max_value = max_value
        self.negative_slope = negative_slope
        self.threshold = threshold

    def get_config(self):
        return {**super().get_config(), "max_value": self.max_value,
                "negative_slope": self.negative_slope, "threshold": self.threshold}

    def call(self, inputs):
        return activations.relu(inputs, negative_slope=self.negative_slope,
                                max_value=self.max_value, threshold=self.threshold)

    def compute_output_shape(self, input_shape):
        return input_shape


class Softmax(Layer):
    """`tf.keras.layers.Softmax(axis=-1)`; `mask` (True = keep) pushes masked
    logits down by 1e9 first, as Keras does."""

    supports_masking = True         # the input's mask passes on (Keras 3.15)

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}

    def call(self, inputs, mask=None):
        if mask is not None:
            penalty = math_ops.multiply(
                math_ops.subtract(array_ops.constant(1.0, inputs.dtype),
                                  math_ops.cast(mask, inputs.dtype)),
                array_ops.constant(-1e9, inputs.dtype))
            inputs = math_ops.add(inputs, penalty)
        return activations.softmax(inputs, axis=self.axis)

    def compute_output_shape(self, input_shape):
        return input_shape


class Activation(Layer):
    """`tf.keras.layers.Activation(activation)`: the activation (a name such as
    "relu", or a callable) applied to the input."""

    supports_masking = True         # the input's mask passes on (Keras 3.15)

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def get_config(self):
        return {**super().get_config(),
                "activation": activations.serialize(self.activation)}

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return input_shape
