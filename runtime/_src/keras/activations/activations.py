"""Activation functions by name (`Dense(8, activation="relu")`), as Keras 3.

    relu(x, negative_slope=0, max_value=None, threshold=0)
        x above threshold (exclusive: relu(1, threshold=1) is 0), clipped to
        [0, max_value], minus negative_slope * relu(threshold - x)
    sigmoid, softmax(x, axis=-1)   the output carries `_keras_logits` = x, so
        the cross-entropies of runtime/_src/keras/losses/losses.py use the logits
    hard_sigmoid(x) = relu6(x + 3) / 6      hard_silu(x) = x * hard_sigmoid(x)
    mish(x) = x * tanh(softplus(x))         elu(x, alpha=1), gelu(x, approximate=False),
    leaky_relu(x, negative_slope=0.2), log_softmax(x, axis=-1), silu (swish),
    selu, softplus, softsign, relu6, tanh, exponential, linear

and the ones Keras 3 added (keras.ops.nn has their ops):

    celu(x, alpha=1)          max(x, 0) + min(alpha * (exp(x / alpha) - 1), 0)
    glu(x, axis=-1)           a * sigmoid(b), x split in halves a, b along axis
    hard_shrink(x, threshold=0.5)   x where |x| > threshold, else 0
    soft_shrink(x, threshold=0.5)   x -+ threshold where |x| > threshold, else 0
    hard_tanh(x)              clip(x, -1, 1)
    log_sigmoid(x)            -softplus(-x)
    tanh_shrink(x)            x - tanh(x)
    sparse_plus(x)            0 below -1, x above 1, (x + 1)^2 / 4 between
    sparse_sigmoid(x)         0 below -1, 1 above 1, (x + 1) / 2 between
    sparsemax(x, axis=-1)     the Euclidean projection of x onto the simplex
    squareplus(x, b=4)        (x + sqrt(x^2 + b)) / 2
    threshold(x, threshold, default_value)   x where x > threshold, else default_value

`get(identifier)`: None and "linear" give the identity; a string names one of
the functions above; a callable is returned as it is.
"""

from runtime._src.core.tensor import convert_to_tensor
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.ops import array_ops, math_ops, nn_ops
from runtime._src.keras.ops import nn as _nn

__all__ = ["get", "serialize", "deserialize", "linear", "relu", "sigmoid", "softmax", "tanh",
           "exponential", "elu", "selu", "gelu", "softplus", "softsign", "relu6", "leaky_relu",
           "silu", "swish", "log_softmax", "hard_sigmoid", "hard_silu", "hard_swish", "mish",
           "celu", "glu", "hard_shrink", "hard_tanh", "log_sigmoid", "soft_shrink",
           "sparse_plus", "sparse_sigmoid", "sparsemax", "squareplus", "tanh_shrink",
           "threshold"]


def _with_logits(output, logits):
    """output, marked with the logits behind it (Keras 3's `_keras_logits`)."""
    output._keras_logits = logits
    return output


def linear(x):
    return x


def _scalar(value, dtype):
    return array_ops.constant(value, dtype)


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """Keras 3's relu; with the defaults tf.nn.relu (gradient 0 at 0)."""
    x = convert_to_tensor(x)
    if negative_slope == 0.0 and max_value is None and threshold == 0:
        return nn_ops.relu(x)
    if negative_slope != 0.0 and max_value is None and threshold == 0:
        return nn_ops.leaky_relu(x, alpha=negative_slope)
    below = None
    if negative_slope != 0.0:
        below = nn_ops.relu(_scalar(threshold, x.dtype) - x if threshold != 0
                            else math_ops.negative(x))
    clip = max_value is not None
    if threshold != 0:
        t = _scalar(threshold, x.dtype)
        out = math_ops.where(math_ops.greater(x, t), x, array_ops.zeros_like(x))
    elif max_value == 6:
        out, clip = nn_ops.relu6(x), False
    else:
        out = nn_ops.relu(x)
    if clip:
        out = math_ops.clip_by_value(out, _scalar(0.0, x.dtype), _scalar(max_value, x.dtype))
    if below is not None:
        out = out - _scalar(negative_slope, x.dtype) * below
    return out


def sigmoid(x):
    x = convert_to_tensor(x)
    return _with_logits(nn_ops.sigmoid(x), x)


def softmax(x, axis=-1):
    x = convert_to_tensor(x)
    if axis is None:
        flat = nn_ops.softmax(array_ops.reshape(x, [-1]), axis=-1)
        return _with_logits(array_ops.reshape(flat, array_ops.shape(x)), x)
    return _with_logits(nn_ops.softmax(x, axis=axis), x)


