"""Eager iterators: `iter(ds)`, `next(it)`, `it.get_next()`,
`it.get_next_as_optional()`.

    it = iter(ds)
    next(it)                    # EagerTensors; StopIteration at the end
    it.get_next()               # errors.OutOfRangeError at the end (as TF)
    opt = it.get_next_as_optional()
    opt.has_value()             # a bool tensor; opt.get_value() the element

A `tf.train.Checkpoint` saves an iterator's position (how many elements it
gave) under `<path>/.ATTRIBUTES/ITERATOR_STATE`, TensorFlow's key; restoring
starts the dataset again and skips that many, so the next element is the one
after the save (for a dataset that gives the same elements each pass).
"""

import numpy as np

from runtime._src.core.errors import InvalidArgumentError, OutOfRangeError
from runtime._src.core.tensor import wrap_numpy
from runtime._src.data import structure
from runtime._src.data.env import EMPTY

__all__ = ["Optional", "OwnedIterator"]


class OwnedIterator:
    def __init__(self, dataset):
        self._dataset = dataset
        self._it = dataset._iterate(EMPTY)
        self._produced = 0

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def __iter__(self):
        return self

    def __next__(self):
        element = next(self._it)
        self._produced += 1
        return structure.to_tensors(element)

    # --- tf.train.Checkpoint ------------------------------------------------

    _checkpoint_attribute = "ITERATOR_STATE"

    def _checkpoint_children(self):
        return []

    def _serialize_to_tensors(self):
        return {"": np.int64(self._produced)}

    def _restore_from_tensors(self, restored_tensors):
        count = int(np.asarray(restored_tensors[""]))
        self._it = self._dataset._iterate(EMPTY)
        self._produced = 0
        for _ in range(count):
            try:
                next(self._it)
            except StopIteration:
                break
            self._produced += 1

    next = __next__             # TF keeps `iterator.next()` (StopIteration at the end)

    def get_next(self):
        try:
            return next(self)
        except StopIteration:
            raise OutOfRangeError("End of sequence", "IteratorGetNext") from None

    def get_next_as_optional(self):
        try:
            return Optional(True, next(self), self.element_spec)
        except StopIteration:
            return Optional(False, None, self.element_spec)

    def __repr__(self):
        return f"<OwnedIterator element_spec={self.element_spec!r}>"


class Optional:
    """`tf.experimental.Optional`: a value or nothing."""

    def __init__(self, has, value, element_spec):
        self._has, self._value, self.element_spec = has, value, element_spec

    def has_value(self):
        return wrap_numpy(np.bool_(self._has)) if isinstance(self._has, bool) else self._has

    def get_value(self):
        if self._has is False:
            raise InvalidArgumentError("The Optional does not have a value",
                                       "OptionalGetValue")
        return self._value
