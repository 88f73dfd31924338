"""`keras.ops.nn`: activations, softmax and losses with Keras 3's
signatures (`softmax(x, axis=-1)`, `one_hot(x, num_classes)`), over the
runtime's `tf.nn` ops. Int inputs of the activations give float32."""

import math

import numpy as np

from runtime._src.keras.ops.operation import cast_to, keras_op, standardize_dtype, tensor, to_float
from runtime._src.keras.ops.tfops import tf
from runtime._src.keras.ops.ctc import ctc_decode
from runtime._src.ops import ctc_ops

__all__ = ["ctc_decode"]


def _export(fn):
    __all__.append(fn.__name__)
    return fn


def _activation(name, body):
    def fn(x):
        return body(to_float(x))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"`keras.ops.{name}(x)`: ints give float32."
    return _export(keras_op(fn))




@_export
@keras_op
def relu(x):
    """`keras.ops.relu(x)`: in x's dtype (ints stay ints)."""
    return tf.relu(tensor(x))


relu6 = _activation("relu6", tf.relu6)
sigmoid = _activation("sigmoid", tf.sigmoid)
softplus = _activation("softplus", tf.softplus)
softsign = _activation("softsign", tf.softsign)
silu = _activation("silu", lambda x: x * tf.sigmoid(x))
swish = _activation("swish", lambda x: x * tf.sigmoid(x))
log_sigmoid = _activation("log_sigmoid", lambda x: -tf.softplus(-x))
selu = _activation("selu", tf.selu)
hard_sigmoid = _activation("hard_sigmoid", lambda x: tf.relu6(x + 3.0) / 6.0)
hard_silu = _activation("hard_silu", lambda x: x * tf.relu6(x + 3.0) / 6.0)
hard_swish = _activation("hard_swish", lambda x: x * tf.relu6(x + 3.0) / 6.0)
tanh_shrink = _activation("tanh_shrink", lambda x: x - tf.tanh(x))


@_export
@keras_op
def leaky_relu(x, negative_slope=0.2):
    """`keras.ops.leaky_relu(x, negative_slope=0.2)`."""
    return tf.leaky_relu(to_float(x), alpha=negative_slope)


@_export
@keras_op
def elu(x, alpha=1.0):
    """`keras.ops.elu(x, alpha=1.0)`."""
    x = to_float(x)
    return tf.where(x > 0, x, alpha * tf.expm1(tf.minimum(x, 0.0)))


@_export
@keras_op
def celu(x, alpha=1.0):
    """`keras.ops.celu(x, alpha=1.0)`."""
    x = to_float(x)
    return tf.maximum(x, 0.0) + alpha * tf.expm1(tf.minimum(x, 0.0) / alpha)


@_export
@keras_op
def gelu(x, approximate=True):
    """`keras.ops.gelu(x, approximate=True)`: Keras's default is the tanh form."""
    x = to_float(x)
    if approximate:
        c = math.sqrt(2.0 / math.pi)
        return 0.5 * x * (1.0 + tf.tanh(c * (x + 0.044715 * x * x * x)))
    return 0.5 * x * (1.0 + tf.erf(x / math.sqrt(2.0)))


@_export
@keras_op
def softmax(x, axis=-1):
    """`keras.ops.softmax(x, axis=-1)`; axis may be a tuple."""
    x = to_float(x)
    if isinstance(axis, (list, tuple)):
        shifted = x - tf.stop_gradient(tf.reduce_max(x, axis=list(axis), keepdims=True))
        e = tf.exp(shifted)
        return e / tf.reduce_sum(e, axis=list(axis), keepdims=True)
    return tf.softmax(x, axis=axis)


@_export
@keras_op
def log_softmax(x, axis=-1):
    """`keras.ops.log_softmax(x, axis=-1)`."""
    x = to_float(x)
    return x - tf.reduce_logsumexp(x, axis=axis, keepdims=True)


@_export
@keras_op
def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """`keras.ops.one_hot(x, num_classes, axis=-1, dtype=None)`: float32;
    negative indices give a zero row."""
    x = cast_to(tensor(x), "int32")
    return tf.one_hot(x, num_classes, axis=axis, dtype=standardize_dtype(dtype))


