"""Calls of functions that may need converting.

    ag__.call(helper, x, k=1)     # means: helper(x, k=1)

`helper` is converted first when it is user code (cached per code object);
builtins, classes and library functions run as they are. A user function
that cannot be converted runs as it is, with one warning naming it and why
(or an error in strict mode).
"""

__all__ = ["call"]


def call(fn, *args, **kwargs):
    from ..impl import api
    return api.converted_callable(fn, user_requested=False)(*args, **kwargs)
