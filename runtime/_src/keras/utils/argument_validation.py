"""Argument checks the layers share (Keras's `utils/argument_validation.py` and
`standardize_data_format`): an int or a tuple of ints as a tuple of positive
ints, `padding` and `data_format` by their allowed values."""

import numbers

__all__ = ["ntuple", "check_interpolation", "RESIZE_INTERPOLATIONS"]


def _pair(value, name):
    """An int or a pair of ints as a pair (Keras's `standardize_tuple`)."""
    if isinstance(value, numbers.Integral):
        value = (value, value)
    value = tuple(value)
    if len(value) != 2 or not all(isinstance(v, numbers.Integral) and v > 0 for v in value):
        raise ValueError(f"The `{name}` argument must be a tuple of 2 positive integers. "
                         f"Received {name}={value}")
    return tuple(int(v) for v in value)


def _padding(value):
    padding = str(value).lower()
    if padding not in ("valid", "same"):
        raise ValueError("The `padding` argument must be one of 'valid', 'same'. Received: "
                         f"padding={value!r}")
    return padding


def _data_format(value):
    value = value or "channels_last"
    if value not in ("channels_last", "channels_first"):
        raise ValueError("The `data_format` argument must be one of 'channels_first', "
                         f"'channels_last'. Received: data_format={value!r}")
    return value


def ntuple(value, n, name):
    """An int or n ints as a tuple of n positive ints (Keras's `standardize_tuple`)."""
    if isinstance(value, numbers.Integral):
        value = (value,) * n
    value = tuple(value)
    if len(value) != n or not all(isinstance(v, numbers.Integral) and v > 0 for v in value):
        raise ValueError(f"The `{name}` argument must be a tuple of {n} positive integers. "
                         f"Received {name}={value}")
    return tuple(int(v) for v in value)


RESIZE_INTERPOLATIONS = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic", "area")


def check_interpolation(interpolation):
    """An image resize `interpolation` Keras 3 takes (Resizing, UpSampling2D)."""
    if interpolation not in RESIZE_INTERPOLATIONS:
        raise ValueError("Invalid value for argument `interpolation`. Expected of one "
                         f"{RESIZE_INTERPOLATIONS}. Received: interpolation={interpolation}")
    return interpolation
