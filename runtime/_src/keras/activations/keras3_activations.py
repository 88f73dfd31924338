"""The activation functions Keras 3 added (keras.ops.nn has their ops):

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

They are registered by name with keras.activations.get.
"""

from runtime._src.keras.activations import activations
from runtime._src.keras.ops import nn as _nn

__all__ = ["celu", "glu", "hard_shrink", "hard_tanh", "log_sigmoid", "soft_shrink",
           "sparse_plus", "sparse_sigmoid", "sparsemax", "squareplus", "tanh_shrink",
           "threshold"]


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
    activations._BY_NAME[_fn.__name__] = _fn
