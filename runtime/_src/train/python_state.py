"""`tf.train.experimental.PythonState`: Python state in an object-based checkpoint.

A subclass defines `serialize()` (returns a string) and
`deserialize(string_value)`; `tf.train.Checkpoint` saves the string under
`<path>/.ATTRIBUTES/py_state` (TensorFlow's key, so either side reads the
other's) and a restore hands the saved bytes back to `deserialize`.

    class Counter(tf.train.experimental.PythonState):
        def __init__(self): self.n = 0
        def serialize(self): return str(self.n)
        def deserialize(self, string_value): self.n = int(string_value)
"""

import abc

import numpy as np

__all__ = ["PythonState", "PYTHON_STATE"]

PYTHON_STATE = "py_state"


class PythonState(metaclass=abc.ABCMeta):
    """A mixin for putting Python state in an object-based checkpoint."""

    _checkpoint_attribute = PYTHON_STATE

    @abc.abstractmethod
    def serialize(self):
        """Callback to serialize the object. Returns a string."""

    @abc.abstractmethod
    def deserialize(self, string_value):
        """Callback to deserialize the object."""

    def _checkpoint_children(self):
        return []

    def _serialize_to_tensors(self):
        value = self.serialize()
        if not isinstance(value, (str, bytes)):
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype string")
        return {"": np.array(value.encode("utf-8") if isinstance(value, str) else value,
                             dtype=object)}

    def _restore_from_tensors(self, restored_tensors):
        value = np.asarray(restored_tensors[""]).reshape(-1)[0]
        self.deserialize(value)
