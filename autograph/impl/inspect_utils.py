"""Deciding what is user code.

User functions are converted; builtins, classes, and functions of libraries
(the standard library, installed packages, numpy, runtime, autograph itself)
are called as they are.

    is_user_function(my_helper)    # True
    is_user_function(np.sum)       # False
"""

import builtins
import os
import sys
import sysconfig
import types

_LIBRARY_ROOTS = ("numpy", "runtime", "autograph", "gast", "pytest", "_pytest")
_STDLIB = os.path.realpath(sysconfig.get_paths()["stdlib"]) + os.sep

DO_NOT_CONVERT = "__autograph_do_not_convert__"


def is_library_module(name):
    """True for modules of the standard library, installed packages, and the
    project's own packages."""
    if not name:
        return False
    root = name.split(".")[0]
    if root in _LIBRARY_ROOTS or root in sys.builtin_module_names:
        return True
    filename = getattr(sys.modules.get(name), "__file__", None)
    if filename is None:
        return False          # __main__ in a REPL, exec'd code: user code
    real = os.path.realpath(filename)
    if "site-packages" in real or "dist-packages" in real:
        return True
    return real.startswith(_STDLIB)


def unwrap_callable(fn):
    """The plain function behind a bound method (and the bound self), or None."""
    if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType):
        return fn.__func__, fn.__self__
    if isinstance(fn, types.FunctionType):
        return fn, None
    return None, None


def is_user_function(fn):
    """True when `fn` (a function or bound method) should be converted."""
    if getattr(fn, DO_NOT_CONVERT, False):
        return False
    func, _ = unwrap_callable(fn)
    if func is None or getattr(func, DO_NOT_CONVERT, False):
        return False
    if func.__code__.co_filename.startswith("<autograph"):
        return False          # already converted
    return not is_library_module(func.__module__)


def is_builtin(fn):
    return isinstance(fn, (types.BuiltinFunctionType, types.BuiltinMethodType)) or \
        (getattr(builtins, getattr(fn, "__name__", ""), None) is fn)


def describe(fn):
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)


__all__ = ["is_user_function", "is_library_module", "unwrap_callable", "is_builtin",
           "describe", "DO_NOT_CONVERT"]
