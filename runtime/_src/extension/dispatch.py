"""Dispatch of TensorFlow's APIs to user functions, by argument types:

    @tf.experimental.dispatch_for_api(tf.stack)
    def masked_stack(values: List[MaskedTensor], axis=0):
        ...
    tf.stack([mt1, mt2])          # calls masked_stack

    @tf.experimental.dispatch_for_unary_elementwise_apis(MaskedTensor)
    def handler(api_func, x): ...  # tf.abs(mt), tf.math.sin(mt), ...

A registration replaces the API in the public namespaces (`tf.stack`,
`tf.math.add`, ... wherever that function is exported) by a dispatching
wrapper, so an API that no one overrides runs with no cost added. The
wrapper tries the registered targets in order: a target's signature (from
its parameters' type annotations, or given as dicts) matches when every
annotated argument has the annotated type and at least one of them holds a
composite value (an ExtensionType, a SparseTensor...), as in TensorFlow;
otherwise the API runs as before.

The public namespaces are found through `set_namespaces`, which the public
`tf.experimental` module calls with the top-level `runtime` module.
"""

import collections
import functools
import inspect
import types
import typing

from runtime._src.core.composite import type_spec_of
from runtime._src.core.tensor import Tensor

__all__ = ["dispatch_for_api", "unregister_dispatch_for", "dispatch_for_unary_elementwise_apis",
           "dispatch_for_binary_elementwise_apis", "dispatch_for_binary_elementwise_assert_apis",
           "set_namespaces", "registered_targets", "UNARY_ELEMENTWISE_APIS", "BINARY_ELEMENTWISE_APIS",
           "BINARY_ELEMENTWISE_ASSERT_APIS"]

_ROOT = []                   # the public top-level module (set_namespaces)
_TARGETS = {}                # original API -> [(checker, target)]
_WRAPPERS = {}               # original API -> its dispatching wrapper
_ELEMENTWISE = {}            # (types..., kind) -> (handler, [registered targets])


def set_namespaces(root_module):
    """Where the public API functions live (the `runtime` module)."""
    _ROOT[:] = [root_module]


def _public_modules():
    if not _ROOT:
        return []
    root = _ROOT[0]
    seen, out, todo = set(), [], [root]
    while todo:
        module = todo.pop()
        if id(module) in seen:
            continue
        seen.add(id(module))
        out.append(module)
        for name, value in list(vars(module).items()):
            if isinstance(value, types.ModuleType) and not name.startswith("_") and \
                    value.__name__.startswith(root.__name__ + ".") and \
                    "._src" not in value.__name__:
                todo.append(value)
    return out


def _original(api):
    return getattr(api, "_tf_dispatch_original", api)


def _wrapper_for(api):
    """The dispatching wrapper of `api`, installed in every public namespace."""
    original = _original(api)
    wrapper = _WRAPPERS.get(original)
    if wrapper is not None:
        return wrapper

    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        for checker, target in _TARGETS.get(original, ()):
            if checker(args, kwargs):
                return target(*args, **kwargs)
        return original(*args, **kwargs)
    wrapper._tf_dispatch_original = original
    _WRAPPERS[original] = wrapper
    _TARGETS.setdefault(original, [])
    for module in _public_modules():
        for name, value in list(vars(module).items()):
            if value is original:
                setattr(module, name, wrapper)
    return wrapper


def _uninstall(original):
    """Put `original` back where its wrapper was (no registration is left)."""
    wrapper = _WRAPPERS.pop(original, None)
    _TARGETS.pop(original, None)
    if wrapper is None:
        return
    for module in _public_modules():
        for name, value in list(vars(module).items()):
            if value is wrapper:
                setattr(module, name, original)


def registered_targets():
    """Every function registered with a `dispatch_for_*` decorator."""
    out = [handler for handler, _ in _ELEMENTWISE.values()]
    for entries in _TARGETS.values():
        out += [getattr(e[1], "_tf_dispatch_target", None) for e in entries]
    return [t for t in dict.fromkeys(out) if t is not None]


