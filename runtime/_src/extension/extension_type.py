"""`tf.experimental.ExtensionType`: user-defined composite values.

    class MaskedTensor(tf.experimental.ExtensionType):
        values: tf.Tensor
        mask: tf.Tensor

    mt = MaskedTensor([1, 2], [True, False])   # fields converted and checked
    MaskedTensor.Spec                            # its spec class (a CompositeSpec)

An extension type is a composite (core/composite.py): its spec holds the
static part of each field (a TensorSpec for a tensor, a nested spec, a Python
value) and its components are the tensors of its fields in field order
(mappings by sorted key), so it passes through `tf.function`, `cond`,
`while_loop` and `nest.flatten(..., expand_composites=True)` as SparseTensors
do. A `BatchableExtensionType` also batches and unbatches (tf.data, map_fn):
each tensor gains or loses a leading dimension, as does each TensorShape field.

Values are immutable once built: the generated `__init__` (or the user's,
which may assign fields) converts every field to its annotation, freezes the
value and calls `__validate__`.
"""

import inspect

from runtime._src.core.composite import CompositeSpec, register_spec, type_spec_of
from runtime._src.core.tensor import Tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.extension import fields as _fields
from runtime._src.extension.fields import NO_DEFAULT, ImmutableDict

__all__ = ["ExtensionType", "ExtensionTypeSpec", "BatchableExtensionType",
           "BatchableExtensionTypeSpec", "ExtensionTypeBatchEncoder", "as_dict"]

_MUTABLE = "_tf_extension_type_mutable"
_SPEC_CACHE = "_tf_extension_type_cached_type_spec"


def _mutation_error(name):
    return AttributeError(f"Cannot mutate attribute `{name}` outside the custom "
                          "constructor of ExtensionType.")


class _Frozen:
    """Attributes settable only while the value is being built."""

    __slots__ = ()

    def __setattr__(self, name, value):
        if not self.__dict__.get(_MUTABLE):
            raise _mutation_error(name)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if not self.__dict__.get(_MUTABLE):
            raise _mutation_error(name)
        object.__delattr__(self, name)


def _signature(field_list):
    params = [inspect.Parameter(f.name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                default=inspect.Parameter.empty if f.default is NO_DEFAULT
                                else f.default)
              for f in field_list]
    return inspect.Signature(params)


def _make_init(user_init, field_list, qualname, finish):
    """An `__init__`: the user's `user_init` (fields assigned in it), or one
    taking each field as a parameter (None); both end in `finish(self)`."""
    if user_init is not None and not getattr(user_init, "_tf_extension_type_init", False):
        def __init__(self, *args, **kwargs):
            self.__dict__[_MUTABLE] = True
            try:
                user_init(self, *args, **kwargs)
            finally:
                self.__dict__.pop(_MUTABLE, None)
            finish(self)
        __init__.__signature__ = inspect.signature(user_init)
    else:
        sig = _signature(field_list)

        def __init__(self, *args, **kwargs):
            bound = sig.bind(*args, **kwargs)
            bound.apply_defaults()
            self.__dict__.update(bound.arguments)
            finish(self)
        __init__.__signature__ = sig
    __init__._tf_extension_type_init = True
    __init__.__qualname__ = f"{qualname}.__init__"
    return __init__


def _convert_fields(obj, field_list, for_spec):
    owner = type(obj).value_type.__name__ if for_spec else type(obj).__name__
    for f in field_list:
        if f.name not in obj.__dict__:
            if f.default is NO_DEFAULT:
                raise ValueError(f"{owner}: the constructor did not set field {f.name!r}")
            obj.__dict__[f.name] = f.default
        convert = _fields.convert_spec_field if for_spec else _fields.convert_field
        obj.__dict__[f.name] = convert(obj.__dict__[f.name], f.value_type, f.name)


