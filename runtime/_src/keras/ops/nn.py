"""`keras.ops.nn`: activations, softmax and losses with Keras 3's
signatures (`softmax(x, axis=-1)`, `one_hot(x, num_classes)`), over the
runtime's `tf.nn` ops. Int inputs of the activations give float32."""

import math

from runtime._src.keras.ops.operation import cast_to, keras_op, standardize_dtype, tensor, to_float
from runtime._src.keras.ops.tfops import tf

__all__ = []


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


__all__.sort()
