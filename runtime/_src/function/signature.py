"""Call signatures of traced functions: cache keys, input templates, checks.

A `function` keeps one graph per *signature* of its arguments. This module
turns the arguments of a call into:

* a **cache key** (`call_key`), hashable and cheap to build on every call:
  tensors key by dtype and shape; Python `int`/`float`/`str`/`bytes`/`None`
  by value (`2` and `2.0` are equal, so they share a trace); `bool` by value
  but apart from ints (`f(True)` and `f(1)` trace separately, so a traced
  `True` never comes back as the int32 `1`); lists, tuples and dicts by
  structure; Variables by identity plus dtype and shape; any other object by
  identity, through a weak reference where the object allows one (an object
  that cannot be weakly referenced is kept alive by the cache).
  numpy arrays and scalars count as tensors. Tensor leaves are collected into
  `feeds` in the same order the graph's placeholders are made. A composite
  value (a SparseTensor, a RaggedTensor, a Dataset: core/composite.py) keys by its spec
  and feeds its component tensors; in the template it is a `CompositeArgument`
  (its spec and a placeholder name per component), and the traced function
  gets the value rebuilt from those placeholders.
* a **template** (`make_template`): the arguments with every tensor leaf
  replaced by a named `TensorSpec`. Tracing makes a placeholder per spec;
  `ConcreteFunction.structured_input_signature` is the template.
* **checks** (`match_template`): a call against a fixed template (an
  `input_signature`, or a concrete function), which converts Python values
  to the spec's dtype and raises `InputSignatureMismatchError` naming the
  argument, what was expected and what was given.
* **explanations** (`describe`, `explain_difference`): which argument changed
  between two calls and how, for `Function.experimental_explain_retracing()`.

    >>> feeds = []
    >>> call_key([convert_to_tensor([1, 2]), 3], feeds)
    ((tf.int32, (2,)), 3)
"""

import inspect
import threading
import weakref

import numpy as np

from runtime._src.core.composite import CompositeSpec, type_spec_of
from runtime._src.core.nest import _sorted_keys
from runtime._src.core.tensor import EagerTensor, SymbolicTensor, Tensor, convert_to_tensor
from runtime._src.function.tensor_array import TensorArray
from runtime._src.function.trace_type import tracing_key
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.core.protocols import reads_as_tensor

__all__ = ["InputSignatureMismatchError", "call_key", "make_template", "match_template",
           "describe", "explain_difference", "format_type", "shape_accepts",
           "IdentityKey", "VariableRef", "CompositeArgument", "is_variable"]

_NAN = ("nan",)          # every NaN is one key (NaN != NaN would defeat the cache)
_ANY_SHAPE = "shape"     # the shape slot of a tensor key when shapes are collected apart
ANY_SHAPE = _ANY_SHAPE


class InputSignatureMismatchError(TypeError, ValueError):
    """A call does not fit a function's `input_signature` (or a concrete function).

    It is both a `TypeError` (what TensorFlow 2.21 raises for every mismatch)
    and a `ValueError` (what older TensorFlow raised for shape mismatches), so
    code written for either catches it.
    """


class IdentityKey:
    """Keys an object by identity, holding it weakly when it can.

    Two keys are equal only while both refer to the same live object, so a
    dead object's id being reused never matches an old trace.
    """

    __slots__ = ("_ref", "_strong", "_hash", "type_name", "__weakref__")

    def __init__(self, obj, on_dead=None):
        self._hash = id(obj)
        self.type_name = type(obj).__name__
        try:
            self._ref = weakref.ref(obj, on_dead)
            self._strong = None
        except TypeError:            # not weakly referenceable: keep it alive
            self._ref = None
            self._strong = obj

    def get(self):
        """The object, or None once it has been garbage collected."""
        return self._strong if self._ref is None else self._ref()

    def __eq__(self, other):
        if not isinstance(other, IdentityKey):
            return False
        obj = self.get()
        return obj is not None and obj is other.get()

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"<{self.type_name} object>"


