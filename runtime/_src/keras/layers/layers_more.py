"""More of Keras 3's layers:

    AdditiveAttention(use_scale=True)   Bahdanau scores sum(scale * tanh(q + k)) over
                                        the features (scale (dim,) glorot-uniform)
    RMSNormalization(axis=-1, epsilon=1e-6)   x / sqrt(mean(x^2) + epsilon) * scale
    Wrapper(layer)                      a layer around another (calls it)
    SpectralNormalization(layer, power_iterations=1)
        in training, the wrapped layer's kernel divided by its largest singular value
        (a power iteration from the non-trainable `vector_u`, kept between calls)
    DepthwiseConv1D(kernel_size, depth_multiplier=1)   each channel convolved alone;
                                        kernel (k, in, multiplier)
    SeparableConv1D(filters, kernel_size, depth_multiplier=1)   a DepthwiseConv1D,
                                        then a pointwise (1, in * m, filters) kernel
    dot(inputs, axes, normalize=False)  the Dot layer as a function
"""

from runtime._src.keras.initializers import initializers
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.layers.attention.attention import Attention
from runtime._src.keras.layers.layer import Layer
from runtime._src.keras.layers.configurable import ConfigurableLayer, base_config
from runtime._src.keras.layers.convolutional.conv3d import ntuple
from runtime._src.keras.layers.convolutional.conv_more import DepthwiseWeights, _Conv, _positive
from runtime._src.keras.layers.merging.dot import Dot
from runtime._src.ops import array_ops, conv_ops, gradient_ops, math_ops, reduction_ops

__all__ = ["AdditiveAttention", "RMSNormalization", "Wrapper", "SpectralNormalization",
           "DepthwiseConv1D", "SeparableConv1D", "dot"]


class AdditiveAttention(Attention):
    """`keras.layers.AdditiveAttention(use_scale=True, dropout=0.0)`."""

    _config_keys = ("use_scale", "dropout", "seed")

    def __init__(self, use_scale=True, dropout=0.0, seed=None, **kwargs):
        super().__init__(use_scale=use_scale, dropout=dropout, seed=seed, **kwargs)

    def build(self, input_shape):
        dim = input_shape[0][-1]
        self.scale = self.add_weight(shape=(dim,), initializer="glorot_uniform",
                                     name="scale") if self.use_scale else None
        self.concat_score_weight = None
        self.built = True

    def _scores(self, q, k):
        total = math_ops.tanh(array_ops.expand_dims(q, -2) + array_ops.expand_dims(k, -3))
        if self.scale is not None:
            total = total * self.scale
        return reduction_ops.reduce_sum(total, axis=-1)


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


