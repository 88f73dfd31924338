"""`tf.TypeSpec`: the base of every spec (`TensorSpec`, the composite specs of
core/composite.py), and TensorFlow's public spec methods written once over
the protocol each spec defines:

    spec._serialize()               # a tuple of what the spec describes (shapes, dtypes, flags)
    spec._component_specs           # the TensorSpecs of the tensors a value is made of
    spec._to_components(value)      # those tensors, of one value
    spec._from_components(tensors)  # the value again
    spec.value_type                 # the class of the values it describes

    spec.is_compatible_with(other)              # shapes compatible, the rest equal
    spec.is_subtype_of(other)                   # every value of spec is one of other
    spec.most_specific_common_supertype([...])  # shapes relaxed where they differ
    spec.flatten(); spec.to_tensors(value); spec.from_tensors(iter(tensors))

Specs compare and hash by their type and `_serialize()`. `TypeSpec` itself is
abstract: only a subclass is built.
"""

from runtime._src.core.tensor_shape import TensorShape

__all__ = ["TypeSpec"]


class TypeSpec:
    """The spec of a kind of value (see the module docstring)."""

    __slots__ = ()

    def __init__(self, *args, **kwargs):
        if type(self) is TypeSpec:
            raise TypeError("Can't instantiate abstract class TypeSpec with abstract methods "
                            "_component_specs, _from_components, _serialize, "
                            "_to_components, value_type")

    # --- the protocol: a spec defines these -------------------------------------------

    @property
    def value_type(self):
        raise self._missing("value_type")

    @property
    def _component_specs(self):
        raise self._missing("_component_specs")

    def _to_components(self, value):
        raise self._missing("_to_components")

    def _from_components(self, components):
        raise self._missing("_from_components")

    def _serialize(self):
        raise self._missing("_serialize")

    @classmethod
    def _deserialize(cls, fields):
        """The spec of `_serialize()` fields (by default, the constructor's arguments)."""
        return cls(*fields)

    def _missing(self, member):
        return TypeError(f"{type(self).__name__} must define {member} (the TypeSpec "
                         "protocol, runtime/_src/core/type_spec.py)")

    # --- TensorFlow's public methods over the protocol --------------------------------

    def flatten(self):
        """The TensorSpecs of the components, flattened (TypeSpec.flatten)."""
        out = []
        for spec in _as_list(self._component_specs):
            out.extend(spec.flatten() if isinstance(spec, TypeSpec) else [spec])
        return out

    def to_tensors(self, value):
        """The component tensors of `value`, flattened (TypeSpec.to_tensors)."""
        out = []
        specs = _as_list(self._component_specs)
        for spec, part in zip(specs, _as_list(self._to_components(value))):
            out.extend(spec.to_tensors(part) if isinstance(spec, TypeSpec) else [part])
        return out

    def from_tensors(self, tensors):
        """The value built from an iterator of component tensors, taking only
        as many as this spec has (TypeSpec.from_tensors)."""
        tensors = iter(tensors)
        parts = [spec.from_tensors(tensors) if isinstance(spec, TypeSpec) else next(tensors)
                 for spec in _as_list(self._component_specs)]
        return self._from_components(parts)

    def is_compatible_with(self, spec_or_value):
        """True when the value (or every value of the spec) fits this spec:
        the same spec type, equal dtypes and flags, compatible shapes."""
        other = spec_or_value if isinstance(spec_or_value, TypeSpec) \
            else getattr(spec_or_value, "_type_spec", None)
        if type(other) is not type(self):
            return False
        return _all_fields(self._serialize(), other._serialize(), _compatible)

    def is_subtype_of(self, other):
        """True when every value of this spec fits `other`."""
        if type(other) is not type(self):
            return False
        return _all_fields(self._serialize(), other._serialize(), _subtype)

    def most_specific_common_supertype(self, others):
        """The narrowest spec every one of self and `others` fits (shapes
        relaxed where they differ), or None when their dtypes or flags differ."""
        fields = self._serialize()
        for other in others:
            if type(other) is not type(self):
                return None
            fields = _supertype(fields, other._serialize())
            if fields is _NONE:
                return None
        return self._deserialize(fields)

    def most_specific_compatible_type(self, other):
        """The narrowest spec both fit (TF's older name); ValueError when none."""
        out = self.most_specific_common_supertype([other])
        if out is None:
            raise ValueError(f"No TypeSpec is compatible with both {self} and {other}")
        return out

    def __eq__(self, other):
        return type(other) is type(self) and self._serialize() == other._serialize()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self).__name__,) + _hashable(self._serialize()))


_NONE = object()     # "no common supertype", distinct from a field that is None


def _as_list(specs):
    return specs if isinstance(specs, (list, tuple)) else [specs]


def _all_fields(a, b, check):
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_all_fields(x, y, check) for x, y in zip(a, b))
    return check(a, b)


def _compatible(a, b):
    if isinstance(a, (TensorShape, TypeSpec)) and type(b) is type(a):
        return a.is_compatible_with(b)
    return a == b


def _subtype(a, b):
    if isinstance(a, TypeSpec) and type(b) is type(a):
        return a.is_subtype_of(b)
    if isinstance(a, TensorShape) and isinstance(b, TensorShape):
        if b.dims is None:
            return True
        if a.dims is None or len(a.dims) != len(b.dims):
            return False
        return all(y is None or x == y for x, y in zip(a.dims, b.dims))
    return a == b


def _supertype(a, b):
    """The narrowest fields both `a` and `b` fit, or _NONE."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        if len(a) != len(b):
            return _NONE
        out = tuple(_supertype(x, y) for x, y in zip(a, b))
        return _NONE if any(x is _NONE for x in out) else out
    if isinstance(a, TensorShape) and isinstance(b, TensorShape):
        return a.most_specific_compatible_shape(b)
    if isinstance(a, TypeSpec) and type(b) is type(a):
        out = a.most_specific_common_supertype([b])
        return _NONE if out is None else out
    return a if a == b else _NONE


def _hashable(fields):
    return tuple(f.dims if isinstance(f, TensorShape) else
                 _hashable(f) if isinstance(f, tuple) else f for f in fields)
