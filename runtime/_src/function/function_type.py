"""`FunctionType`: what a function accepts and returns, as TensorFlow prints it.

TensorFlow 2.21 describes a `tf.function` and each of its concrete functions
by a `FunctionType`, an `inspect.Signature` whose parameters carry a *type
constraint* (a `TensorSpec`, `Literal[3.0]`, ...) and which has an output type
and captures. `str()` is the one-line form, `repr()` the multi-line one that
`pretty_printed_concrete_signatures()` and `str(concrete_function)` print:

    >>> str(cf.function_type)
    '(x: TensorSpec(shape=(None,), dtype=tf.float32, name=None), y: Literal[3.0]) -> TensorSpec(shape=(None,), dtype=tf.float32, name=None)'
    >>> print(repr(cf.function_type))
    Input Parameters:
      x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(None,), dtype=tf.float32, name=None)
      y (POSITIONAL_OR_KEYWORD): Literal[3.0]
    Output Type:
      TensorSpec(shape=(None,), dtype=tf.float32, name=None)
    Captures:
      None

A polymorphic `Function`'s type has no constraints: `(x, y=<captured_default_value>)`.

A concrete function of a Python function with `*args` or `**kwargs` has, as in
TensorFlow, its positional parameters made positional-only, one parameter
per element of `*args` (`args_0`, `args_1`...) and one keyword-only
parameter per entry of `**kwargs`.
"""

import collections
import inspect
import re

from runtime._src.function import signature as _sig

__all__ = ["FunctionType", "Parameter", "CAPTURED_DEFAULT", "polymorphic_type",
           "concrete_type"]

_P = inspect.Parameter


class _CapturedDefault:
    """The default shown for a parameter with a default (TF's placeholder text)."""

    def __repr__(self):
        return "<captured_default_value>"


CAPTURED_DEFAULT = _CapturedDefault()


class Parameter(inspect.Parameter):
    """An `inspect.Parameter` with a `type_constraint` (None: any value)."""

    __slots__ = ("_type_constraint",)

    def __init__(self, name, kind, optional=False, type_constraint=None):
        super().__init__(name, kind, default=CAPTURED_DEFAULT if optional else _P.empty)
        self._type_constraint = type_constraint

    @property
    def optional(self):
        return self.default is not _P.empty

    @property
    def type_constraint(self):
        return self._type_constraint

    def __str__(self):
        text = self.name
        if self._type_constraint is not None:
            text += f": {_sig.format_type(self._type_constraint)}"
        if self.optional:
            text += f"={CAPTURED_DEFAULT!r}"
        if self.kind == _P.VAR_POSITIONAL:
            return "*" + text
        if self.kind == _P.VAR_KEYWORD:
            return "**" + text
        return text

    def __repr__(self):
        return str(self)


class FunctionType(inspect.Signature):
    """`tf.types.experimental.FunctionType`: parameters with type constraints,
    an output type (`output`, None when not traced) and `captures`."""

    __slots__ = ("_output", "_has_output", "_captures")

    def __init__(self, parameters=None, output=None, captures=None, has_output=None):
        super().__init__(parameters)
        self._output = output
        self._has_output = output is not None if has_output is None else has_output
        self._captures = collections.OrderedDict(captures or {})

    @property
    def output(self):
        return self._output

    @property
    def captures(self):
        return self._captures

    def __str__(self):
        text = inspect.Signature.__str__(self)
        if self._has_output:
            text += f" -> {_sig.format_type(self._output)}"
        return text

    def __repr__(self):
        lines = ["Input Parameters:"]
        lines += [f"  {p.name} ({p.kind.name}): {_constraint_text(p)}"
                  for p in self.parameters.values()]
        lines += ["Output Type:", f"  {_sig.format_type(self._output) if self._has_output else None}",
                  "Captures:"]
        if self._captures:
            lines += [f"  {name}: {_sig.format_type(spec)}" for name, spec in self._captures.items()]
        else:
            lines.append("  None")
        return "\n".join(lines)


def _constraint_text(p):
    return "None" if p.type_constraint is None else _sig.format_type(p.type_constraint)


def polymorphic_type(call_sig, input_template=None):
    """The type of a `Function`: its Python parameters, constrained only by an
    `input_signature` (`input_template`, one entry per parameter)."""
    params = []
    for i, p in enumerate(call_sig.params):
        constraint = None
        if input_template is not None and p.kind not in (_P.VAR_POSITIONAL, _P.VAR_KEYWORD):
            constraint = _specs_only(input_template[i], p.name)
        params.append(Parameter(p.name, p.kind, p.default is not _P.empty, constraint))
    return FunctionType(params, has_output=False)


def _specs_only(template, base):
    return _constraint(template, base)


def concrete_type(call_sig, template, output, captures):
    """The type of one trace: each parameter constrained to what it was traced with."""
    variadic = any(k in (_P.VAR_POSITIONAL, _P.VAR_KEYWORD) for k in call_sig.kinds)
    params = []
    for p, value in zip(call_sig.params, template):
        if p.kind == _P.VAR_POSITIONAL:
            params += [Parameter(f"{p.name}_{i}", _P.POSITIONAL_ONLY, False,
                                 _constraint(x, f"{p.name}_{i}")) for i, x in enumerate(value)]
        elif p.kind == _P.VAR_KEYWORD:
            params += [Parameter(str(k), _P.KEYWORD_ONLY, False, _constraint(x, str(k)))
                       for k, x in _sig.dict_items(value)]
        else:
            kind = _P.POSITIONAL_ONLY if variadic and p.kind != _P.KEYWORD_ONLY else p.kind
            params.append(Parameter(p.name, kind, False, _constraint(value, p.name)))
    return FunctionType(params, output, captures, has_output=True)


def _constraint(template, base):
    """A template entry as a type constraint: TensorSpecs without the
    placeholder names made from the parameter's name `base` (TF prints
    `name=None`) but with a name the caller's TensorSpec gave (TF prints
    `name='keras_tensor'`), the rest as traced."""
    if isinstance(template, _sig.TensorSpec):
        name = template.name
        made = name is None or re.fullmatch(rf"{re.escape(base)}(_\d+)?", name)
        return _sig.TensorSpec(template.shape, template.dtype, None if made else name)
    if isinstance(template, (list, tuple)) and not isinstance(template, _sig.VariableRef):
        return _sig._rebuild(template, [_constraint(x, base) for x in template])
    if isinstance(template, dict):
        return _sig._rebuild_dict(template, {k: _constraint(x, base)
                                             for k, x in template.items()})
    return template