class VariableRef:
    """A Variable argument in a template (TensorFlow's `VariableSpec`): the
    Variable it was traced with (weakly), its dtype, shape, trainability and
    alias id (which earlier Variable argument of the call it is, if the same)."""

    __slots__ = ("key", "dtype", "shape", "trainable", "alias")

    def __init__(self, key, dtype, shape, trainable=True, alias=0):
        self.key = key
        self.dtype = dtype
        self.shape = shape
        self.trainable = trainable
        self.alias = alias

    def __repr__(self):
        # TensorFlow 2.21's text of a VariableSpec.
        return (f"VariableSpec(shape={self.shape}, dtype={self.dtype!r}, "
                f"trainable={self.trainable}, alias_id={self.alias})")


class CompositeArgument:
    """A composite argument in a template: its spec (TensorFlow's TypeSpec,
    what signatures print) and the placeholder name of each component."""

    __slots__ = ("spec", "names")

    def __init__(self, spec, names):
        self.spec = spec
        self.names = tuple(names)

    def components(self):
        """The named TensorSpec of each component, in placeholder order."""
        return [TensorSpec(c.shape, c.dtype, n)
                for c, n in zip(self.spec._component_specs, self.names)]

    def __eq__(self, other):
        return isinstance(other, CompositeArgument) and self.spec == other.spec \
            and self.names == other.names

    def __hash__(self):
        return hash((self.spec, self.names))

    def __repr__(self):
        return repr(self.spec)


def composite_spec(value):
    """The CompositeSpec of a composite value or the spec itself; else None."""
    if isinstance(value, CompositeSpec):
        return value
    return type_spec_of(value)


def is_variable(value):
    """True for Variables: they convert to tensors and can be assigned."""
    return reads_as_tensor(value) and hasattr(value, "assign")


def dict_items(d):
    """A dict's items in the order every walk here visits them (sorted keys)."""
    return [(k, d[k]) for k in _sorted_keys(d)]


# --- cache keys --------------------------------------------------------------

def call_key(values, feeds, on_dead=None, specs=None):
    """The cache key of a call's parameter values (a tuple, one entry per value).

    Tensor leaves append their numpy value to `feeds` (a TensorSpec leaf
    appends the spec). With `specs` (a list), tensor shapes are left out of
    the key and `(dtype, shape)` pairs are appended to `specs` instead: that
    key groups calls that differ only in shapes.
    """
    return _sequence_key(None, values, feeds, on_dead, specs)[1:]


def _key(v, feeds, on_dead, specs):
    t = type(v)
    if t is EagerTensor:
        value = v._value
        feeds.append(value)
        if specs is None:
            return (v.dtype, value.shape)
        specs.append((v.dtype, value.shape))
        return (v.dtype, _ANY_SHAPE)
    if t is int or t is float:
        return v if v == v else _NAN
    if t is bool:
        return (bool, v)
    if v is None or t is str or t is bytes:
        return v
    if t is list or t is tuple:
        return _sequence_key(t, v, feeds, on_dead, specs)
    if t is dict:
        return _dict_key(v, feeds, on_dead, specs)
    return _key_uncommon(v, feeds, on_dead, specs)


def _sequence_key(t, v, feeds, on_dead, specs):
    """A list's or tuple's key; tensor leaves and Python numbers keyed in
    line, nested lists, tuples and dicts without the detour through `_key`
    (the common cases of a call's values, one call fewer per leaf or
    container). Each branch gives what `_key` gives for that type."""
    out = [t]
    for x in v:
        tx = type(x)
        if tx is EagerTensor and specs is None:
            value = x._value
            feeds.append(value)
            out.append((x.dtype, value.shape))
        elif tx is tuple or tx is list:
            out.append(_sequence_key(tx, x, feeds, on_dead, specs))
        elif tx is dict:
            out.append(_dict_key(x, feeds, on_dead, specs))
        elif tx is float or tx is int:        # a Python default, a literal argument
            out.append(x if x == x else _NAN)
        else:
            out.append(_key(x, feeds, on_dead, specs))
    return tuple(out)


def _dict_key(v, feeds, on_dead, specs):
    """A dict's key: (dict, (key, value's key)...) in sorted key order."""
    try:
        keys = sorted(v)
    except TypeError:
        keys = sorted(v, key=repr)
    out = [dict]
    for k in keys:
        x = v[k]
        tx = type(x)
        if tx is EagerTensor and specs is None:
            value = x._value
            feeds.append(value)
            out.append((k, (x.dtype, value.shape)))
        elif tx is tuple or tx is list:
            out.append((k, _sequence_key(tx, x, feeds, on_dead, specs)))
        else:
            out.append((k, _key(x, feeds, on_dead, specs)))
    return tuple(out)