def _api_signature(api):
    try:
        return inspect.signature(_original(api))
    except (TypeError, ValueError):
        raise ValueError(f"{api} does not support dispatch.") from None


def _check_signature(api_sig, target):
    """The target's parameters must be the API's (same names and kinds, in
    order; the target may leave out `name`)."""
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return
    params = list(sig.parameters.values())
    if len(params) == 2 and params[0].kind is inspect.Parameter.VAR_POSITIONAL and \
            params[1].kind is inspect.Parameter.VAR_KEYWORD:
        return
    api_params = [p for p in api_sig.parameters.values()
                  if p.name != "name" or "name" in sig.parameters]
    ok = len(api_params) == len(params) and all(
        a.name == b.name and a.kind == b.kind for a, b in zip(api_params, params))
    if not ok:
        raise ValueError(f"Dispatch function's signature {sig} does not match API's "
                         f"signature {api_sig}.")


def _matches(value, ann):
    """(value has type `ann`, a composite was seen) for one annotated argument."""
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if origin is typing.Union:
        for a in args:
            ok, seen = _matches(value, a)
            if ok:
                return True, seen
        return False, False
    if origin in (list, collections.abc.Sequence, tuple) or ann in (list, tuple):
        if not isinstance(value, (list, tuple)):
            return False, False
        item = args[0] if args else typing.Any
        seen = False
        for v in value:
            ok, s = _matches(v, item)
            if not ok:
                return False, False
            seen = seen or s
        return True, seen
    if ann is typing.Any:
        return True, False
    if ann is None or ann is type(None):
        return value is None, False
    if isinstance(ann, type) and isinstance(value, ann):
        return True, type_spec_of(value) is not None and not isinstance(value, Tensor)
    return False, False


def _make_checker(api_sig, signature):
    if not isinstance(signature, dict) or not all(isinstance(k, (str, int)) for k in signature):
        raise TypeError("signatures must be dictionaries mapping parameter names to type "
                        "annotations.")
    names = list(api_sig.parameters)
    annotations = {}
    for key, ann in signature.items():
        name = names[key] if isinstance(key, int) and key < len(names) else key
        if name not in api_sig.parameters:
            raise ValueError(f"signature includes annotation for unknown parameter {name!r}.")
        annotations[name] = ann

    def checker(args, kwargs):
        try:
            bound = api_sig.bind(*args, **kwargs)
        except TypeError:
            return False
        seen = False
        for name, ann in annotations.items():
            if name not in bound.arguments:
                return False
            ok, s = _matches(bound.arguments[name], ann)
            if not ok:
                return False
            seen = seen or s
        return seen
    return checker


def _annotations_of(target, api_sig):
    sig = inspect.signature(target)
    return {name: p.annotation for name, p in sig.parameters.items()
            if p.annotation is not inspect.Parameter.empty and name in api_sig.parameters}


def dispatch_for_api(api, *signatures):
    """`tf.experimental.dispatch_for_api`: a decorator registering its function
    to run in place of `api` when the arguments match a signature (dicts of
    parameter name -> type; by default the function's own annotations)."""
    if not callable(api):
        raise ValueError(f"{api} does not support dispatch.")
    api_sig = _api_signature(api)
    checkers = [_make_checker(api_sig, s) for s in signatures]

    def decorator(target):
        if not callable(target):
            raise TypeError(f"Expected dispatch_target to be callable; got {target!r}")
        _check_signature(api_sig, target)
        target_checkers = checkers or [_make_checker(api_sig, _annotations_of(target, api_sig))]
        call = _without_name(target, api_sig)
        _wrapper_for(api)
        for checker in target_checkers:
            _TARGETS[_original(api)].append((checker, call))
        call._tf_dispatch_target = target
        return target
    return decorator