class ExtensionType(_Frozen):
    """Base class of user-defined composite values (see the module docstring)."""

    _tf_extension_type_field_list = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._tf_extension_type_field_list = tuple(_fields.class_fields(cls))
        cls.__init__ = _make_init(cls.__dict__.get("__init__"), cls._tf_extension_type_field_list,
                                  cls.__qualname__, _finish_value)
        _build_spec_class(cls)

    @classmethod
    def _tf_extension_type_fields(cls):
        return cls._tf_extension_type_field_list

    def __validate__(self):
        """Checks run after construction (override to add some)."""

    @property
    def _type_spec(self):
        spec = self.__dict__.get(_SPEC_CACHE)
        if spec is None:
            spec = self.__dict__[_SPEC_CACHE] = type(self).Spec.from_value(self)
        return spec

    def __repr__(self):
        return f"{type(self).__name__}({_field_text(self)})"

    def __eq__(self, other):
        if type(self) is not type(other) or self._type_spec != other._type_spec:
            return False
        from runtime._src.ops import array_ops, math_ops, reduction_ops
        conditions = []
        for a, b in zip(_components(self), _components(other)):
            same_shape = a.shape == b.shape if a.shape.is_fully_defined() and \
                b.shape.is_fully_defined() else None
            if same_shape is False:
                conditions.append(array_ops.constant(False))
            else:
                conditions.append(reduction_ops.reduce_all(math_ops.equal(a, b)))
        if not conditions:
            return True
        return reduction_ops.reduce_all(array_ops.stack(conditions))

    def __ne__(self, other):
        eq = self.__eq__(other)
        if isinstance(eq, Tensor):
            from runtime._src.ops import math_ops
            return math_ops.logical_not(eq)
        return not eq

    __hash__ = None


def _finish_value(self):
    _convert_fields(self, type(self)._tf_extension_type_field_list, for_spec=False)
    self.__validate__()


def _field_text(obj):
    return ", ".join(f"{f.name}={obj.__dict__.get(f.name)!r}"
                     for f in type(obj)._tf_extension_type_field_list)


def as_dict(value):
    """`tf.experimental.extension_type.as_dict`: {field name: value}."""
    return {f.name: value.__dict__[f.name] for f in type(value)._tf_extension_type_field_list}


# --- components: the tensors of a value, in field order ------------------------------

def _components(value):
    out = []
    for f in type(value)._tf_extension_type_field_list:
        _value_parts(value.__dict__[f.name], out)
    return out


def _value_parts(v, out):
    if isinstance(v, Tensor):
        out.append(v)
        return
    spec = type_spec_of(v)
    if spec is not None:
        out.extend(spec._to_components(v))
    elif isinstance(v, tuple):
        for x in v:
            _value_parts(x, out)
    elif isinstance(v, ImmutableDict):
        for k in sorted(v, key=repr):
            _value_parts(v[k], out)


def _parts_by_spec(s, v, out):
    if isinstance(s, TensorSpec):
        out.append(v)
    elif isinstance(s, CompositeSpec):
        out.extend(s._to_components(v))
    elif isinstance(s, tuple):
        for x, y in zip(s, v):
            _parts_by_spec(x, y, out)
    elif isinstance(s, ImmutableDict):
        for k in sorted(s, key=repr):
            _parts_by_spec(s[k], v[k], out)


def _spec_parts(s, out):
    if isinstance(s, TensorSpec):
        out.append(s)
    elif isinstance(s, CompositeSpec):
        out.extend(s._component_specs)
    elif isinstance(s, tuple):
        for x in s:
            _spec_parts(x, out)
    elif isinstance(s, ImmutableDict):
        for k in sorted(s, key=repr):
            _spec_parts(s[k], out)


def _rebuild(s, it):
    """The field value of spec value `s` from the component iterator `it`."""
    if isinstance(s, TensorSpec):
        return next(it)
    if isinstance(s, CompositeSpec):
        return s._from_components([next(it) for _ in s._component_specs])
    if isinstance(s, tuple):
        return tuple(_rebuild(x, it) for x in s)
    if isinstance(s, ImmutableDict):
        built = {k: _rebuild(s[k], it) for k in sorted(s, key=repr)}
        return ImmutableDict((k, built[k]) for k in s)
    return s


# --- specs ---------------------------------------------------------------------------