def _key_uncommon(v, feeds, on_dead, specs):
    """Keys for the rarer argument kinds (kept out of the hot path)."""
    if isinstance(v, TensorSpec):
        feeds.append(v)
        if specs is None:
            return (v.dtype, v.shape.dims)
        specs.append((v.dtype, v.shape.dims))
        return (v.dtype, _ANY_SHAPE)
    if is_variable(v):
        # As TensorFlow's VariableSpec: Variables of one dtype, shape and
        # trainability share a trace; the Variable itself is fed to the call.
        alias = _alias_id(v, feeds)
        feeds.append(v)
        return ("variable", v.dtype, _dims(v.shape), v.trainable, alias)
    if isinstance(v, (np.ndarray, np.generic)):
        return _key(convert_to_tensor(v), feeds, on_dead, specs)
    if isinstance(v, SymbolicTensor):
        raise TypeError(f"tensor {v.name} is symbolic: it belongs to a graph being traced "
                        "and cannot be passed to a function called outside that trace")
    if isinstance(v, EagerTensor):
        return _key(EagerTensor(v._value, v.dtype), feeds, on_dead, specs)
    if isinstance(v, (int, float, str, bytes)):    # IntEnum, str subclasses...
        return (type(v), v)
    if isinstance(v, (list, tuple)):
        return (type(v),) + tuple([_key(x, feeds, on_dead, specs) for x in v])
    if isinstance(v, dict):
        return (type(v),) + tuple([(k, _key(x, feeds, on_dead, specs))
                                   for k, x in dict_items(v)])
    spec = composite_spec(v)
    if spec is not None:
        return _composite_key(v, spec, feeds, specs)
    traced_as = tracing_key(v)               # a class with __tf_tracing_type__
    return IdentityKey(v, on_dead) if traced_as is None else traced_as


def _composite_key(v, spec, feeds, specs):
    """A composite's key: ("composite_of", its spec); its component tensors
    (or, for a spec, the component specs) are fed in order."""
    if v is spec:
        feeds.extend(spec._component_specs)
    else:
        for c in spec._to_components(v):
            if isinstance(c, SymbolicTensor):
                raise TypeError(f"tensor {c.name} is symbolic: it belongs to a graph being "
                                "traced and cannot be passed to a function called outside "
                                "that trace")
            feeds.append(c._value if isinstance(c, EagerTensor) else convert_to_tensor(c)._value)
    if specs is not None:
        specs.extend((None, shape.dims) for shape in spec_shapes(spec))
        return ("composite_of", spec_skeleton(spec))
    return ("composite_of", spec)


def spec_shapes(spec):
    """The TensorShape fields of a composite spec (a SparseTensorSpec's dense
    shape); a spec with nested shapes (an ExtensionType's) lists them itself
    (`_tensor_shapes`, `_shape_skeleton`, `_with_tensor_shapes`)."""
    if hasattr(spec, "_tensor_shapes"):
        return spec._tensor_shapes()
    return [f for f in spec._serialize() if isinstance(f, TensorShape)]


def spec_skeleton(spec):
    """A composite spec without its shapes: the part of a cache key that
    shape relaxation keeps."""
    if hasattr(spec, "_shape_skeleton"):
        return (type(spec), spec._shape_skeleton())
    return (type(spec),) + tuple(_ANY_SHAPE if isinstance(f, TensorShape) else f
                                 for f in spec._serialize())


def spec_with_shapes(spec, shapes):
    """`spec` with its TensorShape fields replaced by `shapes` (relaxed ones)."""
    shapes = [s if isinstance(s, TensorShape) else TensorShape(s) for s in shapes]
    if shapes == spec_shapes(spec):
        return spec
    if hasattr(spec, "_with_tensor_shapes"):
        return spec._with_tensor_shapes(shapes)
    it = iter(shapes)
    return spec._deserialize([next(it) if isinstance(f, TensorShape) else f
                              for f in spec._serialize()])


_aliases = threading.local()     # .current: (the feeds list being keyed, {id: alias})


def _alias_id(variable, feeds):
    """Where `variable` first appears in `feeds` (its own position when it is
    new): equal for calls that pass the same Variable in the same places.
    The positions of the call being keyed are kept per thread with its feeds
    list (replaced by the next call's), so a call of n Variables is O(n)."""
    current = getattr(_aliases, "current", None)
    if current is None or current[0] is not feeds:
        current = _aliases.current = (feeds, {})
    return current[1].setdefault(id(variable), len(feeds))