def _without_name(target, api_sig):
    """`target`, called without the API's `name` argument when it takes none."""
    if "name" in api_sig.parameters and "name" not in inspect.signature(target).parameters:
        names = list(api_sig.parameters)
        index = names.index("name")

        def call(*args, **kwargs):
            kwargs.pop("name", None)
            if len(args) > index:
                args = args[:index] + args[index + 1:]
            return target(*args, **kwargs)
        return call
    return lambda *args, **kwargs: target(*args, **kwargs)


def unregister_dispatch_for(dispatch_target):
    """`tf.experimental.unregister_dispatch_for`: undo a `dispatch_for_*` registration."""
    found = False
    for original, entries in list(_TARGETS.items()):
        kept = [e for e in entries if getattr(e[1], "_tf_dispatch_target", None)
                is not dispatch_target]
        found = found or len(kept) != len(entries)
        entries[:] = kept
        if not kept:
            _uninstall(original)
    for key, (handler, targets) in list(_ELEMENTWISE.items()):
        if handler is dispatch_target:
            for target in targets:
                unregister_dispatch_for(target)
            del _ELEMENTWISE[key]
            found = True
    if not found:
        raise ValueError(f"Function {dispatch_target} was not registered using a "
                         "`@dispatch_for_*` decorator.")


# --- elementwise APIs --------------------------------------------------------------------

def _resolve(names):
    """The public functions of TF API names ("math.abs") that exist here."""
    if not _ROOT:
        return []
    out = []
    for name in names:
        value = _ROOT[0]
        for part in name.split("."):
            value = getattr(value, part, None)
        if callable(value) and _original(value) not in [_original(v) for v in out]:
            out.append(value)
    return out


def _register_elementwise(key, handler, names, arity, what):
    if key in _ELEMENTWISE:
        types_text = key[0] if len(key) == 2 else f"({key[0]}, {key[1]})"
        raise ValueError(f"A {what} dispatch handler ({_ELEMENTWISE[key][0]}) has already "
                         f"been registered for {types_text}.")
    targets = []
    for api in _resolve(names):
        api_sig = _api_signature(api)
        params = list(api_sig.parameters)
        if len(params) < arity:
            continue
        target = _elementwise_target(api, handler, params, arity)
        checker = _make_checker(api_sig, dict(zip(params[:arity], key[:arity])))
        _wrapper_for(api)
        _TARGETS[_original(api)].append((checker, target))
        target._tf_dispatch_target = target
        targets.append(target)
    _ELEMENTWISE[key] = (handler, targets)
    return handler


def _elementwise_target(api, handler, params, arity):
    original = _original(api)
    sig = inspect.signature(original)

    def target(*args, **kwargs):
        bound = sig.bind(*args, **kwargs)
        operands = [bound.arguments.pop(p) for p in params[:arity]]
        rest = bound.arguments

        def api_func(*xs):
            return original(**dict(zip(params[:arity], xs)), **rest)
        api_func.__name__ = getattr(original, "__name__", "api_func")
        return handler(api_func, *operands)
    return target


def dispatch_for_unary_elementwise_apis(x_type):
    """`tf.experimental.dispatch_for_unary_elementwise_apis`: `handler(api_func, x)`
    runs for every unary elementwise API whose `x` has type `x_type`."""
    def decorator(handler):
        return _register_elementwise((x_type, "unary"), handler, UNARY_ELEMENTWISE_APIS, 1,
                                     "unary elementwise")
    return decorator


def dispatch_for_binary_elementwise_apis(x_type, y_type):
    """`tf.experimental.dispatch_for_binary_elementwise_apis`: `handler(api_func, x, y)`
    runs for every binary elementwise API whose `x` and `y` have those types."""
    def decorator(handler):
        return _register_elementwise((x_type, y_type, "binary"), handler,
                                     BINARY_ELEMENTWISE_APIS, 2, "binary elementwise")
    return decorator


