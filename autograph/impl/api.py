"""The public API: `to_code`, `to_graph` / `convert`, `do_not_convert`,
strict mode, and the converted-callable cache used by `ag__.call`.

    print(to_code(f))            # the generated source
    g = to_graph(f)              # a function running the converted code
    g(3) == f(3)                 # same results on Python values

`convert_source` converts a function given as text, without importing or
running its module (what the `autograph` command line uses):

    result = convert_source("def f(x):\\n    if x:\\n        x = -x\\n    return x\\n")
    result.text       # '@autograph.do_not_convert\\ndef f(x): ...'
    result.imports    # the import lines the text needs
"""

from __future__ import annotations

import contextlib
import enum
import functools
import linecache
import types
import warnings
import weakref
from typing import Callable, Iterable

from .. import source_map, tracebacks
from ..pyct import parser
from ..operators import calls, side_effects
from ..operators import options as operator_options
from ..pyct import inspect_utils
from . import conversion, source_conversion
from .checks import GENERATORS, ConversionError, UnsupportedLanguageElementError
from .source_conversion import SourceConversion

__all__ = ["to_code", "to_graph", "convert", "do_not_convert", "converted_callable",
           "convert_source", "SourceConversion", "set_strict", "is_strict",
           "ConversionError", "UnsupportedLanguageElementError", "AutoGraphWarning", "Feature",
           "optional_features"]


class AutoGraphWarning(UserWarning):
    """A function called from converted code runs unconverted."""


NO_SOURCE = ("its source code is not available (functions defined in the interactive "
             "interpreter, with `python -c` or with `exec` have none)")


class Feature(enum.Enum):
    """Optional conversion features (`tf.autograph.experimental.Feature`),
    accepted as `experimental_optional_features` of `to_graph` / `to_code`
    and `experimental_autograph_options` of `runtime.function`.

    The converter here always does what each one turns on in TensorFlow, so
    they change nothing: tensor `assert` statements become graph asserts
    (ASSERT_STATEMENTS), builtins such as `len`, `range` and `print` apply to
    tensors (BUILTIN_FUNCTIONS), lists appended to in tensor loops are
    staged (LISTS), `==` on tensors is elementwise (EQUALITY_OPERATORS), and
    side effects keep program order (AUTO_CONTROL_DEPS); NAME_SCOPES has no
    counterpart.
    """

    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"


def optional_features(value, argument="experimental_optional_features"):
    """`value` (None, a Feature, or a list or tuple of them) as a frozenset of
    Features; anything else is a TypeError naming `argument`."""
    if value is None:
        return frozenset()
    if isinstance(value, Feature):
        return frozenset((value,))
    if isinstance(value, (list, tuple, set, frozenset)) and all(
            isinstance(v, Feature) for v in value):
        return frozenset(value)
    raise TypeError(f"{argument}: expected a tf.autograph.experimental.Feature or a list or "
                    f"tuple of them, got {type(value).__name__} {value!r}")


_state = {"strict": False}
_WARNED = {}          # id(code object) -> {its files warned about}; dropped with the code
_FALLBACKS = weakref.WeakKeyDictionary()   # code object -> reason (for the report)
# A user function keeps its converted function in its own __dict__ under
# _CONVERTED, with a weak reference to itself (a decorator's functools.wraps
# copies the __dict__: the copy names another function and does not count).
# Held there, not in a table, the pair goes with the function: the converted
# function refers to the original (to_code, report) and to its globals, so a
# table's entry, even weakly keyed, would keep both alive for good.
_CONVERTED = "__autograph_conversion__"


def _cached_conversion(func):
    found = func.__dict__.get(_CONVERTED)
    return found[1] if found is not None and found[0]() is func else None


def _cache_conversion(func, converted):
    func.__dict__[_CONVERTED] = (weakref.ref(func), converted)


def set_strict(strict=True):
    """In strict mode, a called function that cannot be converted is an error
    instead of a warning."""
    _state["strict"] = bool(strict)


def is_strict():
    return _state["strict"]


def do_not_convert(func=None):
    """Mark `func` to run as written, never converted (usable as a decorator)."""
    if func is None:
        return do_not_convert
    try:
        setattr(func, inspect_utils.DO_NOT_CONVERT, True)
    except (AttributeError, TypeError):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)
        setattr(wrapper, inspect_utils.DO_NOT_CONVERT, True)
        return wrapper
    return func


