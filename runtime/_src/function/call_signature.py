"""How a traced callable's parameters become the values a trace is keyed on.

    sig = CallSignature(fn)                 # fn(x, y=2, *rest, **opts)
    values = sig.bind((t,), {}, "fn")       # [t, 2, (), {}]: one per parameter
    args, kwargs = sig.split(values)        # back to a call of fn

Positional calls with the exact arity skip binding, the hot path of
`Function.__call__`; other calls bind through a `binder.make_binder`
closure, which runs `bind` once per shape of the arguments. A numpy
ufunc takes its `nin` inputs only; a callable without a signature takes
`*args, **kwargs`. `input_signature` is checked against the parameters here
and turned into one template entry per parameter.
"""

import inspect

import numpy as np

from runtime._src.core import nest
from runtime._src.core.composite import CompositeSpec
from runtime._src.function import function_type as _function_type
from runtime._src.function import signature as _sig
from runtime._src.core.tensor import TensorSpec
from runtime._src.ops import math_ops, nn_ops

__all__ = ["CallSignature", "first_param_is_self", "check_input_signature",
           "signature_template", "ufunc_error", "binding_error", "mismatch_error"]


class CallSignature:
    """How a Python function's parameters map to the per-parameter values a
    trace is keyed on (`*args` is one tuple value, `**kwargs` one dict)."""

    _POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)

    def __init__(self, python_function, drop_first=False):
        sig = _python_signature(python_function)
        params = list(sig.parameters.values())
        if drop_first and params and params[0].kind in self._POSITIONAL:
            params = params[1:]
            sig = sig.replace(parameters=params)
        self.signature = sig
        self.params = params
        self.names = [p.name for p in params]
        self.kinds = [p.kind for p in params]
        simple = all(p.kind in self._POSITIONAL for p in params)
        self.fast_arity = len(params) if simple else -1   # positional calls skip binding

    def bind(self, args, kwargs, where, function_type=None):
        """The value of every parameter, defaults filled in. A call that does not
        bind raises TensorFlow's TypeError (`binding_error`), which shows
        `function_type()` (a callable: the type is built only for the error).
        Calls go through a `binder.make_binder` closure of this method, which
        runs it once per shape of the arguments."""
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as e:
            function_type = (function_type() if function_type is not None
                             else _function_type.polymorphic_type(self))
            raise binding_error(str(e), args, kwargs, function_type,
                                f"{where}(): {e}") from None
        bound.apply_defaults()
        arguments = bound.arguments
        return [arguments[name] for name in self.names]

    def split(self, values):
        """(args, kwargs) that call the Python function with `values`."""
        args, kwargs = [], {}
        for p, v in zip(self.params, values):
            if p.kind in self._POSITIONAL:
                args.append(v)
            elif p.kind == inspect.Parameter.VAR_POSITIONAL:
                args.extend(v)
            elif p.kind == inspect.Parameter.KEYWORD_ONLY:
                kwargs[p.name] = v
            else:
                kwargs.update(v)
        return args, kwargs


def binding_error(reason, args, kwargs, function_type, explanation):
    """TensorFlow 2.21's TypeError for a call that does not fit, its first line
    verbatim, then our `explanation` (which names the function):

        Binding inputs to tf.function failed due to `missing a required argument:
        'x'`. Received args: () and kwargs: {} for signature: (x, y=<captured_default_value>).
    """
    return TypeError(
        f"Binding inputs to tf.function failed due to `{reason}`. Received args: "
        f"{tuple(args)!r} and kwargs: {dict(kwargs)!r} for signature: {function_type}.\n"
        f"{explanation}")


def mismatch_error(error, args, kwargs, function_type):
    """An `InputSignatureMismatchError` from `signature.match_template` with
    TensorFlow's first line (`binding_error`) put before its explanation."""
    text = binding_error(error.reason, args, kwargs, function_type, str(error)).args[0]
    return _sig.InputSignatureMismatchError(text)


