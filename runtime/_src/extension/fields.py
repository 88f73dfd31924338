"""The fields of an extension type: read from the class's annotations, and
each value checked and converted to its annotation as TensorFlow does.

    class MaskedTensor(ExtensionType):
        values: tf.Tensor            # anything convert_to_tensor takes
        mask: tf.Tensor
        name: str = "m"              # a Python value, checked by type

Annotations: `tf.Tensor`, `tf.TensorShape`, `tf.DType`, Python types
(`int`, `float`, `bool`, `str`, `bytes`, `None`), `Tuple[X, ...]`,
`Tuple[X, Y]`, `Mapping[K, V]`, `Optional`/`Union`, and classes (an
ExtensionType, a SparseTensor, ...: an instance is required).
"""

import collections.abc
import typing

from runtime._src.core import dtypes
from runtime._src.core.composite import CompositeSpec, type_spec_of
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.core.protocols import reads_as_tensor

__all__ = ["Field", "ImmutableDict", "class_fields", "convert_field", "convert_spec_field",
           "to_spec_value", "NO_DEFAULT"]


class _NoDefault:
    def __repr__(self):
        return "ExtensionTypeField.NO_DEFAULT"


NO_DEFAULT = _NoDefault()


class Field(typing.NamedTuple):
    """One field: its name, annotation and default (NO_DEFAULT: required)."""
    name: str
    value_type: object
    default: object = NO_DEFAULT

    def __repr__(self):
        return (f"ExtensionTypeField(name={self.name!r}, value_type={self.value_type!r}, "
                f"default={self.default!r})")


class ImmutableDict(collections.abc.Mapping):
    """A read-only mapping (a `Mapping[...]` field's value)."""

    __slots__ = ("_items",)

    def __init__(self, items=()):
        object.__setattr__(self, "_items", dict(items))

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)

    def __eq__(self, other):
        return isinstance(other, collections.abc.Mapping) and dict(self.items()) == dict(
            other.items())

    def __hash__(self):
        return hash(tuple(sorted(self._items.items(), key=lambda kv: repr(kv[0]))))

    def __setattr__(self, name, value):
        raise AttributeError("ImmutableDict is read-only")

    def __repr__(self):
        return f"ImmutableDict({self._items!r})"


_FIELD_SKIP = ("_tf_extension_type_", "__")


def class_fields(cls):
    """[Field] of an extension type class: its bases' fields, then its own
    annotations, in order (a later annotation of a name replaces it)."""
    fields = {}
    for klass in reversed(cls.__mro__):
        for name, ann in klass.__dict__.get("__annotations__", {}).items():
            if name.startswith(_FIELD_SKIP) or typing.get_origin(ann) is typing.ClassVar:
                continue
            _check_annotation(ann, name)
            default = klass.__dict__.get(name, NO_DEFAULT)
            if isinstance(default, (property, staticmethod, classmethod)):
                default = NO_DEFAULT
            fields.pop(name, None)
            fields[name] = Field(name, ann, default)
    return list(fields.values())


def _check_annotation(ann, path):
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if isinstance(ann, (str, typing.ForwardRef)):
        ref = ann if isinstance(ann, typing.ForwardRef) else typing.ForwardRef(ann)
        raise TypeError(f"{path}: Unsupported type annotation {ref!r}")
    if origin is tuple:
        for i, a in enumerate(args):
            if a is not Ellipsis:
                _check_annotation(a, f"{path}[{i}]")
    elif origin in (typing.Union, collections.abc.Mapping):
        for a in args:
            _check_annotation(a, path)
    elif origin is None and not isinstance(ann, type) and ann is not None:
        raise TypeError(f"{path}: Unsupported type annotation {ann!r}")


def _type_name(value):
    return type(value).__name__