def feed_variables(feeds):
    """(numpy feeds, Variables) of a call's feeds, apart."""
    values, variables = [], []
    for f in feeds:
        (variables if is_variable(f) else values).append(f)
    return values, variables


def _dims(shape):
    return shape.dims if isinstance(shape, TensorShape) else tuple(shape)


def has_dead_reference(key):
    """True when `key` refers to an object that has been garbage collected."""
    if isinstance(key, IdentityKey):
        return key.get() is None
    if isinstance(key, tuple):
        return any(has_dead_reference(k) for k in key)
    return False


def shape_accepts(general, specific):
    """True when every shape `specific` allows is allowed by `general`."""
    if general.dims is None:
        return True
    if specific.dims is None or len(general.dims) != len(specific.dims):
        return False
    return all(g is None or g == s for g, s in zip(general.dims, specific.dims))


# --- templates -----------------------------------------------------------------

class _Namer:
    """Unique placeholder names: `x`, then `x_1`, `x_2`..."""

    def __init__(self):
        self.used = {}
        self.variables = []        # Variable arguments seen, for alias ids

    def __call__(self, base):
        n = self.used.get(base, 0)
        self.used[base] = n + 1
        return base if n == 0 else f"{base}_{n}"


def make_template(values, names, specs, on_dead=None, kinds=None):
    """The call's values with tensor leaf i replaced by a TensorSpec from `specs[i]`.

    `names` holds the placeholder base name of each value (the parameter
    name). With `kinds` (one `inspect.Parameter` kind per value), the
    elements of `*args` are named `args_0`, `args_1`... and the entries of
    `**kwargs` by their keys. Variables become `VariableRef`s, other objects
    `IdentityKey`s; Python literals stay as they are.
    """
    it = iter(specs)
    namer = _Namer()
    out = []
    for i, (v, name) in enumerate(zip(values, names)):
        kind = kinds[i] if kinds else None
        if kind == inspect.Parameter.VAR_POSITIONAL:
            out.append(tuple(_template(x, f"{name}_{j}", it, namer, on_dead)
                             for j, x in enumerate(v)))
        elif kind == inspect.Parameter.VAR_KEYWORD:
            out.append({k: _template(x, str(k), it, namer, on_dead) for k, x in dict_items(v)})
        else:
            out.append(_template(v, name, it, namer, on_dead))
    return out


def _template(v, name, specs, namer, on_dead):
    if is_variable(v):
        alias = next((i for i, seen in enumerate(namer.variables) if seen is v), None)
        if alias is None:
            alias = len(namer.variables)
            namer.variables.append(v)
        return VariableRef(IdentityKey(v, on_dead), v.dtype, TensorShape(v.shape),
                           v.trainable, alias)
    spec = composite_spec(v)
    if spec is not None:                       # a SparseTensor, a RaggedTensor, a Dataset
        spec = spec_with_shapes(spec, [shape for _, shape in
                                       (next(specs) for _ in spec_shapes(spec))])
        return CompositeArgument(spec, [namer(name) for _ in spec._component_specs])
    if isinstance(v, (Tensor, TensorSpec, np.ndarray, np.generic)):
        dtype, shape = next(specs)
        spec_name = v.name if isinstance(v, TensorSpec) and v.name else name
        return TensorSpec(shape, dtype, namer(spec_name))
    if _is_literal(v):
        return v
    if isinstance(v, (list, tuple)):
        return _rebuild(v, [_template(x, name, specs, namer, on_dead) for x in v])
    if isinstance(v, dict):
        return _rebuild_dict(v, {k: _template(x, name, specs, namer, on_dead)
                                 for k, x in dict_items(v)})
    return IdentityKey(v, on_dead)


def _is_literal(v):
    return v is None or isinstance(v, (bool, int, float, str, bytes))


def _rebuild(template, children):
    if isinstance(template, tuple) and hasattr(template, "_fields"):
        return type(template)(*children)
    try:
        return type(template)(children)
    except TypeError:
        return list(children) if isinstance(template, list) else tuple(children)


