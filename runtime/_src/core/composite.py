"""Composite values: one Python value made of tensors (`tf.SparseTensor`,
`tf.RaggedTensor`, a `tf.data.Dataset` as one variant tensor), described by a
spec (TensorFlow's `TypeSpec`).

This is the one protocol by which the function layer passes such values into
and out of traced functions (arguments, input_signature, results, `cond`
outputs, `while_loop` variables), `nest` expands them (`expand_composites`)
and SavedModels store them:

    spec = type_spec_of(value)          # value._type_spec, a CompositeSpec (None: not one)
    spec._component_specs               # [TensorSpec, ...]: what each component may be
    spec._to_components(value)          # [tensor, ...]: the value's component tensors
    spec._from_components(tensors)      # the value again, from tensors like those

A value joins by having a `_type_spec` property that returns an instance of a
`CompositeSpec` subclass implementing those three members and `_serialize()`
(a tuple of what the spec describes: shapes, dtypes, flags). Specs compare and
hash by their type and `_serialize()`, so a `tf.function` keyed by a spec
reuses its trace for every value the spec describes (a SparseTensor of any
number of values, for one dense shape and dtype); an `input_signature` entry
that is a spec accepts the values `is_compatible_with` it; reduce_retracing
relaxes the spec's TensorShape fields (`most_specific_common_supertype`). The component specs
give the placeholders a trace makes; a traced body gets the value rebuilt from
them, and a returned composite comes back rebuilt from the graph's outputs.

A spec class registered with `register_spec` (fields: TensorShapes, DTypes,
TensorSpecs, Python literals, registered specs, and tuples and mappings of
those) can also be written to a SavedModel (`spec_to_json`,
`spec_from_json`), so saved functions take and return its values.
"""

import collections.abc

from runtime._src.core.dtypes import DType, as_dtype
from runtime._src.core.tensor_shape import TensorShape, TensorSpec

__all__ = ["CompositeSpec", "type_spec_of", "is_composite", "register_spec", "spec_to_json",
           "spec_from_json", "register_api", "dispatch_api", "registered_spec"]


# --- TensorFlow's dispatch of public ops on composite values ------------------------------
# A layer above ops (ragged/) registers, for its value class, handlers of op names
# ("concat", "binary", ...); the op's front function asks `dispatch_api` first, so
# `tf.concat([rt1, rt2], 0)` runs the ragged handler though ops cannot import ragged.

_API = {}            # (value class, api name) -> handler
_API_TYPES = set()   # the classes that have handlers


def register_api(value_type, name):
    """Decorator: `handler(*args, **kwargs)` runs api `name` when one of the
    probed arguments is a `value_type`."""
    def register(handler):
        _API[(value_type, name)] = handler
        _API_TYPES.add(value_type)
        return handler
    return register


def dispatch_api(name, probe, *args, **kwargs):
    """The registered handler's result for api `name` when a value in `probe`
    (a tuple or list of the arguments to look at) has one; else NotImplemented."""
    for v in probe:
        cls = v.__class__
        if cls in _API_TYPES:
            handler = _API.get((cls, name))
            if handler is not None:
                return handler(*args, **kwargs)
    return NotImplemented


class CompositeSpec:
    """The spec of a composite value (see the module docstring)."""

    __slots__ = ()
    value_type = None       # the class of the values this spec describes

    # The four methods every spec defines (the protocol); a spec that lacks
    # one says which.
    @property
    def _component_specs(self):
        raise self._missing("_component_specs")

    def _to_components(self, value):
        raise self._missing("_to_components")

    def _from_components(self, components):
        raise self._missing("_from_components")

    def _serialize(self):
        raise self._missing("_serialize")

    def _missing(self, method):
        return NotImplementedError(f"{type(self).__name__} must define {method} (the "
                                   "composite protocol, runtime/_src/core/composite.py)")

    # --- TensorFlow's public TypeSpec names over the protocol -------------------------

    def flatten(self):
        """The TensorSpecs of the components (TypeSpec.flatten)."""
        return list(self._component_specs)

    def to_tensors(self, value):
        """The component tensors of `value` (TypeSpec.to_tensors)."""
        return list(self._to_components(value))

    def from_tensors(self, tensors):
        """The value built from component tensors (TypeSpec.from_tensors)."""
        return self._from_components(list(tensors))

    def is_compatible_with(self, spec_or_value):
        """True when the value (or every value of the spec) fits this spec:
        same spec type, equal flags and dtypes, compatible shapes."""
        other = spec_or_value if isinstance(spec_or_value, CompositeSpec) \
            else type_spec_of(spec_or_value)
        if type(other) is not type(self):
            return False
        return all(_compatible(a, b) for a, b in zip(self._serialize(), other._serialize()))

    def is_subtype_of(self, other):
        """True when every value of this spec fits `other`."""
        if type(other) is not type(self):
            return False
        return all(_subtype(a, b) for a, b in zip(self._serialize(), other._serialize()))

    @classmethod
    def _deserialize(cls, fields):
        """The spec of `_serialize()` fields (by default, the constructor's arguments)."""
        return cls(*fields)

    def most_specific_common_supertype(self, others):
        """The narrowest spec every one of self and `others` fits (shapes
        relaxed where they differ), or None when their dtypes or flags differ."""
        fields = list(self._serialize())
        for other in others:
            if type(other) is not type(self):
                return None
            for i, (a, b) in enumerate(zip(fields, other._serialize())):
                if isinstance(a, TensorShape):
                    fields[i] = a.most_specific_compatible_shape(b)
                elif a != b:
                    return None
        return self._deserialize(fields)

    def __eq__(self, other):
        return type(other) is type(self) and self._serialize() == other._serialize()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self).__name__,) + tuple(
            s.dims if isinstance(s, TensorShape) else s for s in self._serialize()))