def convert_field(value, ann, path, for_spec=False):
    """`value` converted to annotation `ann`; TypeError naming `path` when it
    is not one (TensorFlow's messages: "mask: expected a Tensor, got 'NoneType'").
    `for_spec`: `value` is what a spec holds for such a field (a TensorSpec
    for a tensor, a spec for a composite)."""
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if ann is Tensor:
        return _tensor_spec(value, path) if for_spec else _tensor(value, path)
    if origin is typing.Union:
        return _union(value, ann, args, path, for_spec)
    if origin is tuple:
        return _tuple(value, args, path, for_spec)
    if origin is collections.abc.Mapping:
        if not isinstance(value, collections.abc.Mapping):
            raise TypeError(f"{path}: expected a Mapping, got {_type_name(value)!r}")
        return ImmutableDict((convert_field(k, args[0], path),
                              convert_field(v, args[1], f"{path}[{k!r}]", for_spec))
                             for k, v in value.items())
    if ann is None or ann is type(None):
        if value is not None:
            raise TypeError(f"{path}: expected None, got {_type_name(value)!r}")
        return None
    if ann is TensorShape:
        return _shape(value, path)
    if ann is dtypes.DType:
        return _dtype(value, path)
    if for_spec and isinstance(value, CompositeSpec) and isinstance(ann, type) and \
            issubclass(getattr(value, "value_type", None) or object, ann):
        return value
    return _instance(value, ann, path)


def convert_spec_field(value, ann, path):
    """`convert_field` for what a spec holds."""
    return convert_field(value, ann, path, for_spec=True)


def _tensor_spec(value, path):
    if isinstance(value, TensorSpec):
        return value
    raise TypeError(f"{path}: expected a TensorSpec, got {_type_name(value)!r}")


def _tensor(value, path):
    if isinstance(value, Tensor):
        return value
    if reads_as_tensor(value):
        return value._as_tensor()
    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError):
        raise TypeError(f"{path}: expected a Tensor, got {_type_name(value)!r}") from None


def _union(value, ann, args, path, for_spec):
    for a in args:
        try:
            return convert_field(value, a, path, for_spec)
        except (TypeError, ValueError):
            continue
    raise TypeError(f"{path}: expected {ann!r}, got {_type_name(value)!r}")


def _tuple(value, args, path, for_spec):
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{path}: expected 'tuple', got {_type_name(value)!r}")
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(convert_field(v, args[0], f"{path}[{i}]", for_spec)
                     for i, v in enumerate(value))
    if len(args) != len(value):
        raise TypeError(f"{path}: expected a tuple of length {len(args)}, got "
                        f"{len(value)} items")
    return tuple(convert_field(v, a, f"{path}[{i}]", for_spec)
                 for i, (v, a) in enumerate(zip(value, args)))


def _shape(value, path):
    if isinstance(value, TensorShape):
        return value
    if value is None or isinstance(value, (list, tuple)):
        try:
            return TensorShape(value)
        except (TypeError, ValueError):
            pass
    raise TypeError(f"{path}: expected 'tf.TensorShape', got {_type_name(value)!r}")


def _dtype(value, path):
    try:
        return dtypes.as_dtype(value)
    except (TypeError, ValueError):
        raise TypeError(f"{path}: expected 'tf.DType', got {_type_name(value)!r}") from None


def _instance(value, ann, path):
    if ann is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, ann) and not (ann is int and isinstance(value, bool)):
        return value
    raise TypeError(f"{path}: expected {ann.__name__!r}, got {_type_name(value)!r}")


def to_spec_value(value):
    """A field value as its spec holds it: a TensorSpec for a tensor, a
    composite's spec for a composite; Python values as they are."""
    if isinstance(value, Tensor):
        return TensorSpec(value.shape, value.dtype)
    spec = type_spec_of(value)
    if spec is not None:
        return spec
    if isinstance(value, tuple):
        return tuple(to_spec_value(v) for v in value)
    if isinstance(value, ImmutableDict):
        return ImmutableDict((k, to_spec_value(v)) for k, v in value.items())
    return value