@_export
@keras_op
def multi_hot(inputs, num_classes, axis=-1, dtype=None, sparse=False):
    """`keras.ops.multi_hot(inputs, num_classes)`: one row per sample."""
    x = cast_to(tensor(inputs), "int32")
    hot = tf.one_hot(x, num_classes, axis=-1, dtype=standardize_dtype(dtype))
    if len(x.shape) <= 1:
        return tf.reduce_max(hot, axis=0)
    return tf.reduce_max(hot, axis=-2)


def _reduce_loss_inputs(target, output):
    return to_float(target), to_float(output)


@_export
@keras_op
def binary_crossentropy(target, output, from_logits=False):
    """`keras.ops.binary_crossentropy(target, output, from_logits=False)`:
    elementwise; probabilities clipped to [1e-7, 1 - 1e-7]."""
    target, output = _reduce_loss_inputs(target, output)
    if from_logits:
        return tf.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    output = tf.clip_by_value(output, 1e-7, 1.0 - 1e-7)
    return -(target * tf.log(output) + (1.0 - target) * tf.log(1.0 - output))


@_export
@keras_op
def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """`keras.ops.categorical_crossentropy(target, output, from_logits=False, axis=-1)`."""
    target, output = _reduce_loss_inputs(target, output)
    if from_logits:
        return -tf.reduce_sum(target * log_softmax(output, axis=axis), axis=axis)
    output = output / tf.reduce_sum(output, axis=axis, keepdims=True)
    output = tf.clip_by_value(output, 1e-7, 1.0 - 1e-7)
    return -tf.reduce_sum(target * tf.log(output), axis=axis)


@_export
@keras_op
def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """`keras.ops.sparse_categorical_crossentropy(target, output, from_logits=False)`."""
    output = to_float(output)
    depth = output.shape.as_list()[axis]
    return categorical_crossentropy(one_hot(target, depth, dtype=output.dtype), output,
                                    from_logits=from_logits, axis=axis)


@_export
@keras_op
def moments(x, axes, keepdims=False, synchronized=False):
    """`keras.ops.moments(x, axes, keepdims=False)`: (mean, variance)."""
    x = to_float(x)
    mean = tf.reduce_mean(x, axis=list(axes), keepdims=True)
    variance = tf.reduce_mean(tf.square(x - tf.stop_gradient(mean)), axis=list(axes),
                              keepdims=True)
    if not keepdims:
        mean = tf.squeeze(mean, list(axes))
        variance = tf.squeeze(variance, list(axes))
    return mean, variance


@_export
@keras_op
def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    """`keras.ops.batch_normalization(x, mean, variance, axis, offset, scale, epsilon)`."""
    x = to_float(x)
    shape = [1] * len(x.shape)
    shape[axis] = -1

    def expand(v):
        return None if v is None else tf.reshape(cast_to(tensor(v), x.dtype), shape)
    inv = tf.rsqrt(expand(variance) + epsilon)
    if scale is not None:
        inv = inv * expand(scale)
    out = (x - expand(mean)) * inv
    return out if offset is None else out + expand(offset)


@_export
@keras_op
def normalize(x, axis=-1, order=2, epsilon=None):
    """`keras.ops.normalize(x, axis=-1, order=2)`: x over its L2 norm."""
    x = to_float(x)
    eps = 1e-12 if epsilon is None else epsilon
    sq = tf.reduce_sum(tf.square(x), axis=axis, keepdims=True)
    return x * tf.rsqrt(tf.maximum(sq, eps * eps if epsilon is None else eps))


hard_tanh = _activation("hard_tanh", lambda x: tf.clip_by_value(x, -1.0, 1.0))


@_export
@keras_op
def squareplus(x, b=4):
    """`keras.ops.squareplus(x, b=4)`: (x + sqrt(x^2 + b)) / 2."""
    x = to_float(x)
    return (x + tf.sqrt(x * x + b)) / 2.0


@_export
@keras_op
def soft_shrink(x, threshold=0.5):
    """`keras.ops.soft_shrink(x, threshold=0.5)`."""
    x = to_float(x)
    return tf.where(x > threshold, x - threshold,
                    tf.where(x < -threshold, x + threshold, tf.zeros_like(x)))


