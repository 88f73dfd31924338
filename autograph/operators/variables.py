"""Undefined names in converted code.

Converted control flow passes every variable it may change in and out of
functions. A variable not yet bound holds an `Undefined` placeholder, and a
read that may find it unbound goes through `ld`, which raises the same
`UnboundLocalError` Python would:

    y = Undefined('y')
    ld(y)        # UnboundLocalError: cannot access local variable 'y' ...
"""

import sys

__all__ = ["Undefined", "ld", "deleted", "user_locals", "is_undefined", "is_return_slot", "peek", "put_item", "put_attr"]


class Undefined:
    """Stands for the value of the unbound local variable `name`."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def error(self):
        # TensorFlow's phrase first, then Python's own message.
        return UnboundLocalError(
            f"'{self.name}' is used before assignment: cannot access local variable "
            f"'{self.name}' where it is not associated with a value")

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


def deleted(value, name):
    """`del name` of a variable passed between converted bodies: the
    variable becomes Undefined (UnboundLocalError if it already was)."""
    if isinstance(value, Undefined):
        raise value.error()
    return Undefined(name)


def user_locals(namespace, hidden=()):
    """`locals()` in converted code: the names the user's code has bound,
    without the functions and flags conversion added (`hidden`) or names
    that are still Undefined. Called from a body made into a function
    (`loop_body`, ...), it also shows the names of the function around it,
    as Python's locals() there would."""
    frame = sys._getframe(1)
    generated = frame.f_code.co_filename     # one file per converted function
    spaces = [namespace]
    while frame.f_code.co_name in hidden:      # a generated body: look outward
        frame = frame.f_back
        # past the operators' and the backend's frames (a staged if or loop)
        while frame is not None and frame.f_code.co_filename != generated:
            frame = frame.f_back
        if frame is None:
            break
        spaces.append(frame.f_locals)
    merged = {}
    for space in reversed(spaces):
        merged.update(space)
    return {k: v for k, v in merged.items()
            if k not in hidden and not isinstance(v, Undefined)}


def is_undefined(value):
    return isinstance(value, Undefined)


def is_return_slot(name):
    """True for the variable holding a function's return value (`retval_`).

    It may stay undefined on paths where `do_return` guards it, so staged
    control flow fills it with a dummy of the right dtype instead of failing.
    """
    return name.startswith("retval_")


# --- slots: attributes, items and shared names that staged code carries ------

_MISSING_ERRORS = (NameError, KeyError, AttributeError, IndexError)


def peek(read):
    """`read()`, or `Undefined` when what it reads does not exist (an absent
    key or attribute, an unbound name): the state of a slot before and after
    a staged statement."""
    try:
        return read()
    except _MISSING_ERRORS:
        return Undefined(None)


def put_item(container, key, value):
    """`container[key] = value`; an `Undefined` value removes the key. A
    container not bound yet (a slot of an object the statement creates)
    has no slot to restore."""
    if isinstance(container, Undefined):
        return
    if isinstance(value, Undefined):
        if _has_item(container, key):
            del container[key]
    else:
        container[key] = value


def put_attr(obj, attr, value):
    """`setattr(obj, attr, value)`; an `Undefined` value removes the attribute
    (nothing to do on an object not bound yet, as put_item)."""
    if isinstance(obj, Undefined):
        return
    if isinstance(value, Undefined):
        if hasattr(obj, attr):
            delattr(obj, attr)
    else:
        setattr(obj, attr, value)


def _has_item(container, key):
    try:
        container[key]
    except (KeyError, IndexError):
        return False
    return True


def aliased(obj, name):
    """True when a variable other than `name` of the converted code running
    the statement holds `obj` (`e = d`): replacing `name`'s container by a
    staged copy would lose what that alias sees."""
    f = sys._getframe(1)
    while f is not None and not f.f_code.co_filename.startswith("<autograph"):
        f = f.f_back
    if f is None:
        return False
    return any(value is obj and key != name for key, value in f.f_locals.items())


def dummy_like(backend, value):
    """A placeholder value of `value`'s structure (dicts too: `v = {...}`
    first set in a loop), the backend's dummy for each leaf."""
    if type(value) is dict:
        return {k: dummy_like(backend, v) for k, v in value.items()}
    if type(value) in (list, tuple):
        return type(value)(dummy_like(backend, v) for v in value)
    return backend.dummy_like(value)