def _plain_function(fn):
    if isinstance(fn, functools.partial):
        return _plain_function(fn.func)
    func, self = inspect_utils.unwrap_callable(fn)
    original = getattr(func, "__wrapped_original__", None)
    if original is not None:          # an already converted function
        converted, func = func, original()
        if original.cached and _cached_conversion(func) is None:
            _cache_conversion(func, converted)      # the original's copy: the same conversion
    if func is None and callable(fn) and not isinstance(fn, type):
        call = getattr(type(fn), "__call__", None)
        if isinstance(call, types.FunctionType):
            return call, fn
    return func, self


def to_code(fn: Callable, recursive: bool = True, line_comments: bool = False,
            standalone: bool = True,
            experimental_optional_features: Feature | Iterable[Feature] | None = None) -> str:
    """The source of the converted `fn`, as a string.

    `line_comments=True` ends each line that starts a user statement with
    `# file:line`. `standalone=True` starts with the import the code needs.
    `experimental_optional_features`: see `Feature` (checked; no effect).
    """
    optional_features(experimental_optional_features, "to_code: experimental_optional_features")
    func, _ = _plain_function(fn)
    if func is None:
        raise ConversionError(f"cannot convert {inspect_utils.describe(fn)}: it is not a "
                              "Python function (builtins and C functions have no source)")
    entry = _convert_or_raise(func, recursive)
    source = entry.source
    if line_comments:
        source = _with_comments(entry)
    return (conversion._HEADER if standalone else "") + source


def _with_comments(entry):
    lines = entry.source.splitlines()
    seen = set()
    for i, text in enumerate(lines):
        found = entry.line_map.get(i + 2)        # +1 for 1-based, +1 for the factory line
        if found is not None and found[1] not in seen and text.strip():
            seen.add(found[1])
            lines[i] = f"{text}  # {found[0].rsplit('/', 1)[-1]}:{found[1]}"
    return "\n".join(lines) + "\n"


def _convert_or_raise(func, recursive=True):
    try:
        if inspect_utils.source_changed(func, parser.get_source, parser.parse_ast):
            raise _source_changed_error(func)
        return conversion.convert_entity(func, recursive)
    except ConversionError:
        raise
    except parser.NoSourceError as e:
        if _source_unavailable(func):
            raise ConversionError(
                f"cannot convert {inspect_utils.describe(func)} ({_where(func)}): {NO_SOURCE}. "
                f"Define it in a .py file to convert it.", reason=NO_SOURCE) from None
        raise ConversionError(f"cannot convert {inspect_utils.describe(func)}: {e}",
                              reason=str(e)) from None
    except SyntaxError as e:
        raise ConversionError(f"cannot convert {inspect_utils.describe(func)}: {e}",
                              reason=str(e)) from None
    except RecursionError:
        raise ConversionError(f"cannot convert {inspect_utils.describe(func)}: its code is "
                              "nested too deeply", reason="nested too deeply") from None
    except Exception as e:  # a transpiler bug must not crash user code
        reason = f"the transpiler failed ({type(e).__name__}: {e})"
        raise ConversionError(f"cannot convert {inspect_utils.describe(func)}: {reason}",
                              reason=reason) from e


def _source_unavailable(func):
    """True when no text at all is known for `func`'s file (the interpreter's
    `<stdin>`, `python -c`, `exec`); IPython and Jupyter register their cells
    with linecache, so functions defined there have source."""
    code = func.__code__
    lines = linecache.getlines(code.co_filename, getattr(func, "__globals__", None))
    if not any(line.strip() for line in lines):
        return True
    name = code.co_filename
    if name.startswith("<") and name.endswith(">"):
        # Python 3.13 registers `python -c` text as "<string>", the name exec'd
        # code has too: the text is someone else's unless the def is there.
        first = code.co_firstlineno
        text = lines[first - 1].lstrip() if first <= len(lines) else ""
        return not (text.startswith(("def ", "async def ", "@")) or "lambda" in text)
    return False


def _where(func):
    return f"{func.__code__.co_filename}:{func.__code__.co_firstlineno}"


def _source_changed_error(func):
    code = func.__code__
    return ConversionError(
        f"cannot convert {inspect_utils.describe(func)} ({code.co_filename}:"
        f"{code.co_firstlineno}): its {inspect_utils.SOURCE_CHANGED}, so the source found "
        "is not the code that runs; re-import the module (importlib.reload) to convert it",
        reason=inspect_utils.SOURCE_CHANGED)