def tanh(x):
    return math_ops.tanh(x)


def exponential(x):
    return math_ops.exp(x)


def elu(x, alpha=1.0):
    out = nn_ops.elu(x)
    if alpha == 1:
        return out
    return math_ops.where(math_ops.greater(x, array_ops.zeros_like(x)), out,
                          _scalar(alpha, out.dtype) * out)


def selu(x):
    return nn_ops.selu(x)


def gelu(x, approximate=False):
    return nn_ops.gelu(x, approximate=approximate)


def softplus(x):
    return nn_ops.softplus(x)


def softsign(x):
    return nn_ops.softsign(x)


def relu6(x):
    return nn_ops.relu6(x)


def leaky_relu(x, negative_slope=0.2):
    return nn_ops.leaky_relu(x, alpha=negative_slope)


def silu(x):
    return nn_ops.silu(x)


def log_softmax(x, axis=-1):
    return nn_ops.log_softmax(x, axis=axis)


def hard_sigmoid(x):
    """relu6(x + 3) / 6: 0 up to -3, 1 from 3, linear between."""
    x = convert_to_tensor(x)
    return nn_ops.relu6(x + _scalar(3.0, x.dtype)) / _scalar(6.0, x.dtype)


def hard_silu(x):
    """x * hard_sigmoid(x)."""
    x = convert_to_tensor(x)
    return x * hard_sigmoid(x)


def mish(x):
    """x * tanh(softplus(x))."""
    x = convert_to_tensor(x)
    return x * math_ops.tanh(nn_ops.softplus(x))


swish = silu
hard_swish = hard_silu

_BY_NAME = {
    "linear": linear, "relu": relu, "sigmoid": sigmoid, "softmax": softmax, "tanh": tanh,
    "exponential": exponential, "elu": elu, "selu": selu, "gelu": gelu,
    "softplus": softplus, "softsign": softsign, "relu6": relu6, "leaky_relu": leaky_relu,
    "silu": silu, "swish": silu, "log_softmax": log_softmax, "hard_sigmoid": hard_sigmoid,
    "hard_silu": hard_silu, "hard_swish": hard_silu, "mish": mish,
}


def get(identifier):
    """The activation function `identifier` names (or is)."""
    if isinstance(identifier, dict):          # Keras 3's {"class_name": "function", ...}
        if identifier.get("config") in _BY_NAME:
            return _BY_NAME[identifier["config"]]
        return serialization.deserialize_keras_object(identifier)
    return serialization.get_by_identifier(identifier, "activation function", _BY_NAME, None,
                                           none=linear)


def serialize(fn):
    """The name of a built-in activation function; a user function's config."""
    for name, known in _BY_NAME.items():
        if known is fn:
            return name
    return serialization.serialize_keras_object(fn)


def deserialize(config, custom_objects=None):
    """The function a `serialize` result names."""
    if isinstance(config, str):
        return serialization.deserialize_name(config, custom_objects, _BY_NAME)
    if isinstance(config, dict) and not isinstance(config.get("config"), str):
        return serialization.deserialize_keras_object(config, custom_objects=custom_objects)
    return get(config)


def celu(x, alpha=1.0):
    return _nn.celu(x, alpha=alpha)


def glu(x, axis=-1):
    return _nn.glu(x, axis=axis)


def hard_shrink(x, threshold=0.5):
    return _nn.hard_shrink(x, threshold=threshold)


def hard_tanh(x):
    return _nn.hard_tanh(x)


def log_sigmoid(x):
    return _nn.log_sigmoid(x)


def soft_shrink(x, threshold=0.5):
    return _nn.soft_shrink(x, threshold=threshold)


def sparse_plus(x):
    return _nn.sparse_plus(x)


def sparse_sigmoid(x):
    return _nn.sparse_sigmoid(x)


def sparsemax(x, axis=-1):
    return _nn.sparsemax(x, axis=axis)


def squareplus(x, b=4):
    return _nn.squareplus(x, b=b)


def tanh_shrink(x):
    return _nn.tanh_shrink(x)


def threshold(x, threshold, default_value):
    return _nn.threshold(x, threshold, default_value)


for _fn in (celu, glu, hard_shrink, hard_tanh, log_sigmoid, soft_shrink, sparse_plus,
            sparse_sigmoid, sparsemax, squareplus, tanh_shrink, threshold):
    _BY_NAME[_fn.__name__] = _fn
