"""A dataset passed to a tf.function: a composite value (core/composite.py)
whose spec is its `DatasetSpec` and whose one component is a `variant` scalar,
so a new dataset with the same element_spec reuses the trace (TensorFlow's
DatasetSpec), and the graph holds no dataset of its own.

    f(Dataset.range(3)); f(Dataset.range(10))     # one trace: same element_spec
    f(Dataset.range(3).map(to_float))             # a second trace

This module holds what `DatasetSpec`'s two protocol methods (batching.py)
need beyond the dataset classes: `to_components` (the dataset as a
`DatasetHandle` run-time value) and `from_components` (the dataset again from
a handle, or, while tracing, a `FromHandle` dataset that reads its
placeholder when the graph runs). `Dataset._type_spec` is the DatasetSpec.
"""

from runtime._src.core import dtypes
from runtime._src.core.tensor import EagerTensor, VariantValue
from runtime._src.data.dataset import UNKNOWN_CARDINALITY, Dataset
from runtime._src.data.env import EMPTY

__all__ = ["DatasetHandle", "FromHandle", "from_components", "to_components"]


class DatasetHandle(VariantValue):
    """The run-time value of a dataset argument's placeholder."""

    __slots__ = ("dataset",)

    def __init__(self, dataset):
        self.dataset = dataset

    def __repr__(self):
        return f"<dataset handle {self.dataset!r}>"


class FromHandle(Dataset):
    """While tracing: the dataset argument, read from its placeholder when the
    graph runs."""
    _tf_class = "_VariantDataset"   # TensorFlow's repr

    def __init__(self, placeholder, element_spec):
        self._params = (placeholder,)
        super().__init__(element_spec)

    def _cardinality(self):
        return UNKNOWN_CARDINALITY

    def _iterate(self, env):
        return env.value(self._params[0]).dataset._iterate(EMPTY)


def to_components(dataset):
    """DatasetSpec._to_components: the dataset as a handle tensor."""
    return [EagerTensor(DatasetHandle(dataset), dtypes.variant)]


def from_components(spec, components):
    """DatasetSpec._from_components: the dataset of a handle (eager), or while
    tracing a FromHandle dataset reading the placeholder."""
    (handle,) = components
    if isinstance(handle, EagerTensor):
        return handle._value.dataset
    return FromHandle(handle, spec.element_spec)
