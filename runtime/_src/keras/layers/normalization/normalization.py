"""Normalization layers: `BatchNormalization` and `LayerNormalization`.

    BatchNormalization(axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True)
        training=True:  mean, var = moments of the batch over every axis but `axis`
                        moving_mean = moving_mean * momentum + mean * (1 - momentum)
                        (moving_variance likewise)
        otherwise:      mean, var = moving_mean, moving_variance
        y = (x - mean) / sqrt(var + epsilon) * gamma + beta
    LayerNormalization(axis=-1, epsilon=1e-3, center=True, scale=True)
        mean, var = moments of each sample over `axis` (an int or a list)
        y = (x - mean) / sqrt(var + epsilon) * gamma + beta

Weights, in Keras's order: `gamma` (ones; left out when scale=False), `beta`
(zeros; left out when center=False), then for BatchNormalization the
non-trainable `moving_mean` (zeros) and `moving_variance` (ones), which only a
call with training=True changes (and not when the layer is frozen,
trainable=False, as in Keras 3). The variances are the biased (population)
ones, and the arithmetic is TensorFlow's: x * inv + (beta - mean * inv) with
inv = gamma * rsqrt(var + epsilon).
"""

from runtime._src.keras.initializers import initializers
from runtime._src.keras.regularizers import regularizers
from runtime._src.keras.saving.serialization_lib import serialize_keras_object as _serialize
from runtime._src.keras.layers.layer import InputSpec, Layer
from runtime._src.ops import array_ops, nn_ops, reduction_ops

__all__ = ["BatchNormalization", "LayerNormalization"]


def _normalize(inputs, mean, variance, gamma, beta, epsilon):
    return nn_ops.batch_normalization(inputs, mean, variance, beta, gamma, epsilon)


def _check_axes(layer, axes, input_shape):
    rank = len(input_shape)
    for axis in axes:
        if not -rank <= axis < rank:
            raise IndexError(f"Axis {axis} is out of bounds for input shape "
                             f"{tuple(input_shape)}. Received: axis={layer.axis}")
        if input_shape[axis] is None:
            raise ValueError(f"Axis {axis} of input tensor should have a defined dimension "
                             "but the layer received an input with shape "
                             f"{tuple(input_shape)}.")


def _pop_regularizers(kwargs):
    """(beta_regularizer, gamma_regularizer, beta_constraint, gamma_constraint)."""
    return (regularizers.get(kwargs.pop("beta_regularizer", None)),
            regularizers.get(kwargs.pop("gamma_regularizer", None)),
            kwargs.pop("beta_constraint", None), kwargs.pop("gamma_constraint", None))


def _regularizer_config(layer):
    return {"beta_regularizer": _serialize(layer.beta_regularizer),
            "gamma_regularizer": _serialize(layer.gamma_regularizer),
            "beta_constraint": _serialize(layer.beta_constraint),
            "gamma_constraint": _serialize(layer.gamma_constraint)}


def _add_gamma_and_beta(layer, shape):
    """The scale (when layer.scale) and offset (when layer.center) weights."""
    if layer.scale:
        layer.gamma = layer.add_weight(shape=shape, initializer=layer.gamma_initializer,
                                       regularizer=layer.gamma_regularizer,
                                       constraint=layer.gamma_constraint, name="gamma")
    if layer.center:
        layer.beta = layer.add_weight(shape=shape, initializer=layer.beta_initializer,
                                      regularizer=layer.beta_regularizer,
                                      constraint=layer.beta_constraint, name="beta")


