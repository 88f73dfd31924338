"""Binders: a call's arguments to one value per parameter, compiled once per
shape of the arguments.

    bind = make_binder(lambda args, kwargs: call_sig.bind(args, kwargs, "f"))
    bind((x,), {"y": y})      # first call of this shape: the slow binder, then a plan
    bind((x2,), {"y": y2})    # later calls of the shape: the plan, [x2, y2, <default>]

Whether a call binds, and where each parameter's value comes from, depends
only on the *shape* of the arguments (how many positional ones, which
keywords), not on their values. So the first call of each shape runs the
slow binder (`inspect.Signature.bind`, a ConcreteFunction's own rules) on
the real arguments, which raises the binder's error when the call does not
fit, and then once more on probe objects to see where each probe landed:
in a parameter's slot (`a[1]`, `k['y']`), inside the tuple of `*args` or
the dict of `**kwargs`, or nowhere (that slot holds a default, kept as a
constant). The plan is a small generated function returning the values
list; later calls of the same shape run only that.

The slow binder must not look at the values it binds (a probe is no tensor),
and must return the same object for a default on every call, as
`inspect.BoundArguments.apply_defaults` does.
"""

__all__ = ["make_binder"]

_MAX_PLANS = 64        # shapes kept per binder before the plans are dropped


class _Probe:
    """Stands for one argument while a plan is found: the source text that
    reads it from a call's `a` (positional) or `k` (keyword) arguments."""

    __slots__ = ("source",)

    def __init__(self, source):
        self.source = source


def make_binder(slow):
    """`binder(args, kwargs)`: the parameter values of a call, from the plan
    of its arguments' shape (made on the first call of that shape by `slow`).

    The binder is a plain function (a closure), not an object with
    `__call__`: calling a Python-level `__call__` costs an extra bound-method
    hop on every call, and a binder runs on every non-positional call."""
    plans = {}
    get = plans.get

    def first(args, kwargs):
        """A call of a new shape: bind it slowly (errors come from here), then
        keep the plan for its shape."""
        values = slow(args, kwargs)
        plan = _plan(slow, len(args), tuple(kwargs))
        if plan is not None:
            if len(plans) >= _MAX_PLANS:
                plans.clear()
            plans[(len(args), *kwargs)] = plan
        return values

    def binder(args, kwargs):
        plan = get((len(args), *kwargs))
        if plan is None:
            return first(args, kwargs)
        return plan(args, kwargs)

    return binder


def _plan(slow, n_args, names):
    """The generated function binding calls of `n_args` positional arguments
    and the keywords `names`; None when the slow binder's answer on probes
    cannot be read as one."""
    args = tuple(_Probe(f"a[{i}]") for i in range(n_args))
    kwargs = {name: _Probe(f"k[{name!r}]") for name in names}
    try:
        values = slow(args, kwargs)
        again = slow(args, kwargs)      # a default is the same object both times
    except Exception:  # noqa: BLE001 - no plan; every call of this shape binds slowly
        return None
    constants = []
    sources = [_source(v, w, constants) for v, w in zip(values, again)]
    text = f"def plan(a, k):\n    return [{', '.join(sources)}]\n"
    namespace = {"c": tuple(constants)}
    exec(compile(text, "<binder plan>", "exec"), namespace)   # noqa: S102 - our own text
    return namespace["plan"]


def _source(value, again, constants):
    """The source text that produces `value` from a call's arguments (`again`:
    the slot's value from a second binding of the same probes)."""
    if type(value) is _Probe:
        return value.source
    if type(value) is tuple and value and all(type(v) is _Probe for v in value):
        return "(" + "".join(v.source + ", " for v in value) + ")"        # *args
    if type(value) is dict and value and all(type(v) is _Probe for v in value.values()):
        return "{" + ", ".join(f"{k!r}: {v.source}" for k, v in value.items()) + "}"  # **kw
    if type(value) is dict and not value and value is not again:
        return "{}"                      # an empty **kwargs: a new dict on every call
    constants.append(value)
    return f"c[{len(constants) - 1}]"