def converted_callable(fn, user_requested=True, recursive=True):
    """`fn` converted when it is user code, else `fn` itself.

    A user function that cannot be converted raises ConversionError when the
    user asked for it (or in strict mode); otherwise it runs unconverted,
    with one AutoGraphWarning naming it and the reason. A function without
    source (see `_source_unavailable`) runs unconverted even when the user
    asked for it, as in TensorFlow (strict mode still raises).
    """
    if isinstance(fn, functools.partial):
        inner = converted_callable(fn.func, user_requested, recursive)
        return fn if inner is fn.func else functools.partial(inner, *fn.args, **fn.keywords)
    func, bound = _plain_function(fn)
    if func is None or not inspect_utils.is_user_function(func):
        return fn
    converted = _cached_conversion(func) if recursive else None
    if converted is not None and is_strict() and func.__code__ in _FALLBACKS:
        converted = None             # ran unconverted before strict mode was set
    if converted is None:
        try:
            entry = _convert_or_raise(func, recursive)
        except ConversionError as e:
            if is_strict() or (user_requested and e.reason is not NO_SOURCE):
                raise
            _FALLBACKS[func.__code__] = e.reason
            if e.reason is NO_SOURCE:
                return _without_source(func, bound)
            _warn_once(func, f"autograph could not convert {inspect_utils.describe(func)}, "
                             f"so it runs unconverted: {e.reason}",
                       source_map.current_location() or ("<unknown>", 0, ""))
            return fn
        converted = _with_user_frames(entry.make_function(func))
        if entry.object_writes:
            converted.__autograph_object_writes__ = (
                func.__name__, func.__code__.co_filename, entry.object_writes)
        if recursive:
            _cache_conversion(func, converted)
            converted.__wrapped_original__.cached = True
    if bound is not None:
        return types.MethodType(converted, bound)
    return converted


def _warn_once(func, message, where):
    code = func.__code__
    # Keyed by identity: code objects compare by content, so a weak key could
    # be another module's equal code object, and vanish with it.
    warned = _WARNED.get(id(code))
    if warned is None:
        warned = _WARNED[id(code)] = set()
        weakref.finalize(code, _WARNED.pop, id(code), None)
    if code.co_filename not in warned:
        warned.add(code.co_filename)
        warnings.warn_explicit(message, AutoGraphWarning, where[0], where[1])


UNCONVERTED_MARK = "__autograph_unconverted__"