@_export
@keras_op
def hard_shrink(x, threshold=0.5):
    """`keras.ops.hard_shrink(x, threshold=0.5)`."""
    x = to_float(x)
    return tf.where(tf.abs(x) > threshold, x, tf.zeros_like(x))


@_export
@keras_op
def threshold(x, threshold, default_value):
    """`keras.ops.threshold(x, threshold, default_value)`: x where x > threshold."""
    x = to_float(x)
    return tf.where(x > threshold, x, tf.fill(tf.shape(x), tensor(default_value, x.dtype)))


@_export
@keras_op
def sparse_plus(x):
    """`keras.ops.sparse_plus(x)`: 0, (x + 1)^2 / 4, x on (-inf, -1], (-1, 1), [1, inf)."""
    x = to_float(x)
    return tf.where(x <= -1.0, tf.zeros_like(x),
                    tf.where(x < 1.0, tf.square(x + 1.0) / 4.0, x))


@_export
@keras_op
def sparse_sigmoid(x):
    """`keras.ops.sparse_sigmoid(x)`: 0, (x + 1) / 2, 1."""
    x = to_float(x)
    return tf.where(x <= -1.0, tf.zeros_like(x),
                    tf.where(x >= 1.0, tf.ones_like(x), (x + 1.0) / 2.0))


@_export
@keras_op
def glu(x, axis=-1):
    """`keras.ops.glu(x, axis=-1)`: a * sigmoid(b) of x's two halves."""
    a, b = tf.split(to_float(x), 2, axis=axis)
    return a * tf.sigmoid(b)


@_export
@keras_op
def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    """`keras.ops.layer_normalization(x, gamma=None, beta=None, axis=-1,
    epsilon=None)`: epsilon 1e-7 (Keras's `backend.epsilon()`) by default."""
    x = to_float(x)
    eps = 1e-7 if epsilon is None else epsilon
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    mean = tf.reduce_mean(x, axis=axes, keepdims=True)
    variance = tf.reduce_mean(tf.square(x - mean), axis=axes, keepdims=True)
    out = (x - mean) * tf.rsqrt(variance + eps)
    if gamma is not None:
        out = out * cast_to(tensor(gamma), x.dtype)
    if beta is not None:
        out = out + cast_to(tensor(beta), x.dtype)
    return out


@_export
@keras_op
def rms_normalization(x, scale=1, axis=-1, epsilon=None):
    """`keras.ops.rms_normalization(x, scale=1, axis=-1, epsilon=None)`: epsilon
    defaults to the float's machine epsilon, as Keras's."""
    x = to_float(x)
    eps = float(np.finfo(x.dtype.np_dtype).eps) if epsilon is None else epsilon
    ms = tf.reduce_mean(tf.square(x), axis=axis, keepdims=True)
    return x * tf.rsqrt(ms + eps) * cast_to(tensor(scale), x.dtype)


def _pool_args(inputs, pool_size, strides, padding, data_format):
    rank = len(inputs.shape) - 2
    size = [pool_size] * rank if isinstance(pool_size, int) else list(pool_size)
    strides = size if strides is None else \
        [strides] * rank if isinstance(strides, int) else list(strides)
    return size, strides, padding.upper()


@_export
@keras_op
def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """`keras.ops.max_pool(inputs, pool_size, strides=None, padding="valid")`, channels_last."""
    inputs = to_channels_last(tensor(inputs), data_format)
    size, strides, padding = _pool_args(inputs, pool_size, strides, padding, data_format)
    return from_channels_last(tf.max_pool(inputs, size, strides, padding), data_format)


@_export
@keras_op
def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """`keras.ops.average_pool(inputs, pool_size, strides=None, padding="valid")`."""
    inputs = to_channels_last(tensor(inputs), data_format)
    size, strides, padding = _pool_args(inputs, pool_size, strides, padding, data_format)
    return from_channels_last(tf.avg_pool(inputs, size, strides, padding), data_format)