def _rebuild_dict(template, new):
    ordered = [(k, new[k]) for k in template]
    try:
        return type(template)(ordered)
    except TypeError:
        return dict(ordered)


def map_template(template, on_spec, specs_only=False):
    """The template with each TensorSpec leaf replaced by `on_spec(spec)`, and
    identity/variable references replaced by their objects (tracing uses it).
    A composite argument is rebuilt from `on_spec` of its components, or is
    its spec with `specs_only` (structured_input_signature)."""
    if isinstance(template, CompositeArgument):
        if specs_only:
            return template.spec
        return template.spec._from_components([on_spec(c) for c in template.components()])
    if isinstance(template, TensorSpec):
        return on_spec(template)
    if isinstance(template, VariableRef):
        return _live(template.key)
    if isinstance(template, IdentityKey):
        return _live(template)
    if isinstance(template, (list, tuple)):
        return _rebuild(template, [map_template(x, on_spec, specs_only) for x in template])
    if isinstance(template, dict):
        return _rebuild_dict(template, {k: map_template(x, on_spec, specs_only)
                                        for k, x in dict_items(template)})
    return template


def _live(key):
    obj = key.get()
    if obj is None:
        raise ReferenceError(f"the {key.type_name} object this function was traced "
                             "with has been garbage collected")
    return obj


def template_leaves(template):
    """The TensorSpec leaves of a template, in placeholder order."""
    out = []
    map_template_specs(template, out.append)
    return out


def feed_leaves(template):
    """The TensorSpec and VariableRef leaves of a template, in the order a
    call's feeds list them."""
    out = []
    map_template_specs(template, out.append, VariableRef)
    return out


def map_template_specs(template, visit, also=()):
    if isinstance(template, TensorSpec) or (also and isinstance(template, also)):
        visit(template)
    elif isinstance(template, CompositeArgument):
        for c in template.components():
            visit(c)
    elif isinstance(template, (list, tuple)):
        for x in template:
            map_template_specs(x, visit, also)
    elif isinstance(template, dict):
        for _, x in dict_items(template):
            map_template_specs(x, visit, also)


# --- checking a call against a fixed template ---------------------------------

def match_template(template, value, path, feeds, where):
    """Check `value` against `template`, appending tensor feeds in order.

    Python values at a TensorSpec convert to the spec's dtype. `where` names
    the function for messages. Raises InputSignatureMismatchError.
    """
    if isinstance(template, CompositeArgument):
        _match_composite(template, value, path, feeds, where)
    elif isinstance(template, TensorSpec):
        try:
            feeds.append(_tensor_for_spec(template, value, path, where))
        except InputSignatureMismatchError as e:
            if getattr(e, "dtype_of_input", None) is not None:   # which placeholder: for the message
                e.dtype_of_input = (len(feeds),) + e.dtype_of_input[1:]
            raise
    elif isinstance(template, VariableRef):
        if not (is_variable(value) and value.dtype == template.dtype
                and TensorShape(value.shape) == template.shape
                and value.trainable == template.trainable):
            raise _mismatch(where, path, f"a Variable like {template!r}", _given(value))
        feeds.append(value)
    elif isinstance(template, IdentityKey):
        if value is not template.get():
            raise _mismatch(where, path, f"the same {template.type_name} object it was "
                            "traced with (objects are matched by identity)", _given(value))
    elif isinstance(template, (list, tuple, dict)):
        _match_structure(template, value, path, feeds, where)
    elif not _same_literal(template, value):
        raise _mismatch(where, path, f"the Python value {template!r} it was traced with",
                        _given(value), f"Can not cast {value!r} to {format_type(template)}")


def checked_feeds(values, direct, check, args, kwargs):
    """The feeds of a call checked against a fixed template, cheaply.

    `check(values, args, kwargs)` is the full check (`match_template` over
    `values`; `args` and `kwargs` as called, for its error), returning the
    feeds or raising. `direct` is a set of call keys for which the feeds
    `call_key` collects are exactly the ones `check` returns (the same
    objects: tensors of the spec's dtype and an accepted shape, literals
    equal to the traced ones). A call whose key is in it skips `check`; the
    key holds everything the check looks at (dtypes, shapes, literal values,
    structure), so the answer would be the same.
    """
    feeds = []
    try:
        key = call_key(values, feeds)
    except Exception:  # noqa: BLE001 - the full check says what is wrong
        return check(values, args, kwargs)
    if key in direct:
        return feeds
    checked = check(values, args, kwargs)
    if len(checked) == len(feeds) and all(a is b for a, b in zip(checked, feeds)):
        if len(direct) >= _MAX_DIRECT:
            direct.clear()
        direct.add(key)
    return checked


