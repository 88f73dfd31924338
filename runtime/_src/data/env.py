"""Binding the tensors a dataset was built from to values.

A dataset built eagerly holds EagerTensors; one built while tracing may hold
symbolic tensors (`from_tensor_slices(x)` of a function argument). Its
pipeline runs when the graph runs: the iterator op gets the values of those
tensors as inputs, and `Env` maps each tensor to its value.

    env = Env({t: np.array([1, 2])})
    env.value(t)        # array([1, 2])
    env.value(eager)    # eager._value
"""

import numpy as np

from runtime._src.core.tensor import EagerTensor, SymbolicTensor

__all__ = ["DEBUG_MODE", "EMPTY", "Env", "symbolic_leaves"]


class Env:
    __slots__ = ("values",)
    ignore_errors = False       # passthrough.IgnoringEnv: map functions drop failed elements

    def __init__(self, values=None):
        self.values = values or {}

    def value(self, t):
        if isinstance(t, EagerTensor):
            return t._value
        if isinstance(t, SymbolicTensor):
            try:
                return self.values[id(t)]
            except KeyError:
                raise ValueError(f"the dataset uses the symbolic tensor {t.name}, which belongs "
                                 "to another graph; build the dataset inside the function "
                                 "that uses it, or pass the value as an argument") from None
        return np.asarray(t) if not isinstance(t, (np.ndarray, np.generic)) else t

    def __contains__(self, t):
        return id(t) in self.values


EMPTY = Env()

# tf.data.experimental.enable_debug_mode (mapping.py): the functions of the
# datasets built after it run as Python (eagerly), prefetching on one thread.
DEBUG_MODE = [False]


def symbolic_leaves(values, out):
    """Append the symbolic tensors among `values` (flat) to `out` (no repeats)."""
    for v in values:
        if isinstance(v, SymbolicTensor) and all(v is not o for o in out):
            out.append(v)
    return out