@_export
@keras_op
def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """`keras.ops.conv(inputs, kernel, strides=1, padding="valid", dilation_rate=1)`,
    channels_last; kernel (spatial..., in, out)."""
    inputs, kernel = to_channels_last(tensor(inputs), data_format), tensor(kernel)
    rank = len(inputs.shape) - 2
    strides = [strides] * rank if isinstance(strides, int) else list(strides)
    dil = [dilation_rate] * rank if isinstance(dilation_rate, int) else list(dilation_rate)
    return from_channels_last(tf.convolution(inputs, cast_to(kernel, inputs.dtype), strides=strides,
                                     padding=padding.upper(), dilations=dil), data_format)


@_export
@keras_op
def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None,
                   dilation_rate=1):
    """`keras.ops.depthwise_conv(inputs, kernel, ...)`: 2-D, channels_last."""
    inputs, kernel = to_channels_last(tensor(inputs), data_format), tensor(kernel)
    s = [strides] * 2 if isinstance(strides, int) else list(strides)
    d = [dilation_rate] * 2 if isinstance(dilation_rate, int) else list(dilation_rate)
    return from_channels_last(tf.depthwise_conv2d(inputs, kernel, [1, *s, 1], padding.upper(),
                                          dilations=d), data_format)


@_export
@keras_op
def dot_product_attention(query, key, value, bias=None, mask=None, scale=None,
                          is_causal=False, **kwargs):
    """`keras.ops.dot_product_attention(query, key, value, bias=None, mask=None,
    scale=None, is_causal=False)`: inputs (batch, length, heads, dim)."""
    q, k, v = to_float(query), to_float(key), to_float(value)
    dim = q.shape.as_list()[-1]
    scale = 1.0 / math.sqrt(dim) if scale is None else scale
    logits = tf.einsum("bthd,bshd->bhts", q, k) * scale
    if bias is not None:
        logits = logits + cast_to(tensor(bias), logits.dtype)
    t, s = logits.shape.as_list()[-2:]
    allowed = None
    if mask is not None:
        allowed = cast_to(tensor(mask), "bool")
    if is_causal:
        causal = tensor(np.tril(np.ones((t, s), dtype=bool)))
        allowed = causal if allowed is None else tf.logical_and(allowed, causal)
    if allowed is not None:
        logits = tf.where(allowed, logits, tf.fill(tf.shape(logits),
                                                   tensor(-1e9 if logits.dtype.name != "float16"
                                                          else -6e4, logits.dtype)))
    weights = tf.softmax(logits, axis=-1)
    return tf.einsum("bhts,bshd->bthd", weights, v)


@_export
@keras_op
def psnr(x1, x2, max_val):
    """`keras.ops.psnr(x1, x2, max_val)`: 20 log10(max_val) - 10 log10(mse)."""
    a, b = to_float(x1), to_float(x2)
    mse = tf.reduce_mean(tf.square(a - b))
    return 20.0 * math.log10(max_val) - 10.0 * tf.log(mse) / math.log(10.0)



@_export
@keras_op
def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """`keras.ops.ctc_loss`: CTC loss of int `target` [batch, max_label]
    under logits `output` [batch, frames, classes], class `mask_index` the
    blank; float32 (float64 output gives float64)."""
    output = tensor(output)
    result = "float64" if output.dtype.name == "float64" else "float32"
    loss = ctc_ops.ctc_loss(cast_to(target, "int32"), cast_to(output, "float32"),
                            target_length, output_length, logits_time_major=False,
                            blank_index=mask_index)
    return cast_to(loss, result)


@_export
@keras_op
def sparsemax(x, axis=-1):
    """`keras.ops.sparsemax(x, axis=-1)`: the Euclidean projection onto the simplex."""
    x = to_float(x)
    rank = len(x.shape)
    axis %= rank
    ordered = -tf.sort(-x, axis=axis)
    cums = tf.cumsum(ordered, axis=axis)
    n = x.shape.as_list()[axis]
    shape = [1] * rank
    shape[axis] = n
    r = tf.reshape(tf.range(1.0, n + 1.0, 1.0, dtype=x.dtype), shape)
    support = ordered - (cums - 1.0) / r > 0
    k = tf.reduce_sum(tf.cast(support, x.dtype), axis=axis, keepdims=True)
    tau = (tf.reduce_sum(tf.where(support, cums, tf.zeros_like(cums)), axis=axis,
                         keepdims=True) - 1.0) / k
    return tf.maximum(x - tau, 0.0)