def dispatch_for_binary_elementwise_assert_apis(x_type, y_type):
    """`tf.experimental.dispatch_for_binary_elementwise_assert_apis`: the same
    for the elementwise assertions (`tf.debugging.assert_equal`, ...)."""
    def decorator(handler):
        return _register_elementwise((x_type, y_type, "assert"), handler,
                                     BINARY_ELEMENTWISE_ASSERT_APIS, 2,
                                     "binary elementwise assert")
    return decorator


# TensorFlow 2.21's elementwise APIs (tensorflow/python/util/dispatch.py's lists,
# _UNARY_ELEMENTWISE_APIS and its siblings, each function by its public name).
UNARY_ELEMENTWISE_APIS = (
    "abs acos acosh as_string asin asinh atan atanh bitwise.invert cast clip_by_value cos cosh "
    "debugging.check_numerics dtypes.cast dtypes.saturate_cast exp floor "
    "image.adjust_brightness image.adjust_gamma image.convert_image_dtype "
    "image.random_brightness image.stateless_random_brightness io.decode_base64 "
    "io.decode_compressed io.encode_base64 logical_not math.abs math.acos math.acosh "
    "math.angle math.asin math.asinh math.atan math.atanh math.bessel_i0 math.bessel_i0e "
    "math.bessel_i1 math.bessel_i1e math.ceil math.conj math.cos math.cosh math.digamma "
    "math.erf math.erfc math.erfcinv math.erfinv math.exp math.expm1 math.floor math.imag "
    "math.is_finite math.is_inf math.is_nan math.lgamma math.log math.log1p math.log_sigmoid "
    "math.logical_not math.ndtri math.negative math.nextafter math.real math.reciprocal "
    "math.reciprocal_no_nan math.rint math.round math.rsqrt math.sigmoid math.sign math.sin "
    "math.sinh math.softplus math.softsign math.sqrt math.square math.tan math.tanh negative "
    "nn.elu nn.gelu nn.leaky_relu nn.relu nn.relu6 nn.selu nn.sigmoid nn.silu nn.softplus "
    "nn.softsign nn.swish nn.tanh ones_like round saturate_cast sigmoid sign sin sinh sqrt "
    "square strings.as_string strings.length strings.lower strings.regex_full_match "
    "strings.regex_replace strings.strip strings.substr strings.to_hash_bucket "
    "strings.to_hash_bucket_fast strings.to_hash_bucket_strong strings.to_number "
    "strings.unicode_script strings.unicode_transcode strings.upper tan tanh zeros_like"
).split()
BINARY_ELEMENTWISE_APIS = (
    "add atan2 bitwise.bitwise_and bitwise.bitwise_or bitwise.bitwise_xor bitwise.left_shift "
    "bitwise.right_shift complex divide dtypes.complex equal greater greater_equal less "
    "less_equal logical_and logical_or math.add math.atan2 math.divide math.divide_no_nan "
    "math.equal math.floordiv math.floormod math.greater math.greater_equal math.less "
    "math.less_equal math.logical_and math.logical_or math.logical_xor math.maximum "
    "math.minimum math.mod math.multiply math.multiply_no_nan math.not_equal math.pow "
    "math.scalar_mul math.squared_difference math.subtract math.truediv math.xdivy "
    "math.xlog1py math.xlogy math.zeta maximum minimum multiply "
    "nn.sigmoid_cross_entropy_with_logits not_equal pow realdiv scalar_mul subtract truediv "
    "truncatediv truncatemod"
).split()
BINARY_ELEMENTWISE_ASSERT_APIS = (
    "assert_equal assert_greater assert_less debugging.assert_equal debugging.assert_greater "
    "debugging.assert_greater_equal debugging.assert_less debugging.assert_less_equal "
    "debugging.assert_near debugging.assert_none_equal"
).split()
