"""3-D convolution layers, `Conv3D` and `Conv3DTranspose`, on
(batch, depth, height, width, channels) (or channels first).

The runtime has 2-D convolutions only, so the depth axis is done here: a
Conv3D is the sum over the kernel's depth taps i of a Conv2D of the input's
depth slices d * stride + i * dilation (all output depths at once, as one
batch of images), with the kernel's slice i. A Conv3DTranspose spreads each
input depth slice's Conv2DTranspose over the output depths d * stride + i.
Both are made of differentiable ops, so gradients come from them.

    Conv3D(filters, kernel_size, strides=1, padding="valid", dilation_rate=1)
        kernel (kd, kh, kw, in, filters)
    Conv3DTranspose(filters, kernel_size, strides=1, padding="valid",
                    output_padding=None, dilation_rate=1)
        kernel (kd, kh, kw, filters, in); output size n * stride + max(k - stride, 0)
        ("valid") or n * stride ("same") on each axis without output_padding
"""


from runtime._src.keras.layers.convolutional.base_conv import (
    CONV_KEYS, TRANSPOSE_KEYS, BaseConv, _positive, check_transpose_dilation, checked_groups,
    checked_output_padding, dilated_kernel, transposed_length)
from runtime._src.keras.layers.core.lora import LoraMixin, NoLora
from runtime._src.keras.ops.nn import from_channels_last as from_last
from runtime._src.keras.ops.nn import to_channels_last as to_last
from runtime._src.keras.ops.tfops import tf

__all__ = ["Conv3D", "Conv3DTranspose", "conv3d", "conv3d_transpose", "to_last", "from_last"]


