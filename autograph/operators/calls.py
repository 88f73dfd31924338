"""Calls of functions that may need converting.

    ag__.call(helper, x, k=1)     # means: helper(x, k=1)

`helper` is converted first when it is user code (cached per code object);
builtins, classes and library functions run as they are. A user function
that cannot be converted runs as it is, with one warning naming it and why
(or an error in strict mode). A converted function that changes objects it
did not create, called while a staged statement is traced, reports each
change (see staging.object_writes).
"""

from . import staging

__all__ = ["call", "set_converter"]

_CONVERTER = []      # [converted_callable], filled in by autograph.impl.api


def set_converter(converted_callable):
    """Install the function that converts callees (`impl.api` does, on import:
    the operators sit below the conversion machinery and do not import it)."""
    _CONVERTER[:] = [converted_callable]


def call(fn, *args, **kwargs):
    converted = _CONVERTER[0](fn, user_requested=False)
    writes = getattr(converted, "__autograph_object_writes__", None)
    if writes is not None and staging.current() is not None:
        staging.object_writes(*writes)
    return converted(*args, **kwargs)
