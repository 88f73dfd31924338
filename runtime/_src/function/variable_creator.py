"""`tf.variable_creator_scope`: creators that intercept `tf.Variable(...)`.

    def creator(next_creator, **kwargs):
        kwargs["trainable"] = False
        return next_creator(**kwargs)

    with tf.variable_creator_scope(creator):
        v = tf.Variable(1.0)          # v.trainable is False

Each creator gets all of `tf.Variable`'s arguments by name (the 13 of
TF 2.21, with TF's defaults: synchronization AUTO, aggregation NONE) and the next creator: the innermost scope's runs
first, the outermost's `next_creator` makes the variable. What a creator
returns is what `tf.Variable(...)` returns. Only `tf.Variable` itself goes
through the creators (not its subclasses), as in TF. The stack is per thread.
"""

import contextlib
import functools
import inspect
import threading

__all__ = ["variable_creator_scope", "VariableMeta"]

_local = threading.local()


def _stack():
    if not hasattr(_local, "creators"):
        _local.creators = []
    return _local.creators


@contextlib.contextmanager
def variable_creator_scope(variable_creator):
    """`tf.variable_creator_scope`: `variable_creator(next_creator, **kwargs)`
    makes (or wraps, or replaces) each `tf.Variable` created in the block."""
    if not callable(variable_creator):
        raise TypeError(f"variable_creator_scope: variable_creator must be callable, "
                        f"got {type(variable_creator).__name__}")
    stack = _stack()
    stack.append(variable_creator)
    try:
        yield
    finally:
        stack.pop()


class VariableMeta(type):
    """The metaclass of `tf.Variable`: a call of the class itself passes through
    the creators of the enclosing `variable_creator_scope`s."""

    def __call__(cls, *args, **kwargs):
        made = cls.__dict__.get("_MAKES", cls)      # tf.Variable(...): a ResourceVariable
        stack = _stack()
        if not stack or cls.__dict__.get("_THROUGH_CREATORS") is not True:
            return type.__call__(made, *args, **kwargs)
        bound = _signature(cls).bind(None, *args, **kwargs)
        given = set(bound.arguments)
        bound.apply_defaults()
        arguments = dict(list(bound.arguments.items())[1:])
        arguments.update({k: v for k, v in cls._CREATOR_DEFAULTS.items() if k not in given})

        def make(**kw):
            return type.__call__(made, **kw)

        creator = make
        for outer in list(stack):                # the innermost runs first
            creator = functools.partial(outer, creator)
        return creator(**arguments)


@functools.lru_cache(maxsize=None)
def _signature(cls):
    return inspect.signature(cls.__init__)
