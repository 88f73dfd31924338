"""`keras.layers.GroupNormalization(groups=32, axis=-1, epsilon=1e-3, center=True,
scale=True)`: the channels along `axis` split into `groups` groups; each
sample's group normalized by its own mean and variance (over the group's
channels and every other non-batch axis), then scaled by `gamma` and shifted
by `beta` (one per channel; weights in Keras's order gamma, beta).

    groups=-1 is instance normalization (one group per channel); groups=1
    normalizes over all channels (like LayerNormalization over every axis).
"""

from runtime._src.keras.initializers import initializers
from runtime._src.keras.layers.layer import Layer
from runtime._src.keras.layers.normalization.normalization import (_add_gamma_and_beta,
                                                                   _pop_regularizers,
                                                                   _regularizer_config)
from runtime._src.keras.saving.serialization_lib import serialize_keras_object as _serialize
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["GroupNormalization"]


class GroupNormalization(Layer):
    """See the module docstring."""

    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", **kwargs):
        regs = _pop_regularizers(kwargs)
        super().__init__(**kwargs)
        if groups == 0 or groups < -1 or not isinstance(groups, int):
            raise ValueError("Received an invalid value for argument `groups`, expected a "
                             "positive integer (or `-1` for instance normalization). "
                             f"Received: groups={groups}")
        self.groups, self.axis, self.epsilon = groups, int(axis), float(epsilon)
        self.center, self.scale = bool(center), bool(scale)
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer, self.gamma_regularizer = regs[:2]
        self.beta_constraint, self.gamma_constraint = regs[2:]
        self.gamma = self.beta = None
        self.supports_masking = True

    def get_config(self):
        return {**super().get_config(), "groups": self.groups, "axis": self.axis,
                "epsilon": self.epsilon, "center": self.center, "scale": self.scale,
                "beta_initializer": _serialize(self.beta_initializer),
                "gamma_initializer": _serialize(self.gamma_initializer),
                **_regularizer_config(self)}

    def build(self, input_shape):
        rank = len(input_shape)
        if not -rank <= self.axis < rank:
            raise ValueError(f"Axis {self.axis} is out of bounds for input shape "
                             f"{tuple(input_shape)}. Received: axis={self.axis}")
        dim = input_shape[self.axis]
        if dim is None:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined "
                             "dimension but the layer received an input with shape "
                             f"{tuple(input_shape)}.")
        groups = dim if self.groups == -1 else self.groups
        if groups > dim:
            raise ValueError(f"Number of groups ({groups}) cannot be more than the number "
                             f"of channels ({dim}).")
        if dim % groups:
            raise ValueError(f"Number of groups ({groups}) must be a multiple of the number "
                             f"of channels ({dim}).")
        self._groups = groups
        _add_gamma_and_beta(self, (dim,))
        self.built = True

    def call(self, inputs):
        dims = list(inputs.shape.dims)
        rank, axis = len(dims), self.axis % len(dims)
        if any(d is None for d in dims[1:]):
            raise ValueError(f'Layer "{self.name}": GroupNormalization needs the non-batch '
                             f"dimensions known; got an input of shape {tuple(dims)}")
        per_group = dims[axis] // self._groups
        grouped_shape = [-1] + dims[1:axis] + [self._groups, per_group] + dims[axis + 1:]
        x = array_ops.reshape(inputs, grouped_shape)
        moment_axes = [a for a in range(1, rank + 1) if a != axis]
        mean, variance = reduction_ops.moments(x, moment_axes, keepdims=True)
        inv = math_ops.rsqrt(variance + self.epsilon)
        param_shape = [1] * (rank + 1)
        param_shape[axis], param_shape[axis + 1] = self._groups, per_group
        if self.gamma is not None:
            inv = inv * array_ops.reshape(self.gamma.read_value(), param_shape)
        out = x * inv - mean * inv
        if self.beta is not None:
            out = out + array_ops.reshape(self.beta.read_value(), param_shape)
        return array_ops.reshape(out, [-1] + dims[1:])

    def compute_output_shape(self, input_shape):
        return input_shape