def _python_signature(python_function):
    """The signature calls are bound to.

    A numpy ufunc takes its `nin` inputs only: its full signature has
    keyword options (`dtype=None, signature=None, ...`) that numpy refuses
    to receive all at once, as filling in defaults would pass them. A
    callable without a signature takes `*args, **kwargs`.
    """
    if isinstance(python_function, np.ufunc):
        names = ["x"] if python_function.nin == 1 else [
            f"x{i + 1}" for i in range(python_function.nin)]
        return inspect.Signature([inspect.Parameter(n, inspect.Parameter.POSITIONAL_ONLY)
                                  for n in names])
    try:
        return inspect.signature(python_function)
    except (TypeError, ValueError):
        return inspect.Signature([
            inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL),
            inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD)])


def ufunc_error(ufunc, error):
    """A numpy ufunc met symbolic tensors while tracing: say what to use."""
    in_tf_math = (hasattr(math_ops, ufunc.__name__) or hasattr(nn_ops, ufunc.__name__)
                  or ufunc.__name__ == "logical_xor")   # tf.math's one name from bitwise_ops
    op = f"tf.math.{ufunc.__name__}" if in_tf_math else "the runtime op"
    params = ", ".join(["x"] if ufunc.nin == 1 else [f"x{i + 1}" for i in range(ufunc.nin)])
    return TypeError(
        f"function(np.{ufunc.__name__}): a numpy ufunc cannot compute on symbolic tensors "
        f"while tracing: {str(error).rstrip('.')}. Use {op} instead, or run numpy at graph run time with "
        f"tf.numpy_function(np.{ufunc.__name__}, [{params}], Tout=<dtype>).")


def first_param_is_self(call_sig):
    params = call_sig.params
    return bool(params) and params[0].name in ("self", "cls") and \
        params[0].kind in CallSignature._POSITIONAL


def check_input_signature(input_signature, call_sig, where):
    """Validate `input_signature` against the function's parameters."""
    if not isinstance(input_signature, (list, tuple)):
        raise TypeError(f"{where}: input_signature must be a list or tuple of TensorSpec, "
                        f"got {type(input_signature).__name__}")
    for leaf in nest.flatten(list(input_signature)):
        if not isinstance(leaf, (TensorSpec, CompositeSpec)):
            raise TypeError(f"{where}: input_signature must contain only TensorSpec "
                            f"objects (possibly nested), got {leaf!r}")
    for p in call_sig.params:
        if p.kind == inspect.Parameter.VAR_KEYWORD:
            raise ValueError(
                f"{where}: cannot use input_signature with a function that takes "
                f"**{p.name}: every input must be described by the signature. Remove "
                f"**{p.name} or drop input_signature.")
        if p.kind == inspect.Parameter.KEYWORD_ONLY and p.default is p.empty:
            raise ValueError(f"{where}: keyword-only parameter '{p.name}' has no default, "
                             "so input_signature cannot describe it; give it a default")
    return tuple(input_signature)


def signature_template(input_signature, call_sig):
    """One template entry per parameter: specs, then defaults for the rest."""
    specs = list(input_signature)
    template = []
    namer = _sig._Namer()

    def leaf(s, base):
        if isinstance(s, CompositeSpec):      # a SparseTensorSpec, a RaggedTensorSpec
            return _sig.CompositeArgument(s, [namer(base) for _ in s._component_specs])
        return TensorSpec(s.shape, s.dtype, namer(s.name or base))

    def named(spec, base):
        return nest.map_structure(lambda s: leaf(s, base), spec)
    for p in call_sig.params:
        if p.kind == inspect.Parameter.VAR_POSITIONAL:
            template.append(tuple(named(s, f"{p.name}_{i}") for i, s in enumerate(specs)))
            specs = []
        elif specs and p.kind in CallSignature._POSITIONAL:
            template.append(named(specs.pop(0), p.name))
        elif p.default is not p.empty:
            template.extend(_sig.make_template([p.default], [p.name], []))
        else:
            raise TypeError(f"input_signature has {len(input_signature)} entries but "
                            f"parameter '{p.name}' is not covered and has no default")
    if specs:
        raise TypeError(f"input_signature has {len(input_signature)} entries but the "
                        f"function takes only {len(input_signature) - len(specs)} "
                        "positional parameters")
    return template