class ExtensionTypeSpec(_Frozen, CompositeSpec):
    """`tf.experimental.ExtensionTypeSpec`: the spec of an extension type's
    values; each subclass's `Spec` derives from it."""

    value_type = None
    _tf_extension_type_field_list = ()

    @classmethod
    def from_value(cls, value):
        spec = object.__new__(cls)
        for f in cls._tf_extension_type_field_list:
            spec.__dict__[f.name] = _fields.to_spec_value(value.__dict__[f.name])
        return spec

    @classmethod
    def _tf_extension_type_fields(cls):
        return cls._tf_extension_type_field_list

    def _field_values(self):
        return [self.__dict__[f.name] for f in type(self)._tf_extension_type_field_list]

    @property
    def _component_specs(self):
        out = []
        for s in self._field_values():
            _spec_parts(s, out)
        return out

    def _to_components(self, value):
        """The value's component tensors, found where this spec has them (the
        components may be numpy arrays inside a tf.data pipeline)."""
        out = []
        for f, s in zip(type(self)._tf_extension_type_field_list, self._field_values()):
            _parts_by_spec(s, value.__dict__[f.name], out)
        return out

    def _from_components(self, components):
        it = iter(components)
        value = object.__new__(self.value_type)
        for f, s in zip(type(self)._tf_extension_type_field_list, self._field_values()):
            value.__dict__[f.name] = _rebuild(s, it)
        value.__dict__[_SPEC_CACHE] = self
        return value

    def _serialize(self):
        return tuple(self._field_values())

    @classmethod
    def _deserialize(cls, field_values):
        spec = object.__new__(cls)
        for f, v in zip(cls._tf_extension_type_field_list, field_values):
            spec.__dict__[f.name] = _immutable(v)
        return spec

    def __eq__(self, other):
        return type(other) is type(self) and all(
            _same(a, b) for a, b in zip(self._field_values(), other._field_values()))

    def __hash__(self):
        return hash((type(self).__name__,) + tuple(_key(v) for v in self._field_values()))

    def is_compatible_with(self, spec_or_value):
        other = spec_or_value if isinstance(spec_or_value, CompositeSpec) \
            else type_spec_of(spec_or_value)
        return type(other) is type(self) and all(
            _compatible(a, b) for a, b in zip(self._field_values(), other._field_values()))

    def is_subtype_of(self, other):
        return type(other) is type(self) and all(
            _compatible(a, b, subtype=True)
            for a, b in zip(self._field_values(), other._field_values()))

    def most_specific_common_supertype(self, others):
        values = self._field_values()
        for other in others:
            if type(other) is not type(self):
                return None
            values = [_supertype(a, b) for a, b in zip(values, other._field_values())]
            if any(v is _NONE for v in values):
                return None
        return self._deserialize(values)

    # --- the shapes a tf.function's reduce_retracing relaxes ---------------------------

    def _tensor_shapes(self):
        out = []
        for v in self._field_values():
            _shapes_of(v, out)
        return out

    def _shape_skeleton(self):
        return tuple(_skeleton(v) for v in self._field_values())

    def _with_tensor_shapes(self, shapes):
        it = iter(shapes)
        return self._deserialize([_reshaped(v, it) for v in self._field_values()])

    def __repr__(self):
        text = ", ".join(f"{f.name}={_plain(self.__dict__.get(f.name))!r}"
                         for f in type(self)._tf_extension_type_field_list)
        return f"{self.value_type.__name__}.Spec({text})"


_NONE = object()


def _shapes_of(v, out):
    if isinstance(v, TensorSpec):
        out.append(v.shape)
    elif isinstance(v, TensorShape):
        out.append(v)
    elif isinstance(v, ExtensionTypeSpec):
        out.extend(v._tensor_shapes())
    elif isinstance(v, tuple):
        for x in v:
            _shapes_of(x, out)
    elif isinstance(v, ImmutableDict):
        for k in sorted(v, key=repr):
            _shapes_of(v[k], out)


def _skeleton(v):
    if isinstance(v, TensorSpec):
        return ("T", v.dtype)
    if isinstance(v, TensorShape):
        return ("S",)
    if isinstance(v, ExtensionTypeSpec):
        return (type(v), v._shape_skeleton())
    if isinstance(v, tuple):
        return tuple(_skeleton(x) for x in v)
    if isinstance(v, ImmutableDict):
        return tuple((k, _skeleton(v[k])) for k in sorted(v, key=repr))
    return _key(v)