_MAX_DIRECT = 1024       # keys a `checked_feeds` set keeps before it starts again


def _match_composite(template, value, path, feeds, where):
    """A composite value against its template's spec: the components are fed."""
    spec = template.spec
    given = type_spec_of(value)
    if given is None or not spec.is_compatible_with(given):
        text = repr(given) if given is not None else _given(value)
        kind = getattr(spec.value_type, "__name__", "value")
        raise _mismatch(where, path, f"{_article(kind.lower())} {kind} of {spec!r}", text,
                        f"Can not cast {text} to {spec!r}")
    for c, c_spec in zip(given._to_components(value), spec._component_specs):
        feeds.append(_tensor_for_spec(c_spec, c, path, where))


def _match_structure(template, value, path, feeds, where):
    if isinstance(template, dict):
        if not isinstance(value, dict) or set(value) != set(template):
            raise _mismatch(where, path, f"a dict with keys {sorted(template, key=repr)}",
                            _given(value))
        for k, t in dict_items(template):
            match_template(t, value[k], f"{path}[{k!r}]", feeds, where)
        return
    if not isinstance(value, (list, tuple)) or len(value) != len(template):
        raise _mismatch(where, path, f"a {type(template).__name__} of {len(template)} "
                        "elements", _given(value))
    for i, (t, v) in enumerate(zip(template, value)):
        match_template(t, v, f"{path}[{i}]", feeds, where)


def _same_literal(expected, value):
    if isinstance(expected, bool) != isinstance(value, bool):
        return False
    try:
        return type(expected) is type(value) and expected == value or \
            (isinstance(expected, (int, float)) and isinstance(value, (int, float))
             and expected == value)
    except Exception:  # noqa: BLE001 - odd __eq__: treat as different
        return False


def _tensor_for_spec(spec, value, path, where):
    """The numpy value to feed for `value` at `spec` (converted when Python)."""
    if is_variable(value):
        value = value._as_tensor()
    if isinstance(value, SymbolicTensor):
        raise _mismatch(where, path, _spec_text(spec),
                        f"the symbolic tensor {value.name} from another graph")
    if isinstance(value, EagerTensor):
        if value.dtype != spec.dtype or not shape_accepts(spec.shape, value.shape):
            error = _mismatch(where, path, _spec_text(spec), _tensor_text(value),
                              f"Can not cast {TensorSpec(value.shape, value.dtype)!r} to "
                              f"{TensorSpec(spec.shape, spec.dtype)!r}")
            if value.dtype != spec.dtype:
                error.dtype_of_input = (None, value.dtype, spec.dtype)
            raise error
        return value._value
    if isinstance(value, (np.ndarray, np.generic)):
        return _tensor_for_spec(spec, convert_to_tensor(value), path, where)
    try:
        tensor = convert_to_tensor(value, spec.dtype)
    except (TypeError, ValueError) as e:
        raise _mismatch(where, path, _spec_text(spec), f"{_given(value)} ({e})") from None
    if not shape_accepts(spec.shape, tensor.shape):
        raise _mismatch(where, path, _spec_text(spec),
                        f"{_given(value)}, a value of shape {tensor.shape}")
    return tensor._value


def _spec_text(spec):
    dims = "None (any rank)" if spec.shape.dims is None else str(spec.shape)
    return f"{_article(spec.dtype.name)} {spec.dtype.name} tensor of shape {dims}"


def _tensor_text(t):
    return f"{_article(t.dtype.name)} {t.dtype.name} tensor of shape {t.shape}"


def _article(word):
    return "an" if word[0] in "aeiou" else "a"


def _given(value):
    if isinstance(value, Tensor):
        return _tensor_text(value)
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"


def _mismatch(where, path, expected, given, reason=None):
    """The mismatch error; `reason` is TensorFlow's short text of it
    (`Can not cast TensorSpec(...) to TensorSpec(...)`), for binding_error."""
    error = InputSignatureMismatchError(
        f"{where}: argument '{path}' does not match the signature: expected "
        f"{expected}, got {given}.")
    error.reason = reason or f"Can not cast {given} to {expected}"
    error.dtype_of_input = None
    return error


