"""Logical operators with Python's short-circuit semantics.

    and_(a, lambda: b)        # means: a and b
    or_(a, lambda: b)         # means: a or b
    not_(a)                   # means: not a
    if_exp(c, lambda: a, lambda: b)   # means: a if c else b

The right operand is a function, called only when Python would evaluate it.
When the deciding operand is a tensor, the operator is staged with the
backend's `cond`, so the right side still runs only when needed.
"""

from .. import source_map
from ..backend import backend_of
from .errors import mark, relocate
from .staged_if import stage_cond

__all__ = ["and_", "or_", "not_", "if_exp"]


def and_(a, *rest):
    """`a and b and ...`; each of `rest` is a function returning the next operand."""
    for right in rest:
        backend = backend_of(a)
        if backend is not None:
            a = _staged(backend, a, right, lambda a=a: a, "and")
        elif not a:
            return a
        else:
            a = right()
    return a


def or_(a, *rest):
    """`a or b or ...`; each of `rest` is a function returning the next operand."""
    for right in rest:
        backend = backend_of(a)
        if backend is not None:
            a = _staged(backend, a, lambda a=a: a, right, "or")
        elif a:
            return a
        else:
            a = right()
    return a


def _staged(backend, left, true_fn, false_fn, what):
    """`left and right` / `left or right` with `left` a tensor: a cond whose
    branches give `left` or the right operand (run only in its branch), as
    one tensor. A boolean `left` with a Python number on the right has no
    common dtype (`(n < 100) and 7` is True-or-7 in Python, a bool or an
    int32): refused, as TensorFlow's tf.cond refuses it, naming the line."""
    where = source_map.current_location()
    left_is_bool = getattr(getattr(left, "dtype", None), "is_bool", False) is True

    def branch(fn):
        def run():
            value = fn()
            if left_is_bool and isinstance(value, (int, float, complex)) \
                    and not isinstance(value, bool):
                error = TypeError(
                    f"'{what}' with a boolean tensor on the left and the Python number "
                    f"{value!r} on the right has no single dtype in a graph: it gives the "
                    f"bool tensor or {value!r} (TensorFlow's tf.cond refuses this too)"
                    f"{source_map.describe(where)}. Make both operands the same dtype "
                    f"(tf.cast), or use tf.where(cond, {value!r}, ...) or an if statement.")
                mark(error)
                raise error
            return (value,)
        return run

    try:
        return stage_cond(backend, left, branch(true_fn), branch(false_fn), (what,))[0]
    except (TypeError, ValueError) as e:
        relocate(e, where)
        raise


def not_(a):
    """`not a`."""
    backend = backend_of(a)
    if backend is not None:
        return backend.logical_not(a)
    return not a


def if_exp(cond, true_fn, false_fn):
    """`true_fn() if cond else false_fn()`."""
    backend = backend_of(cond)
    if backend is None:
        return true_fn() if cond else false_fn()
    where = source_map.current_location()
    try:
        return stage_cond(backend, cond, lambda: (true_fn(),), lambda: (false_fn(),),
                          ("<conditional expression>",))[0]
    except (TypeError, ValueError) as e:
        if type(e) in (TypeError, ValueError) and where and where[0] not in str(e):
            raise type(e)(f"{e}{source_map.describe(where)}") from None
        raise
