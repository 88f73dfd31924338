"""Undefined names in converted code.

Converted control flow passes every variable it may change in and out of
functions. A variable not yet bound holds an `Undefined` placeholder, and a
read that may find it unbound goes through `ld`, which raises the same
`UnboundLocalError` Python would:

    y = Undefined('y')
    ld(y)        # UnboundLocalError: cannot access local variable 'y' ...
"""

__all__ = ["Undefined", "ld", "is_undefined", "is_return_slot"]


class Undefined:
    """Stands for the value of the unbound local variable `name`."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def error(self):
        return UnboundLocalError(
            f"cannot access local variable '{self.name}' where it is not associated with a value")

    def __repr__(self):
        return f"Undefined({self.name!r})"

    # Any use other than passing it around is a read of an unbound name.
    def __getattr__(self, attr):
        if attr.startswith("_"):      # protocol probes (hasattr(v, "__array__"))
            raise AttributeError(attr)
        raise Undefined.error(self)

    def __bool__(self):
        raise self.error()

    def _raise(self, *args):
        raise self.error()

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _raise
    __truediv__ = __floordiv__ = __mod__ = __pow__ = __neg__ = __getitem__ = _raise
    __lt__ = __le__ = __gt__ = __ge__ = __iter__ = __len__ = __call__ = _raise


def ld(value):
    """Read a variable that may be unbound."""
    if isinstance(value, Undefined):
        raise value.error()
    return value


def is_undefined(value):
    return isinstance(value, Undefined)


def is_return_slot(name):
    """True for the variable holding a function's return value (`retval_`).

    It may stay undefined on paths where `do_return` guards it, so staged
    control flow fills it with a dummy of the right dtype instead of failing.
    """
    return name.startswith("retval_")
