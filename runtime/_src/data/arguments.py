"""A dataset passed to a tf.function: keyed by its DatasetSpec and fed as one
`variant` tensor, so a new dataset with the same element_spec reuses the
trace (TensorFlow's DatasetSpec), and the graph holds no dataset of its own.

    f(Dataset.range(3)); f(Dataset.range(10))     # one trace: same element_spec
    f(Dataset.range(3).map(to_float))             # a second trace

The function layer's signatures see `Dataset._composite_spec()`, a
`TensorSpec` of dtype variant that also knows how to `feed` a dataset (a
`DatasetHandle` run-time value) and how to `wrap` the placeholder made for
it back into a dataset (`FromHandle`) while tracing.
"""

from runtime._src.core import dtypes
from runtime._src.core.tensor import VariantValue
from runtime._src.core.tensor_shape import TensorSpec
from runtime._src.data.batching import DatasetSpec
from runtime._src.data.dataset import UNKNOWN_CARDINALITY, Dataset
from runtime._src.data.env import EMPTY
from runtime._src.function.signature import InputSignatureMismatchError

__all__ = ["DatasetArgumentSpec", "DatasetHandle", "FromHandle"]


class DatasetHandle(VariantValue):
    """The run-time value of a dataset argument's placeholder."""

    __slots__ = ("dataset",)

    def __init__(self, dataset):
        self.dataset = dataset

    def __repr__(self):
        return f"<dataset handle {self.dataset!r}>"


class DatasetArgumentSpec(TensorSpec):
    """The template leaf of a dataset argument (see the module docstring)."""

    __slots__ = ("value_spec",)

    def __init__(self, element_spec, name=None):
        super().__init__([], dtypes.variant, name)
        self.value_spec = DatasetSpec(element_spec)

    def named(self, name):
        return DatasetArgumentSpec(self.value_spec.element_spec, name)

    def feed(self, value, path, where):
        if not isinstance(value, Dataset) or DatasetSpec.from_value(value) != self.value_spec:
            given = repr(value.element_spec) if isinstance(value, Dataset) else \
                type(value).__name__
            error = InputSignatureMismatchError(
                f"{where}: argument '{path}' must be a dataset of {self.value_spec!r}, got "
                f"{given}")
            error.reason = f"Can not cast {given} to {self.value_spec!r}"
            error.dtype_of_input = None      # what function/signature.py's errors carry
            raise error
        return DatasetHandle(value)

    def wrap(self, placeholder):
        return FromHandle(placeholder, self.value_spec.element_spec)

    def __eq__(self, other):
        return isinstance(other, DatasetArgumentSpec) and self.value_spec == other.value_spec \
            and self.name == other.name

    def __hash__(self):
        return hash((self.value_spec, self.name))

    def __repr__(self):
        return repr(self.value_spec)


class FromHandle(Dataset):
    """While tracing: the dataset argument, read from its placeholder when the
    graph runs."""

    def __init__(self, placeholder, element_spec):
        self._params = (placeholder,)
        super().__init__(element_spec)

    def _cardinality(self):
        return UNKNOWN_CARDINALITY

    def _iterate(self, env):
        return env.value(self._params[0]).dataset._iterate(EMPTY)


def _composite_spec(dataset):
    return DatasetArgumentSpec(dataset.element_spec)


Dataset._composite_spec = _composite_spec