def _reshaped(v, it):
    if isinstance(v, TensorSpec):
        return TensorSpec(next(it), v.dtype)
    if isinstance(v, TensorShape):
        return next(it)
    if isinstance(v, ExtensionTypeSpec):
        return v._with_tensor_shapes([next(it) for _ in v._tensor_shapes()])
    if isinstance(v, tuple):
        return tuple(_reshaped(x, it) for x in v)
    if isinstance(v, ImmutableDict):
        built = {k: _reshaped(v[k], it) for k in sorted(v, key=repr)}
        return ImmutableDict((k, built[k]) for k in v)
    return v


def _plain(v):
    """A spec's field value as its repr shows it (mappings as dicts, as TF)."""
    if isinstance(v, ImmutableDict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, tuple):
        return tuple(_plain(x) for x in v)
    return v


def _immutable(v):
    """Field values read back from a SavedModel: dicts as ImmutableDicts."""
    if isinstance(v, dict):
        return ImmutableDict((k, _immutable(x)) for k, x in v.items())
    if isinstance(v, tuple):
        return tuple(_immutable(x) for x in v)
    return v


def _key(v):
    if isinstance(v, TensorSpec):
        return ("T", v.shape.dims if v.shape.dims is None else tuple(v.shape.dims), v.dtype)
    if isinstance(v, TensorShape):
        return ("S", None if v.dims is None else tuple(v.dims))
    if isinstance(v, tuple):
        return tuple(_key(x) for x in v)
    if isinstance(v, ImmutableDict):
        return tuple((k, _key(v[k])) for k in sorted(v, key=repr))
    return v


def _same(a, b):
    if isinstance(a, TensorSpec):
        return isinstance(b, TensorSpec) and a.shape == b.shape and a.dtype == b.dtype
    return _key(a) == _key(b) if isinstance(a, (tuple, ImmutableDict, TensorShape)) \
        else a == b


def _compatible(a, b, subtype=False):
    if isinstance(a, TensorSpec):
        if not isinstance(b, TensorSpec) or a.dtype != b.dtype:
            return False
        return _shape_fits(a.shape, b.shape) if subtype else a.shape.is_compatible_with(b.shape)
    if isinstance(a, TensorShape):
        return isinstance(b, TensorShape) and (
            _shape_fits(a, b) if subtype else a.is_compatible_with(b))
    if isinstance(a, CompositeSpec):
        return a.is_subtype_of(b) if subtype else a.is_compatible_with(b)
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(
            _compatible(x, y, subtype) for x, y in zip(a, b))
    if isinstance(a, ImmutableDict):
        return isinstance(b, ImmutableDict) and set(a) == set(b) and all(
            _compatible(a[k], b[k], subtype) for k in a)
    return a == b


def _shape_fits(a, b):
    """Every shape `a` describes is one `b` describes."""
    if b.dims is None:
        return True
    if a.dims is None or len(a.dims) != len(b.dims):
        return False
    return all(y is None or x == y for x, y in zip(a.dims, b.dims))


def _supertype(a, b):
    if isinstance(a, TensorSpec):
        if not isinstance(b, TensorSpec) or a.dtype != b.dtype:
            return _NONE
        return TensorSpec(a.shape.most_specific_compatible_shape(b.shape), a.dtype)
    if isinstance(a, TensorShape):
        return a.most_specific_compatible_shape(b) if isinstance(b, TensorShape) else _NONE
    if isinstance(a, CompositeSpec):
        common = a.most_specific_common_supertype([b])
        return _NONE if common is None else common
    if isinstance(a, tuple):
        if not isinstance(b, tuple) or len(a) != len(b):
            return _NONE
        parts = tuple(_supertype(x, y) for x, y in zip(a, b))
        return _NONE if any(p is _NONE for p in parts) else parts
    if isinstance(a, ImmutableDict):
        if not isinstance(b, ImmutableDict) or set(a) != set(b):
            return _NONE
        parts = {k: _supertype(a[k], b[k]) for k in a}
        return _NONE if any(p is _NONE for p in parts.values()) else ImmutableDict(parts)
    return a if a == b else _NONE


def _finish_spec(self):
    _convert_fields(self, type(self)._tf_extension_type_field_list, for_spec=True)


