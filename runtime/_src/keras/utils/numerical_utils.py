"""`keras.utils.to_categorical(x, num_classes=None)`: one-hot rows (float64, as Keras 3)
of integer labels."""

import numpy as np

__all__ = ["to_categorical"]


def to_categorical(x, num_classes=None):
    """One-hot rows for integer labels `x` (a trailing axis of 1 is dropped)."""
    x = np.asarray(x, dtype="int64")
    if x.ndim > 1 and x.shape[-1] == 1:
        x = x.reshape(x.shape[:-1])
    if x.size and x.min() < 0:
        raise ValueError(f"to_categorical: labels must be >= 0; got {int(x.min())}")
    if num_classes is None:
        num_classes = int(x.max()) + 1 if x.size else 0
    if x.size and x.max() >= num_classes:
        raise ValueError(f"to_categorical: label {int(x.max())} is out of range for "
                         f"num_classes={num_classes}")
    out = np.zeros(x.shape + (num_classes,), dtype="float64")
    np.put_along_axis(out, x[..., None], 1.0, axis=-1)
    return out