class Wrapper(Layer):
    """`keras.layers.Wrapper(layer)`: the base of layers around a layer; calling it
    calls the wrapped layer."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError("Layer wrapper must be initialized with a layer. "
                             f"Received: layer={layer}")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        if not self.layer.built:
            self.layer.build(input_shape)
        self.built = True

    def call(self, *args, **kwargs):
        return self.layer(*args, **kwargs)

    def get_config(self):
        return {**base_config(self), "layer": serialization.serialize_keras_object(self.layer)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        layer = serialization.deserialize_keras_object(config.pop("layer"), custom_objects,
                                                       module="keras.layers")
        return cls(layer, **config)


def _normalized(x):
    return x * math_ops.rsqrt(math_ops.maximum(reduction_ops.reduce_sum(math_ops.square(x)),
                                               1e-12))


class SpectralNormalization(Wrapper):
    """`keras.layers.SpectralNormalization(layer, power_iterations=1)`: `layer` has
    a `kernel`; in training each call does `power_iterations` steps of the power
    method and sets kernel = kernel / sigma."""

    def __init__(self, layer, power_iterations=1, **kwargs):
        super().__init__(layer, **kwargs)
        if power_iterations <= 0:
            raise ValueError("`power_iterations` should be greater than zero. Received: "
                             f"`power_iterations={power_iterations}`")
        self.power_iterations = power_iterations

    def build(self, input_shape):
        super().build(input_shape)
        kernel = getattr(self.layer, "kernel", None)
        if kernel is None:
            raise ValueError(f"{type(self.layer).__name__} object has no attribute 'kernel' "
                             "nor 'embeddings'")
        self.kernel = kernel
        self._own_weights.append(kernel)    # Keras 3 tracks it as this layer's: its order
        self.vector_u = self.add_weight(shape=(1, kernel.shape.as_list()[-1]),
                                        initializer=initializers.TruncatedNormal(stddev=0.02),
                                        trainable=False, name="vector_u")
        self.built = True

    def normalized_weights(self):
        """(the new vector_u, the kernel divided by sigma)."""
        kernel = self.kernel.read_value()
        weights = array_ops.reshape(kernel, [-1, kernel.shape.as_list()[-1]])
        u = self.vector_u.read_value()
        v = None
        for _ in range(self.power_iterations):
            v = _normalized(math_ops.matmul(u, weights, transpose_b=True))
            u = _normalized(math_ops.matmul(v, weights))
        u, v = gradient_ops.stop_gradient(u), gradient_ops.stop_gradient(v)
        sigma = math_ops.matmul(math_ops.matmul(v, weights), u, transpose_b=True)
        return u, array_ops.reshape(kernel / sigma, array_ops.shape(kernel))

    def call(self, inputs, training=False):
        if training:
            u, kernel = self.normalized_weights()
            self.vector_u.assign(u)
            self.kernel.assign(kernel)
        return self.layer(inputs)

    def get_config(self):
        return {**super().get_config(), "power_iterations": self.power_iterations}


class DepthwiseConv1D(DepthwiseWeights, _Conv):
    """`keras.layers.DepthwiseConv1D(kernel_size, strides=1, padding="valid",
    depth_multiplier=1, dilation_rate=1, activation=None, use_bias=True)`."""

    _rank = 1
    _config_keys = ("depth_multiplier",) + _Conv._config_keys

    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1,
                 depthwise_initializer="glorot_uniform", **kwargs):
        self.depth_multiplier = _positive(depth_multiplier, "depth_multiplier")
        kwargs.setdefault("kernel_initializer", depthwise_initializer)
        super().__init__(ntuple(kernel_size, 1, "kernel_size"), strides=strides,
                         padding=padding, **kwargs)

    def call(self, inputs):
        return self._finish(_depthwise1d(self, inputs, self.kernel))


def _depthwise1d(layer, inputs, kernel):
    """A 1-D depthwise convolution: a Conv1D with one group per input channel."""
    k, channels, mult = kernel.shape.as_list()
    grouped = array_ops.reshape(kernel, [k, 1, channels * mult])
    fmt = "NWC" if layer.data_format == "channels_last" else "NCW"
    return conv_ops.conv1d(inputs, grouped, stride=layer.strides[0],
                           padding=layer.padding.upper(), data_format=fmt,
                           dilations=layer.dilation_rate[0])


class SeparableConv1D(_Conv):
    """`keras.layers.SeparableConv1D(filters, kernel_size, strides=1, padding="valid",
    depth_multiplier=1, activation=None, use_bias=True)`."""

    _rank = 1
    _config_keys = ("filters", "depth_multiplier") + _Conv._config_keys

    def __init__(self, filters, kernel_size, depth_multiplier=1,
                 depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", **kwargs):
        self.filters = _positive(filters, "filters")
        self.depth_multiplier = _positive(depth_multiplier, "depth_multiplier")
        self.depthwise_initializer = depthwise_initializer
        self.pointwise_initializer = pointwise_initializer
        super().__init__(ntuple(kernel_size, 1, "kernel_size"), **kwargs)

    def build(self, input_shape):
        channels = self._channels(input_shape)
        self.depthwise_kernel = self.add_weight(
            shape=self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.depthwise_initializer, name="depthwise_kernel",
            **self._weight_options["depthwise"])
        self.pointwise_kernel = self.add_weight(
            shape=(1, channels * self.depth_multiplier, self.filters),
            initializer=self.pointwise_initializer, name="pointwise_kernel",
            **self._weight_options["pointwise"])
        self._add_bias(self.filters)
        self.built = True

    def call(self, inputs):
        out = _depthwise1d(self, inputs, self.depthwise_kernel)
        fmt = "NWC" if self.data_format == "channels_last" else "NCW"
        out = conv_ops.conv1d(out, self.pointwise_kernel, stride=1, padding="VALID",
                              data_format=fmt)
        return self._finish(out)


def dot(inputs, axes=-1, **kwargs):
    """`keras.layers.dot(inputs, axes=-1, normalize=False)`: Dot(axes)(inputs)."""
    return Dot(axes=axes, **kwargs)(inputs)