def _build_spec_class(cls):
    """`cls.Spec`: the user's nested `Spec` class (if any) over the parent's spec class."""
    parent = next(b.Spec for b in cls.__mro__[1:] if isinstance(b.__dict__.get("Spec"), type))
    user = cls.__dict__.get("Spec")
    bases = (parent,) if user is None or issubclass(user, ExtensionTypeSpec) \
        else (user, parent)
    spec = type(f"{cls.__name__}.Spec", bases, {
        "__qualname__": f"{cls.__qualname__}.Spec", "__module__": cls.__module__,
        "value_type": cls, "_tf_extension_type_field_list": cls._tf_extension_type_field_list})
    user_init = user.__dict__.get("__init__") if user is not None else None
    spec.__init__ = _make_init(user_init, cls._tf_extension_type_field_list, spec.__qualname__,
                               _finish_spec)
    cls.Spec = spec
    saved_name = cls.__dict__.get("__name__")
    register_spec(spec, saved_name if isinstance(saved_name, str) else
                  f"{cls.__module__}.{cls.__qualname__}")


ExtensionType.Spec = ExtensionTypeSpec


# --- batchable extension types -----------------------------------------------------------

class ExtensionTypeBatchEncoder:
    """`tf.experimental.ExtensionTypeBatchEncoder`: how a BatchableExtensionType's
    spec batches (each tensor field gains a leading dimension, each TensorShape
    field too) and unbatches, and its values encode as component tensors."""

    def batch(self, spec, batch_size):
        return spec._deserialize([_batch(v, batch_size) for v in spec._field_values()])

    def unbatch(self, spec):
        return spec._deserialize([_unbatch(v) for v in spec._field_values()])

    def encode(self, spec, value, minimum_rank=0):
        return spec._to_components(value)

    def decode(self, spec, encoded_value):
        return spec._from_components(encoded_value)

    def encoding_specs(self, spec):
        return spec._component_specs


def _prepend(n, shape):
    return TensorShape(None if shape.dims is None else [n] + list(shape.dims))


def _batch(v, n):
    if isinstance(v, TensorSpec):
        return TensorSpec(_prepend(n, v.shape), v.dtype)
    if isinstance(v, TensorShape):
        return _prepend(n, v)
    if isinstance(v, CompositeSpec):
        if not hasattr(v, "_batch"):
            raise ValueError(f"a {type(v).__name__} field cannot be batched")
        return v._batch(n)
    if isinstance(v, tuple):
        return tuple(_batch(x, n) for x in v)
    if isinstance(v, ImmutableDict):
        return ImmutableDict((k, _batch(x, n)) for k, x in v.items())
    return v


def _unbatch(v):
    if isinstance(v, TensorSpec):
        return TensorSpec(None if not v.shape.dims else v.shape.dims[1:], v.dtype)
    if isinstance(v, TensorShape):
        return TensorShape(None if not v.dims else v.dims[1:])
    if isinstance(v, CompositeSpec):
        if not hasattr(v, "_unbatch"):
            raise ValueError(f"a {type(v).__name__} field cannot be unbatched")
        return v._unbatch()
    if isinstance(v, tuple):
        return tuple(_unbatch(x) for x in v)
    if isinstance(v, ImmutableDict):
        return ImmutableDict((k, _unbatch(x)) for k, x in v.items())
    return v


class BatchableExtensionTypeSpec(ExtensionTypeSpec):
    """The spec of a BatchableExtensionType: also `_batch(n)` and `_unbatch()`."""

    __batch_encoder__ = ExtensionTypeBatchEncoder()

    def _batch(self, batch_size):
        return self.__batch_encoder__.batch(self, batch_size)

    def _unbatch(self):
        return self.__batch_encoder__.unbatch(self)


class BatchableExtensionType(ExtensionType):
    """`tf.experimental.BatchableExtensionType`: an ExtensionType whose values
    batch and unbatch (tf.data's batch/unbatch/from_tensor_slices, map_fn)."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        encoder = cls.__dict__.get("__batch_encoder__")
        if encoder is not None:
            cls.Spec.__batch_encoder__ = encoder


BatchableExtensionType.Spec = BatchableExtensionTypeSpec