class BatchNormalization(Layer):
    """`tf.keras.layers.BatchNormalization(axis=-1, momentum=0.99, epsilon=1e-3,
    center=True, scale=True, beta_initializer="zeros", gamma_initializer="ones",
    moving_mean_initializer="zeros", moving_variance_initializer="ones")`."""

    supports_masking = True         # the input's mask passes on (Keras 3.15)

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 **kwargs):
        for unsupported in ("renorm", "synchronized"):
            if kwargs.pop(unsupported, False):
                raise TypeError(f"BatchNormalization: {unsupported}=True is not supported "
                                "by runtime.keras")
        regs = _pop_regularizers(kwargs)
        # kept for the config only: they act with renorm=True, refused above
        self._renorm = (kwargs.pop("renorm_clipping", None), kwargs.pop("renorm_momentum", 0.99))
        super().__init__(**kwargs)
        self.beta_regularizer, self.gamma_regularizer = regs[:2]
        self.beta_constraint, self.gamma_constraint = regs[2:]
        self.axis = int(axis)
        self.momentum, self.epsilon = float(momentum), float(epsilon)
        self.center, self.scale = bool(center), bool(scale)
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.gamma = self.beta = self.moving_mean = self.moving_variance = None

    def get_config(self):
        return {**super().get_config(), "axis": self.axis, "momentum": self.momentum,
                "epsilon": self.epsilon, "center": self.center, "scale": self.scale,
                "beta_initializer": _serialize(self.beta_initializer),
                "gamma_initializer": _serialize(self.gamma_initializer),
                "moving_mean_initializer": _serialize(self.moving_mean_initializer),
                "moving_variance_initializer": _serialize(self.moving_variance_initializer),
                **_regularizer_config(self), "synchronized": False, "renorm": False,
                "renorm_clipping": self._renorm[0], "renorm_momentum": self._renorm[1]}

    def build(self, input_shape):
        _check_axes(self, [self.axis], input_shape)
        shape = (input_shape[self.axis],)
        _add_gamma_and_beta(self, shape)
        self.moving_mean = self.add_weight(shape=shape, name="moving_mean",
                                           initializer=self.moving_mean_initializer,
                                           trainable=False)
        self.moving_variance = self.add_weight(shape=shape, name="moving_variance",
                                               initializer=self.moving_variance_initializer,
                                               trainable=False)
        rank = len(input_shape)
        self.input_spec = InputSpec(ndim=rank, axes={self.axis: input_shape[self.axis]})
        self._reduction_axes = [a for a in range(rank) if a != self.axis % rank]
        self._broadcast_shape = [1] * rank
        self._broadcast_shape[self.axis] = input_shape[self.axis]
        self.built = True

    def _broadcast(self, v):
        if v is None or self.axis % len(self._broadcast_shape) == \
                len(self._broadcast_shape) - 1:
            return v
        return array_ops.reshape(v, self._broadcast_shape)

    def call(self, inputs, training=None, mask=None):
        if training and self.trainable:
            mean, variance = reduction_ops.moments(inputs, self._reduction_axes)
            keep = 1.0 - self.momentum
            self.moving_mean.assign(self.moving_mean.read_value() * self.momentum
                                    + mean * keep)
            self.moving_variance.assign(self.moving_variance.read_value() * self.momentum
                                        + variance * keep)
        else:
            mean = self.moving_mean.read_value()
            variance = self.moving_variance.read_value()
        gamma = None if self.gamma is None else self.gamma.read_value()
        beta = None if self.beta is None else self.beta.read_value()
        return _normalize(inputs, self._broadcast(mean), self._broadcast(variance),
                          self._broadcast(gamma), self._broadcast(beta), self.epsilon)

    def compute_output_shape(self, input_shape):
        return input_shape


class LayerNormalization(Layer):
    """`tf.keras.layers.LayerNormalization(axis=-1, epsilon=1e-3, center=True,
    scale=True, beta_initializer="zeros", gamma_initializer="ones")`."""

    supports_masking = True         # the input's mask passes on (Keras 3.15)

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", **kwargs):
        regs = _pop_regularizers(kwargs)
        if kwargs.pop("rms_scaling", False):
            raise TypeError("LayerNormalization: rms_scaling=True is not supported by "
                            "runtime.keras (it is deprecated in Keras)")
        super().__init__(**kwargs)
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else int(axis)
        self.epsilon = float(epsilon)
        self.center, self.scale = bool(center), bool(scale)
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer, self.gamma_regularizer = regs[:2]
        self.beta_constraint, self.gamma_constraint = regs[2:]
        self.gamma = self.beta = None

    def get_config(self):
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon,
                "center": self.center, "scale": self.scale, "rms_scaling": False,
                "beta_initializer": _serialize(self.beta_initializer),
                "gamma_initializer": _serialize(self.gamma_initializer),
                **_regularizer_config(self)}

    def build(self, input_shape):
        self._axes = sorted(self.axis) if isinstance(self.axis, list) else [self.axis]
        _check_axes(self, self._axes, input_shape)
        _add_gamma_and_beta(self, tuple(input_shape[a] for a in self._axes))
        self.built = True

    def _broadcast(self, v, rank):
        """gamma / beta shaped to broadcast over an input of `rank` dimensions."""
        axes = sorted(a % rank for a in self._axes)
        if v is None or axes == [rank - 1]:
            return v
        shape = [1] * rank
        for a, size in zip(axes, v.shape.dims):
            shape[a] = size
        return array_ops.reshape(v, shape)

    def call(self, inputs):
        rank = inputs.shape.rank
        mean, variance = reduction_ops.moments(inputs, self._axes, keepdims=True)
        gamma = None if self.gamma is None else self._broadcast(self.gamma.read_value(), rank)
        beta = None if self.beta is None else self._broadcast(self.beta.read_value(), rank)
        return _normalize(inputs, mean, variance, gamma, beta, self.epsilon)

    def compute_output_shape(self, input_shape):
        return input_shape