def _compatible(a, b):
    if isinstance(a, TensorShape):
        return a.is_compatible_with(b)
    return a == b


def _subtype(a, b):
    if isinstance(a, TensorShape):
        if b.dims is None:
            return True
        if a.dims is None or len(a.dims) != len(b.dims):
            return False
        return all(y is None or x == y for x, y in zip(a.dims, b.dims))
    return a == b


def type_spec_of(value):
    """The CompositeSpec of a composite value; None for anything else."""
    spec = getattr(value, "_type_spec", None)
    return spec if isinstance(spec, CompositeSpec) else None


def is_composite(value):
    return type_spec_of(value) is not None


# --- specs in SavedModels ----------------------------------------------------------------

_SPEC_TYPES = {}        # class name -> a registered CompositeSpec subclass


def registered_spec(name):
    """The CompositeSpec subclass registered under class name `name` (a layer
    builds another layer's values through it: ragged's `to_sparse`)."""
    return _SPEC_TYPES[name]


def register_spec(cls, name=None):
    """Class decorator: `cls` (a CompositeSpec whose `_serialize()` fields are
    those the module docstring lists) may be saved and loaded, under `name`
    (by default its class name; a later class of one name replaces it)."""
    name = name or cls.__name__
    cls._saved_name = name
    _SPEC_TYPES[name] = cls
    return cls


def spec_to_json(spec):
    """JSON data for a registered spec: {"type": name, "fields": [...]}."""
    name = getattr(type(spec), "_saved_name", type(spec).__name__)
    if _SPEC_TYPES.get(name) is not type(spec):
        raise TypeError(f"a {name} cannot be saved (only registered composite specs)")
    return {"type": name, "fields": [_field_to_json(f) for f in spec._serialize()]}


def spec_from_json(data):
    """The spec of `spec_to_json` data; ValueError when it is not one."""
    if not isinstance(data, dict) or data.get("type") not in _SPEC_TYPES or \
            not isinstance(data.get("fields"), list):
        raise ValueError(f"not a saved composite spec: {data!r:.80}")
    return _SPEC_TYPES[data["type"]]._deserialize([_field_from_json(f) for f in data["fields"]])


def _field_to_json(field):
    if isinstance(field, TensorShape):
        return {"shape": None if field.dims is None else list(field.dims)}
    if isinstance(field, DType):
        return {"dtype": field.name}
    if field is None or isinstance(field, (bool, int, float, str)):
        return {"py": field}
    if isinstance(field, TensorSpec):
        return {"tensor_spec": [_field_to_json(field.shape), _field_to_json(field.dtype)]}
    if isinstance(field, CompositeSpec):
        return {"spec": spec_to_json(field)}
    if isinstance(field, tuple):
        return {"tuple": [_field_to_json(f) for f in field]}
    if isinstance(field, collections.abc.Mapping):
        return {"mapping": [[_field_to_json(k), _field_to_json(v)] for k, v in field.items()]}
    raise TypeError(f"a composite spec field {field!r} cannot be saved")


def _field_from_json(data):
    if not isinstance(data, dict) or len(data) != 1:
        raise ValueError(f"bad composite spec field {data!r:.60}")
    (kind, value), = data.items()
    if kind == "shape" and (value is None or (isinstance(value, list) and all(
            d is None or (isinstance(d, int) and not isinstance(d, bool) and d >= 0)
            for d in value))):
        return TensorShape(value)
    if kind == "dtype" and isinstance(value, str):
        return as_dtype(value)
    if kind == "py" and (value is None or isinstance(value, (bool, int, float, str))):
        return value
    if kind == "tensor_spec" and isinstance(value, list) and len(value) == 2:
        return TensorSpec(_field_from_json(value[0]), _field_from_json(value[1]))
    if kind == "spec":
        return spec_from_json(value)
    if kind == "tuple" and isinstance(value, list):
        return tuple(_field_from_json(f) for f in value)
    if kind == "mapping" and isinstance(value, list) and all(
            isinstance(kv, list) and len(kv) == 2 for kv in value):
        return {_field_from_json(k): _field_from_json(v) for k, v in value}
    raise ValueError(f"bad composite spec field {data!r:.60}")
