"""Activation functions by name (`Dense(8, activation="relu")`).

`get(identifier)`: None and "linear" give the identity; a string names one of
the functions below; a callable is returned as it is.
"""

from runtime._src.keras import serialization
from runtime._src.ops import math_ops, nn_ops

__all__ = ["get", "serialize", "linear", "relu", "sigmoid", "softmax", "tanh"]


def linear(x):
    return x


def relu(x):
    return nn_ops.relu(x)


def sigmoid(x):
    return nn_ops.sigmoid(x)


def softmax(x, axis=-1):
    return nn_ops.softmax(x, axis=axis)


def tanh(x):
    return math_ops.tanh(x)


def exponential(x):
    return math_ops.exp(x)


_BY_NAME = {
    "linear": linear, "relu": relu, "sigmoid": sigmoid, "softmax": softmax, "tanh": tanh,
    "exponential": exponential, "elu": nn_ops.elu, "selu": nn_ops.selu,
    "gelu": nn_ops.gelu, "softplus": nn_ops.softplus, "softsign": nn_ops.softsign,
    "relu6": nn_ops.relu6, "leaky_relu": nn_ops.leaky_relu, "silu": nn_ops.silu,
    "swish": nn_ops.silu, "log_softmax": nn_ops.log_softmax,
}


def get(identifier):
    """The activation function `identifier` names (or is)."""
    if identifier is None:
        return linear
    if isinstance(identifier, dict):          # Keras 3's {"class_name": "function", ...}
        identifier = identifier.get("config")
    if isinstance(identifier, str):
        fn = _BY_NAME.get(identifier)
        if fn is None:
            raise ValueError(f"Could not interpret activation function identifier: "
                             f"{identifier!r}. Known names: {', '.join(sorted(_BY_NAME))}")
        return fn
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier!r}")


def serialize(fn):
    """The name of a built-in activation function; a user function's config."""
    for name, known in _BY_NAME.items():
        if known is fn:
            return name
    return serialization.serialize_keras_object(fn)
