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
those) can also be written to a SavedModel (core/spec_json.py), so saved
functions take and return its values.
"""

from runtime._src.core.type_spec import TypeSpec

__all__ = ["CompositeSpec", "type_spec_of", "is_composite", "register_spec", "register_api",
           "dispatch_api", "registered_spec"]


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


class CompositeSpec(TypeSpec):
    """The spec of a composite value (see the module docstring): a TypeSpec
    whose values are made of several tensors (core/type_spec.py has the
    protocol and TensorFlow's public methods over it)."""

    __slots__ = ()
    value_type = None       # the class of the values this spec describes


def type_spec_of(value):
    """The CompositeSpec of a composite value; None for anything else."""
    spec = getattr(value, "_type_spec", None)
    return spec if isinstance(spec, CompositeSpec) else None


def is_composite(value):
    return type_spec_of(value) is not None


# --- specs in SavedModels ----------------------------------------------------------------

_SPEC_TYPES = {}        # class name -> a registered CompositeSpec subclass


_REQUIRED = object()


def registered_spec(name, default=_REQUIRED):
    """The CompositeSpec subclass registered under class name `name` (a layer
    builds another layer's values through it: ragged's `to_sparse`); KeyError,
    or `default` when given, for a name nothing registered."""
    if default is _REQUIRED:
        return _SPEC_TYPES[name]
    return _SPEC_TYPES.get(name, default)


def register_spec(cls, name=None):
    """Class decorator: `cls` (a CompositeSpec whose `_serialize()` fields are
    those the module docstring lists) may be saved and loaded, under `name`
    (by default its class name; a later class of one name replaces it)."""
    name = name or cls.__name__
    cls._saved_name = name
    _SPEC_TYPES[name] = cls
    return cls