def same_pads(size, window, stride, dilation=1):
    """(before, after, out) of TensorFlow's "SAME" padding on one axis."""
    out = -(-size // stride)
    total = max((out - 1) * stride + (window - 1) * dilation + 1 - size, 0)
    return total // 2, total - total // 2, out


def _depth_taps(x, taps, stride, dilation, padding):
    """[x[:, i*dilation :: stride] for each tap i] (out_depth long each), x padded
    in depth for "same"; and the output depth."""
    depth = x.shape.as_list()[1]
    if padding == "same":
        before, after, out = same_pads(depth, taps, stride, dilation)
        x = tf.pad(x, [[0, 0], [before, after], [0, 0], [0, 0], [0, 0]])
    else:
        out = (depth - (taps - 1) * dilation - 1) // stride + 1
    if out <= 0:
        raise ValueError(f"The depth {depth} is too small for a kernel of {taps} taps "
                         f"(dilation {dilation}) with padding='valid'")
    span = (out - 1) * stride + 1
    return [x[:, i * dilation:i * dilation + span:stride] for i in range(taps)], out


def _as_images(x):
    """(batch, depth, h, w, c) -> (batch * depth, h, w, c)."""
    h, w, c = x.shape.as_list()[2:]
    return tf.reshape(x, [-1, h, w, c])


def _as_volume(y, depth, hwc=None):
    """(batch * depth, h, w, c) -> (batch, depth, h, w, c)."""
    return tf.reshape(y, [-1, depth, *(hwc or y.shape.as_list()[1:])])


def conv3d(x, kernel, strides, padding, dilation):
    """A channels_last 3-D convolution of x (b, d, h, w, c) by kernel (kd, kh, kw, c, f)."""
    taps, out = _depth_taps(x, kernel.shape.as_list()[0], strides[0], dilation[0], padding)
    parts = [tf.conv2d(_as_images(t), kernel[i], strides=list(strides[1:]),
                       padding=padding.upper(), dilations=list(dilation[1:]))
             for i, t in enumerate(taps)]
    return _as_volume(tf.add_n(parts), out)


def _spread(y, stride, taps_at, length):
    """y (b, d, ...) placed at depths d * stride + taps_at, zeros elsewhere, `length` deep."""
    if stride > 1:
        zeros = tf.zeros_like(y)
        y = tf.stack([y] + [zeros] * (stride - 1), axis=2)
        shape = y.shape.as_list()
        y = tf.reshape(y, [-1, shape[1] * stride, *shape[3:]])
    have = y.shape.as_list()[1]
    keep = min(have, length - taps_at)
    y = y[:, :keep]
    return tf.pad(y, [[0, 0], [taps_at, length - taps_at - keep]] + [[0, 0]] * 3)


def conv3d_transpose(x, kernel, strides, padding, output_padding=None):
    """The transpose of `conv3d` (channels_last), kernel (kd, kh, kw, filters, in);
    each output axis as long as `transposed_length` says."""
    kd, kh, kw, filters, _ = kernel.shape.as_list()
    b, d, h, w, _ = x.shape.as_list()
    sizes = [transposed_length(n, k, s, padding, output_padding, i)
             for i, (n, s, k) in enumerate(zip((d, h, w), strides, (kd, kh, kw)))]
    images = _as_images(x)
    shape = tf.concat([tf.shape(images)[:1], tf.constant([sizes[1], sizes[2], filters])], 0)
    full = (d - 1) * strides[0] + kd
    before = max(full - sizes[0], 0) // 2 if padding == "same" else 0
    length = max(full, before + sizes[0])
    parts = []
    for i in range(kd):
        y = tf.conv2d_transpose(images, kernel[i], shape, list(strides[1:]),
                                padding=padding.upper())
        parts.append(_spread(_as_volume(y, d, [sizes[1], sizes[2], filters]), strides[0], i, length))
    return tf.add_n(parts)[:, before:before + sizes[0]]


class Conv3D(LoraMixin, BaseConv):
    """`keras.layers.Conv3D(filters, kernel_size, strides=(1, 1, 1), padding="valid",
    data_format=None, dilation_rate=(1, 1, 1), groups=1, activation=None,
    use_bias=True)` (with groups, each group of input channels has its own
    filters / groups filters: a grouped Conv2D per depth tap)."""

    _rank = 3
    _keras_keys = CONV_KEYS

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                 data_format=None, dilation_rate=(1, 1, 1), groups=1, **kwargs):
        self.filters = _positive(filters, "filters")
        self.groups = checked_groups(groups, self.filters)
        self._init_lora(kwargs)
        super().__init__(kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate, **kwargs)
        if not self._transpose and self.padding == "same" and max(self.strides) > 1 \
                and max(self.dilation_rate) > 1:
            raise ValueError("`strides > 1` not supported in conjunction with "
                             "`dilation_rate > 1`.")

    def call(self, inputs):
        x = to_last(inputs, self.data_format)
        y = self._convolve(x, self._lora_merged(self._kernel.read_value()))
        if self.use_bias:
            y = tf.bias_add(y, self.bias)
        return from_last(self._activation_fn(y), self.data_format)

    def _convolve(self, x, kernel):
        return conv3d(x, tf.cast(kernel, x.dtype), self.strides, self.padding,
                      self.dilation_rate)


class Conv3DTranspose(Conv3D):
    """`keras.layers.Conv3DTranspose(filters, kernel_size, strides=(1, 1, 1),
    padding="valid", data_format=None, output_padding=None, dilation_rate=(1, 1, 1),
    activation=None, use_bias=True)` (a dilated kernel is spelled out with zeros
    between its taps)."""

    _transpose = True
    enable_lora = NoLora()      # as Keras's, no LoRA (nor a `lora_rank` argument)
    _keras_keys = TRANSPOSE_KEYS

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                 data_format=None, output_padding=None, dilation_rate=(1, 1, 1), **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate, **kwargs)
        self.output_padding = checked_output_padding(output_padding, self.strides)
        check_transpose_dilation(self.strides, self.dilation_rate)

    def _convolve(self, x, kernel):
        kernel = dilated_kernel(tf.cast(kernel, x.dtype), self.dilation_rate)
        return conv3d_transpose(x, kernel, self.strides, self.padding, self.output_padding)
