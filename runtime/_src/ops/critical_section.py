"""`tf.CriticalSection`: `execute(fn)` runs `fn` with the section held, so
two threads never run it at once; its outputs come back as tensors. Running a
section inside itself is TF's ValueError (it would deadlock). Inside a
tf.function the section is held while `fn` is traced (the executor runs a
function's ops in order on its caller's thread; docs/tf_differences.md).

    >>> import runtime as tf
    >>> tf.CriticalSection().execute(lambda: 3)
    <tf.Tensor: shape=(), dtype=int32, numpy=3>
"""

import itertools
import threading

from runtime._src.core import nest
from runtime._src.core.tensor import convert_to_tensor

__all__ = ["CriticalSection"]

_ids = itertools.count()


class CriticalSection:
    """A lock that `execute(fn)` holds while `fn` runs."""

    def __init__(self, name=None, shared_name=None, critical_section_def=None,
                 import_scope=None):
        self._name = name or f"CriticalSection_{next(_ids)}"
        self._lock = threading.Lock()
        self._holder = None          # the thread running inside, if any

    @property
    def name(self):
        return self._name

    def execute(self, fn, exclusive_resource_access=True, name=None):
        """`fn()` with this section held; its outputs as tensors."""
        if self._holder == threading.get_ident():
            raise ValueError(f"Attempting to lock a CriticalSection (signature=('{self._name}',)) "
                             "in which we are already running. This is illegal and may cause "
                             "deadlocks.")
        with self._lock:
            self._holder = threading.get_ident()
            try:
                out = fn()
            finally:
                self._holder = None
        return nest.map_structure(convert_to_tensor, out)
