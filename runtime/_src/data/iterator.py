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
from runtime._src.core import dtypes
from runtime._src.core.composite import CompositeSpec
from runtime._src.core.tensor import EagerTensor, Tensor, wrap_numpy
from runtime._src.core.tensor import TensorSpec
from runtime._src.data import structure
from runtime._src.data.env import EMPTY

__all__ = ["Optional", "OptionalSpec", "IteratorSpec", "NumpyIterator", "OwnedIterator",
           "get_next_as_optional"]


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

    @property
    def _type_spec(self):
        return IteratorSpec(self.element_spec)

    def __repr__(self):
        return f"<OwnedIterator element_spec={self.element_spec!r}>"


class Optional:
    """`tf.experimental.Optional`: a value or nothing.

        opt = Optional.from_value({"a": x})     # has_value() True
        Optional.empty(tf.TensorSpec([], tf.int32)).has_value()   # False
    """

    def __init__(self, has, value, element_spec):
        self._has, self._value, self._element_spec = has, value, element_spec

    @property
    def element_spec(self):
        return self._element_spec

    @staticmethod
    def from_value(value):
        """An Optional holding `value` (a structure of tensors), its spec the value's."""
        value = structure.normalize(value, "Optional.from_value")
        tensors = structure.to_tensors(structure.to_numpy(value)) \
            if not _symbolic(value) else value
        return Optional(True, tensors, structure.spec_of(tensors))

    @staticmethod
    def empty(element_spec):
        """An Optional with no value, of type `element_spec`."""
        return Optional(False, None, element_spec)

    def has_value(self, name=None):
        return wrap_numpy(np.bool_(self._has)) if isinstance(self._has, bool) else self._has

    def get_value(self, name=None):
        if self._has is False:
            raise InvalidArgumentError("The given optional does not have a value.",
                                       "OptionalGetValue")
        return self._value

    @property
    def _type_spec(self):
        """CompositeValue: an OptionalSpec of the element_spec."""
        return OptionalSpec(self._element_spec)


def _symbolic(value):
    return any(isinstance(t, Tensor) and not hasattr(t, "_value")
               for t in structure.flatten(value))


class OptionalSpec(CompositeSpec):
    """`tf.OptionalSpec`: the type of an Optional (its element_spec).

    Components: the `has_value` bool, then the element's tensors (zeros of
    the spec's shape, unknown dimensions 0, when empty)."""

    def __init__(self, element_spec):
        self._element_spec = element_spec

    value_type = property(lambda self: Optional)
    element_spec = property(lambda self: self._element_spec)

    @staticmethod
    def from_value(value):
        return OptionalSpec(value.element_spec)

    def _serialize(self):
        return (repr(self._element_spec),)

    @property
    def _component_specs(self):
        leaves = structure.flatten(self._element_spec)
        for leaf in leaves:
            if not isinstance(leaf, TensorSpec):
                raise TypeError(f"an Optional of {leaf!r} cannot be passed to a tf.function; "
                                "only Optionals of tensors can")
        return [TensorSpec([], dtypes.bool)] + leaves

    def _to_components(self, value):
        specs = self._component_specs[1:]
        if value._has is False:
            leaves = [wrap_numpy(np.zeros([d or 0 for d in s.shape.as_list()],
                                          s.dtype.as_numpy_dtype)) for s in specs]
        else:
            leaves = structure.flatten(value._value)
        return [value.has_value()] + list(leaves)

    def _from_components(self, components):
        has, leaves = components[0], list(components[1:])
        if isinstance(has, EagerTensor):
            has = bool(has._value)
        return Optional(has, structure.pack(self._element_spec, leaves), self._element_spec)

    def __eq__(self, other):
        return isinstance(other, OptionalSpec) and repr(self) == repr(other)

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return f"OptionalSpec({self._element_spec!r},)"


class IteratorSpec:
    """`tf.data.IteratorSpec`: the type of an iterator (its element_spec)."""

    def __init__(self, element_spec):
        self._element_spec = element_spec

    value_type = property(lambda self: OwnedIterator)

    @staticmethod
    def from_value(value):
        return IteratorSpec(value.element_spec)

    def __eq__(self, other):
        return isinstance(other, IteratorSpec) and repr(self) == repr(other)

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return f"IteratorSpec({self._element_spec!r},)"


class NumpyIterator:
    """What `Dataset.as_numpy_iterator()` returns: the elements as numpy values
    (bytes for strings), `next(it)` or `it.next()`."""

    def __init__(self, dataset):
        self._iterator = OwnedIterator(dataset)

    def __iter__(self):
        return self

    def __next__(self):
        element = next(self._iterator._it)
        self._iterator._produced += 1
        return structure.to_numpy(element)

    next = __next__

    def __repr__(self):
        return f"NumpyIterator(iterator={self._iterator!r})"


def get_next_as_optional(iterator):
    """`tf.data.experimental.get_next_as_optional`: `iterator.get_next_as_optional()`."""
    return iterator.get_next_as_optional()
