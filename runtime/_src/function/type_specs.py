"""`tf.type_spec_from_value`, `tf.TensorArraySpec` and `tf.NoneTensorSpec`.

    type_spec_from_value(constant([1, 2]))     # TensorSpec(shape=(2,), dtype=tf.int32, name=None)
    TensorArraySpec([2], tf.float32)           # the spec of a TensorArray of [2] elements

`NoneTensorSpec()` is the spec of None (no components; `type_spec_from_value(None)`).
A value that knows its own spec (a RaggedTensor: `value._type_spec`) gives
that; numpy arrays and Python numbers give the spec of their tensor.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.composite import CompositeSpec, register_spec
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.core.protocols import reads_as_tensor

__all__ = ["type_spec_from_value", "TensorArraySpec", "NoneTensorSpec", "NoneTensor"]


class TensorArraySpec:
    """`tf.TensorArraySpec(element_shape, dtype, dynamic_size, infer_shape)`."""

    def __init__(self, element_shape=None, dtype=dtypes.float32, dynamic_size=False,
                 infer_shape=True):
        self.element_shape = element_shape if isinstance(element_shape, TensorShape) \
            else TensorShape(element_shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.dynamic_size = bool(dynamic_size)
        self.infer_shape = bool(infer_shape)

    def _key(self):
        return (self.element_shape.dims, self.dtype, self.dynamic_size, self.infer_shape)

    def __eq__(self, other):
        return isinstance(other, TensorArraySpec) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def is_compatible_with(self, other):
        return (isinstance(other, TensorArraySpec) and self.dtype == other.dtype
                and self.dynamic_size == other.dynamic_size
                and self.element_shape.is_compatible_with(other.element_shape))

    def __repr__(self):
        return (f"TensorArraySpec({self.element_shape!r}, tf.{self.dtype.name}, "
                f"{self.dynamic_size}, {self.infer_shape})")

    @staticmethod
    def from_value(value):
        shape = getattr(value, "element_shape", None)
        return TensorArraySpec(shape, value.dtype, getattr(value, "dynamic_size", False))


class NoneTensor:
    """The value type of `NoneTensorSpec`: the spec describes None."""


@register_spec
class NoneTensorSpec(CompositeSpec):
    """`tf.NoneTensorSpec()`: the spec of None, a value of no tensors."""

    __slots__ = ()
    value_type = NoneTensor

    def __init__(self):
        pass

    def _serialize(self):
        return ()

    @property
    def _component_specs(self):
        return []

    def _to_components(self, value):
        return []

    def _from_components(self, components):
        return None

    def is_compatible_with(self, spec_or_value):
        return spec_or_value is None or type(spec_or_value) is NoneTensorSpec

    def __repr__(self):
        return "NoneTensorSpec()"


def type_spec_from_value(value):
    """`tf.type_spec_from_value`: the TypeSpec describing `value`."""
    if value is None:
        return NoneTensorSpec()
    spec = getattr(value, "_type_spec", None)
    if spec is not None:
        return spec
    if reads_as_tensor(value) and not isinstance(value, Tensor):
        value = value._as_tensor()
    if isinstance(value, Tensor):
        return TensorSpec(value.shape, value.dtype)
    if isinstance(value, (np.ndarray, np.generic, int, float, bool, str, bytes, list, tuple)):
        try:
            t = convert_to_tensor(value)
        except (TypeError, ValueError):
            t = None
        if t is not None:
            return TensorSpec(t.shape, t.dtype)
    raise TypeError(f"Could not build a TypeSpec for {value!r} of unsupported type "
                    f"{type(value)}.")