# --- describing calls, for retracing explanations ----------------------------

def describe(template, names):
    """{argument path: (kind, text)} for a template, containers included."""
    out = {}
    for value, name in zip(template, names):
        _describe(value, name, out)
    return out


def _describe(t, path, out):
    if isinstance(t, CompositeArgument):
        out[path] = ("composite", repr(t.spec))
    elif isinstance(t, TensorSpec):
        out[path] = ("tensor", (t.dtype.name, str(t.shape)))
    elif isinstance(t, VariableRef):
        out[path] = ("variable", f"a {t.dtype.name} Variable of shape {t.shape}"
                                 f"{'' if t.trainable else ' (not trainable)'}")
    elif isinstance(t, IdentityKey):
        out[path] = ("object", f"{t.type_name} object (id {t._hash:#x})")
    elif isinstance(t, (list, tuple)):
        out[path] = ("container", f"{type(t).__name__} of {len(t)} elements")
        for i, x in enumerate(t):
            _describe(x, f"{path}[{i}]", out)
    elif isinstance(t, dict):
        out[path] = ("container", f"dict with keys {sorted(t, key=repr)}")
        for k, x in dict_items(t):
            _describe(x, f"{path}[{k!r}]", out)
    else:
        out[path] = ("literal", f"Python {type(t).__name__} {t!r}")


def explain_difference(old, new):
    """Lines saying how argument descriptions `old` and `new` differ."""
    lines = []
    changed_containers = []
    for path, (kind, text) in new.items():
        if any(path.startswith(p) and path != p for p in changed_containers):
            continue
        before = old.get(path)
        if before is None or before == (kind, text):
            continue
        if before[0] == kind == "container":
            changed_containers.append(path)
        lines.append(f"argument '{path}': {_change(before, (kind, text))}")
    return lines


def _change(before, after):
    (k0, t0), (k1, t1) = before, after
    if k0 == k1 == "tensor":
        parts = []
        if t0[0] != t1[0]:
            parts.append(f"dtype {t0[0]} -> {t1[0]}")
        if t0[1] != t1[1]:
            parts.append(f"shape {t0[1]} -> {t1[1]}")
        return ", ".join(parts)
    if k0 == k1 == "literal":
        return f"value {t0.split(' ', 2)[-1]} -> {t1.split(' ', 2)[-1]} " \
               "(Python values key traces by value)"
    if k0 == k1 == "object":
        return f"{t0} -> a different {t1} (objects key traces by identity)"
    return f"{_text(before)} -> {_text(after)}"


def _text(desc):
    kind, text = desc
    if kind == "tensor":
        return f"{text[0]} tensor of shape {text[1]}"
    return text


# --- pretty type names (pretty_printed_concrete_signatures) -------------------

def format_type(t):
    """TensorFlow-style type text: TensorSpec(...), Literal[2], List[...]."""
    if isinstance(t, CompositeArgument):
        return repr(t.spec)
    spec = composite_spec(t)
    if spec is not None:                       # a returned SparseTensor / RaggedTensor
        return repr(spec)
    if isinstance(t, TensorSpec):     # a placeholder's name is dropped before (function_type)
        return repr(t)
    if isinstance(t, SymbolicTensor):
        return repr(TensorSpec(t.shape, t.dtype))
    if isinstance(t, TensorArray):
        shape = t.element_shape
        dims = "None" if shape.dims is None else str(shape)
        return (f"TensorArraySpec(element_shape={dims}, dtype={t.dtype!r}, "
                f"dynamic_size={t.dynamic_size})")
    if isinstance(t, (VariableRef, IdentityKey)):
        return repr(t)
    if isinstance(t, list):
        return "List[" + ", ".join(format_type(x) for x in t) + "]"
    if isinstance(t, tuple) and hasattr(t, "_fields"):
        return f"{type(t).__name__}[" + ", ".join(format_type(x) for x in t) + "]"
    if isinstance(t, tuple):
        return "Tuple[" + ", ".join(format_type(x) for x in t) + "]"
    if isinstance(t, dict):
        return "Dict[" + ", ".join(f"[{k!r}, {format_type(x)}]"
                                   for k, x in dict_items(t)) + "]"
    return f"Literal[{t!r}]"