def to_channels_last(x, data_format):
    """A channels_first batch (any rank) as channels_last; others as they are."""
    if data_format != "channels_first":
        return x
    return tf.transpose(x, [0, *range(2, len(x.shape)), 1])


def from_channels_last(x, data_format):
    """The inverse of `to_channels_last`."""
    if data_format != "channels_first":
        return x
    n = len(x.shape)
    return tf.transpose(x, [0, n - 1, *range(1, n - 1)])


@_export
@keras_op
def depth_to_space(x, block_size, data_format="channels_last"):
    """`keras.ops.depth_to_space(x, block_size, data_format="channels_last")`."""
    x = to_channels_last(tensor(x), data_format)
    n, h, w, c = x.shape.as_list()
    b = block_size
    out = tf.reshape(x, [-1, h, w, b, b, c // (b * b)])
    out = tf.transpose(out, [0, 1, 3, 2, 4, 5])
    return from_channels_last(tf.reshape(out, [-1, h * b, w * b, c // (b * b)]), data_format)


@_export
@keras_op
def space_to_depth(x, block_size, data_format="channels_last"):
    """`keras.ops.space_to_depth(x, block_size, data_format="channels_last")`."""
    x = to_channels_last(tensor(x), data_format)
    n, h, w, c = x.shape.as_list()
    b = block_size
    out = tf.reshape(x, [-1, h // b, b, w // b, b, c])
    out = tf.transpose(out, [0, 1, 3, 2, 4, 5])
    return from_channels_last(tf.reshape(out, [-1, h // b, w // b, c * b * b]), data_format)


@_export
@keras_op
def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1, padding="valid",
                   data_format=None, dilation_rate=1):
    """`keras.ops.separable_conv(...)`: depthwise then pointwise, 2-D channels_last."""
    x = depthwise_conv(inputs, depthwise_kernel, strides, padding, data_format, dilation_rate)
    return conv(x, pointwise_kernel, data_format=data_format)


@_export
@keras_op
def conv_transpose(inputs, kernel, strides=1, padding="valid", output_padding=None,
                   data_format=None, dilation_rate=1):
    """`keras.ops.conv_transpose(inputs, kernel, strides=1, padding="valid")`: 2-D
    kernel (h, w, out, in), no output_padding."""
    inputs = to_channels_last(tensor(inputs), data_format)
    kernel = cast_to(tensor(kernel), inputs.dtype)
    if len(inputs.shape) != 4 or output_padding is not None:
        raise ValueError("conv_transpose here takes 4-D channels_last inputs, no output_padding")
    s = [strides] * 2 if isinstance(strides, int) else list(strides)
    n, h, w, _ = inputs.shape.as_list()
    kh, kw, out_c, _ = kernel.shape.as_list()
    if padding.lower() == "same":
        size = [h * s[0], w * s[1]]
    else:
        size = [(h - 1) * s[0] + kh, (w - 1) * s[1] + kw]
    batch = tf.shape(inputs)[:1]
    shape = tf.concat([batch, tensor(size + [out_c], "int32")], axis=0)
    return from_channels_last(tf.conv2d_transpose(inputs, kernel, shape, [1, *s, 1],
                                          padding=padding.upper()), data_format)



def _adaptive(name, reduce_fn):
    def fn(inputs, output_size, data_format=None):
        x = tensor(inputs)
        rank = len(x.shape) - 2
        channels_first = data_format == "channels_first"
        sizes = [output_size] * rank if isinstance(output_size, int) else list(output_size)
        for d, out_n in enumerate(sizes):
            axis = d + (2 if channels_first else 1)
            n = x.shape.as_list()[axis]
            parts = []
            for i in range(out_n):
                start, end = (i * n) // out_n, -((-(i + 1) * n) // out_n)
                window = tf.gather(x, tensor(np.arange(start, end, dtype=np.int32)), axis=axis)
                parts.append(reduce_fn(window, axis=axis, keepdims=True))
            x = tf.concat(parts, axis=axis)
        return x
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"`keras.ops.{name}(inputs, output_size, data_format=None)`: window i "
                  "spans [floor(i*n/out), ceil((i+1)*n/out)).")
    return _export(keras_op(fn))


adaptive_average_pool = _adaptive("adaptive_average_pool", tf.reduce_mean)
adaptive_max_pool = _adaptive("adaptive_max_pool", tf.reduce_max)



@_export
@keras_op
def polar(abs_, angle):
    """`keras.ops.polar(abs_, angle)`: abs_ * exp(i angle), complex64 for float32."""
    r, theta = to_float(abs_), to_float(angle)
    return tf.complex(r * tf.cos(theta), r * tf.sin(theta))



def _pair_arg(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def _unfold_grid(h, w, kernel, dilation, padding, stride):
    """The patch grid of `unfold`: output rows, columns and each kernel
    offset (i, j) as a pixel offset."""
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = kernel, dilation, padding, stride
    rows = (h + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    cols = (w + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    return rows, cols


@_export
@keras_op
def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """`keras.ops.unfold(x, kernel_size, dilation=1, padding=0, stride=1)`:
    im2col of an (N, C, H, W) batch to (N, C*kH*kW, L), channel-major."""
    x = tensor(x)
    kernel, dil, pad, st = (_pair_arg(v) for v in (kernel_size, dilation, padding, stride))
    _, c, h, w = x.shape.as_list()
    x = tf.pad(x, [[0, 0], [0, 0], [pad[0], pad[0]], [pad[1], pad[1]]])
    rows, cols = _unfold_grid(h, w, kernel, dil, pad, st)
    blocks = []
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            r0, c0 = i * dil[0], j * dil[1]
            patch = x[:, :, r0:r0 + (rows - 1) * st[0] + 1:st[0],
                      c0:c0 + (cols - 1) * st[1] + 1:st[1]]
            blocks.append(tf.reshape(patch, [-1, c, rows * cols]))
    out = tf.stack(blocks, axis=2)  # (N, C, kH*kW, L)
    return tf.reshape(out, [-1, c * kernel[0] * kernel[1], rows * cols])


@_export
@keras_op
def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """`keras.ops.fold(x, output_size, kernel_size, ...)`: col2im, the patches
    of `unfold` summed back into an (N, C, H, W) batch."""
    x = tensor(x)
    kernel, dil, pad, st = (_pair_arg(v) for v in (kernel_size, dilation, padding, stride))
    h, w = _pair_arg(output_size)
    n_k = kernel[0] * kernel[1]
    c = x.shape.as_list()[1] // n_k
    rows, cols = _unfold_grid(h, w, kernel, dil, pad, st)
    x = tf.reshape(x, [-1, c, n_k, rows, cols])
    hp, wp = h + 2 * pad[0], w + 2 * pad[1]
    out = None
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            r0, c0 = i * dil[0], j * dil[1]
            block = x[:, :, i * kernel[1] + j]
            # place block at rows r0, r0+s, ... by interleaving zeros then padding
            spread = _spread(block, st, rows, cols)
            span_h, span_w = (rows - 1) * st[0] + 1, (cols - 1) * st[1] + 1
            placed = tf.pad(spread, [[0, 0], [0, 0], [r0, hp - r0 - span_h],
                                     [c0, wp - c0 - span_w]])
            out = placed if out is None else out + placed
    return out[:, :, pad[0]:pad[0] + h, pad[1]:pad[1] + w]


def _spread(block, stride, rows, cols):
    """block (N, C, rows, cols) with stride-1 zeros between its entries."""
    sh, sw = stride
    if sh > 1:
        block = tf.reshape(tf.concat([tf.expand_dims(block, 3)] + [tf.zeros_like(
            tf.expand_dims(block, 3))] * (sh - 1), axis=3), [-1, block.shape.as_list()[1],
                                                             rows * sh, cols])
        block = block[:, :, :(rows - 1) * sh + 1]
    if sw > 1:
        n_rows = block.shape.as_list()[2]
        block = tf.reshape(tf.concat([tf.expand_dims(block, 4)] + [tf.zeros_like(
            tf.expand_dims(block, 4))] * (sw - 1), axis=4), [-1, block.shape.as_list()[1],
                                                             n_rows, cols * sw])
        block = block[:, :, :, :(cols - 1) * sw + 1]
    return block


__all__.sort()