def _without_source(func, bound):
    """`func`, run as written because its source is not available: one warning,
    and errors passing through it carry UNCONVERTED_MARK, the explanation a
    tensor library gives in its "tensor used as a Python bool" error (the
    control flow that needed converting is in `fn`)."""
    name = inspect_utils.describe(func)
    _warn_once(func, f"autograph could not convert {name} ({_where(func)}), so it runs "
                     f"unconverted: {NO_SOURCE}. Its Python control flow stays Python: a tensor "
                     f"used in it as a Python bool is an error. Define {name} in a .py file to "
                     f"convert it, or decorate it with autograph.experimental.do_not_convert "
                     f"to silence this warning.",
               (func.__code__.co_filename, func.__code__.co_firstlineno))
    hint = (f"autograph ran {name} ({_where(func)}) unconverted because {NO_SOURCE}, so its "
            f"Python control flow was not converted. Define {name} in a .py file to convert "
            f"it, or use tf.cond / tf.while_loop instead of Python control flow on "
            f"tensors.")

    @functools.wraps(func)
    def unconverted(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except Exception as e:
            if not hasattr(e, UNCONVERTED_MARK):
                try:
                    setattr(e, UNCONVERTED_MARK, hint)
                except (AttributeError, TypeError):
                    pass
            raise
    setattr(unconverted, inspect_utils.DO_NOT_CONVERT, True)
    _cache_conversion(func, unconverted)
    if bound is not None:
        return types.MethodType(unconverted, bound)
    return unconverted


def _with_user_frames(fn):
    """Add a note naming the user's file, line and text to exceptions that
    pass through generated code."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 - re-raised with the user's line noted
            _note_user_location(e)
            raise tracebacks.filtered(e)
    run.__autograph_converted__ = True
    return run


def _note_user_location(error):
    if getattr(error, "__autograph_noted__", False):
        return
    tb, found = error.__traceback__, None
    while tb is not None:
        hit = source_map.lookup(tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        if hit is not None:
            found = hit
        tb = tb.tb_next
    if found is not None:
        try:
            error.add_note(f'  in user code: File "{found[0]}", line {found[1]}: {found[2]}')
            error.__autograph_noted__ = True
        except (AttributeError, TypeError):
            pass


def to_graph(fn: Callable, recursive: bool = True,
             experimental_optional_features: Feature | Iterable[Feature] | None = None
             ) -> Callable:
    """The converted `fn` (a function or bound method): same behaviour on
    Python values; staged control flow on tensors.
    `experimental_optional_features`: see `Feature` (BUILTIN_FUNCTIONS: a
    `print` of tensors prints their values when the graph runs)."""
    features = optional_features(experimental_optional_features,
                                 "to_graph: experimental_optional_features")
    converted = converted_callable(fn, user_requested=True, recursive=recursive)
    return _with_options(converted, features)


def convert(fn=None, options=None, *, recursive=True):
    """`to_graph`, also usable as a decorator: `@convert()` or `@convert`.

    `options` is what `function(experimental_autograph_options=...)` passes
    along: a dict (e.g. {"recursive": False}, {"strict_side_effects": True}:
    a Python side effect in a staged statement is an error while the
    converted function runs, see `set_strict_side_effects`), or Features
    (see `Feature`). A generator function runs unconverted with one
    AutoGraphWarning, as in TensorFlow (strict mode: the error).
    """
    strict_effects, features = False, frozenset()
    if isinstance(options, dict):
        unknown = sorted(set(options) - _OPTION_KEYS)
        if unknown:
            raise TypeError(f"experimental_autograph_options: unknown option(s) {unknown}; "
                            f"the dict accepts {sorted(_OPTION_KEYS)}")
        recursive = options.get("recursive", recursive)
        strict_effects = bool(options.get("strict_side_effects", False))
    else:
        features = optional_features(options, "experimental_autograph_options")

    def wrap(f):
        try:
            converted = converted_callable(f, user_requested=True, recursive=recursive)
        except UnsupportedLanguageElementError as e:
            if is_strict() or not e.reason.startswith(GENERATORS):
                raise
            func, _ = _plain_function(f)
            _warn_once(func, f"autograph could not convert {inspect_utils.describe(func)}, so "
                             f"it runs unconverted: {e.reason}",
                       (func.__code__.co_filename, func.__code__.co_firstlineno))
            return f
        return _with_options(converted, features, strict_effects)
    return wrap if fn is None else wrap(fn)


_OPTION_KEYS = frozenset(("recursive", "strict_side_effects"))


def _with_options(fn, features, strict_effects=False):
    """`fn`, run with the options that converted code consults while it runs
    (see operators/options.py and side_effects.strict)."""
    names = {"builtin_functions"} if features & {Feature.ALL, Feature.BUILTIN_FUNCTIONS} else set()
    if not names and not strict_effects:
        return fn

    @functools.wraps(fn)
    def run(*args, **kwargs):
        with contextlib.ExitStack() as stack:
            stack.enter_context(operator_options.using(names))
            if strict_effects:
                stack.enter_context(side_effects.strict())
            return fn(*args, **kwargs)
    return run


def convert_source(source, filename="<string>", first_line=1, *, module=None, method=False,
                   report=False):
    """Convert one function given as source text, without importing or running it.

    `source` is the text of one `def` (decorators are dropped, indentation is
    removed) that starts at `first_line` of `filename`; errors and the report
    use those. `module` is the whole module's text: names it imports from the
    standard library or the project resolve as `to_code` resolves them, and
    other names it binds are left to `ag__.call`. `method=True` for a def in a
    class body (zero-argument `super()` keeps working inside converted control
    flow).

    Returns a SourceConversion: `.text` is the converted def, decorated with
    `@autograph.do_not_convert` so it is never converted again; `.imports` the
    lines its module needs; `.report` the per-statement report when
    `report=True`. Raises ConversionError (with `.reason`) when the function
    cannot be converted.
    """
    try:
        return source_conversion.convert_function_source(source, filename, first_line,
                                                         module, method, report)
    except ConversionError:
        raise
    except SyntaxError as e:
        line = first_line + (e.lineno or 1) - 1
        raise ConversionError(f"{filename}:{line}: {e.msg}", reason=e.msg) from None
    except RecursionError:
        reason = f"its code is nested too deeply ({filename}:{first_line})"
        raise ConversionError(f"cannot convert: {reason}", reason=reason) from None
    except Exception as e:  # report a transpiler bug, do not crash the caller
        reason = f"the transpiler failed ({type(e).__name__}: {e}) ({filename}:{first_line})"
        raise ConversionError(f"cannot convert: {reason}", reason=reason) from e


calls.set_converter(converted_callable)     # ag__.call converts callees with it
