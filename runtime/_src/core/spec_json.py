"""Composite specs in SavedModels: a spec registered with
`core.composite.register_spec` written as JSON data and read back.

    spec_to_json(RaggedTensorSpec([2, None], tf.int32))   # {"type": "RaggedTensorSpec", ...}
    spec_from_json(data)                                   # the spec again

A spec's `_serialize()` fields may be TensorShapes, DTypes, TensorSpecs,
Python literals, registered specs, and tuples and mappings of those.
"""

import collections.abc

from runtime._src.core.composite import CompositeSpec, registered_spec
from runtime._src.core.dtypes import DType, as_dtype
from runtime._src.core.tensor import TensorSpec
from runtime._src.core.tensor_shape import TensorShape

__all__ = ["spec_to_json", "spec_from_json"]


def spec_to_json(spec):
    """JSON data for a registered spec: {"type": name, "fields": [...]}."""
    name = getattr(type(spec), "_saved_name", type(spec).__name__)
    if registered_spec(name, None) is not type(spec):
        raise TypeError(f"a {name} cannot be saved (only registered composite specs)")
    return {"type": name, "fields": [_field_to_json(f) for f in spec._serialize()]}


def spec_from_json(data):
    """The spec of `spec_to_json` data; ValueError when it is not one."""
    if not isinstance(data, dict) or registered_spec(data.get("type"), None) is None or \
            not isinstance(data.get("fields"), list):
        raise ValueError(f"not a saved composite spec: {data!r:.80}")
    return registered_spec(data["type"])._deserialize([_field_from_json(f) for f in data["fields"]])


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
