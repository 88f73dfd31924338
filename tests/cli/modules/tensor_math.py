"""Tensor functions written for `tf.function`, run with `import runtime as tf`."""

import runtime as tf


def affine(x, b):
    """No control flow: y = 2x + b."""
    return x * 2.0 + b


def clipped(x, limit):
    # A tensor `if`: becomes a cond when traced.
    if x > limit:
        y = limit
    else:
        y = x
    return y


def countdown_sum(n):
    total = 0
    while n > 0:
        total += n
        n -= 1
    return total


@tf.function
def decorated_square(x):
    return x * x
