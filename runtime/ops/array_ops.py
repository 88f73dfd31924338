"""Array ops: creation, reshaping, indexing, stacking."""

import numpy as np

from ..op_registry import apply, define_op
from ..tensor import convert_to_tensor

__all__ = ["getitem", "stack_nested"]


def getitem(tensor, key):
    """tensor[key] (numpy basic indexing and slicing)."""
    raise NotImplementedError("getitem is defined by the array ops issue")


def stack_nested(values, dtype=None):
    """Convert a nested list of tensors and scalars to one tensor (tf.stack)."""
    raise NotImplementedError("stack_nested is defined by the array ops issue")
