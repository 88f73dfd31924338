"""The autograph corpus's constructs (tests/autograph/corpus/constructs.py) on
the JAX backend:
`jax.jit(autograph.to_graph(f))` on JAX arrays agrees with `f` on Python
values (same values, or the same exception type), for every function JAX
can stage. Those it cannot are listed below with the error users get.

The cases expected to stage run as one XLA program, each function's jit
called inside it (one compile costs more than all their runs: about 7 CPU-s
for 290 cases, where a compile each took 14); should that program fail,
each case runs alone and shows its own error."""

import contextlib
import copy
import io
import re

import pytest

jax = pytest.importorskip("jax", reason="JAX is not installed (pip install -e '.[jax]')")
jnp = pytest.importorskip("jax.numpy")

import autograph
from tests.autograph.corpus import cases_of, constructs
from tests.jax_backend.jax_helpers import assert_same_values, to_jax

_LOOP_LIST = r"'{}' is appended to in a loop whose trip count is only known when the function runs"
_EFFECT = r"changes Python state .* inside a tensor (if statement|for loop)"
_NOT_JAX = r"is a Python str, which is not a JAX type"

# name -> (exception type, message pattern): what a user gets from jax.jit
# of the converted function on array inputs, where plain Python succeeds or
# raises otherwise. Most are what the runtime backend refuses too.
CANNOT_STAGE = {
    "if_return_none_path": (ValueError, r"returns a value in the if branch of a tensor if "
                                        r"statement but no value \(None\) in the else branch"),
    "return_bare": (ValueError, r"returns a value in the else branch .* no value \(None\)"),
    "if_undefined_read": (ValueError, r"'y' must also be initialized in the else branch"),
    "attribute_created_in_branch": (ValueError, r"'box.extra' must also be initialized in the else"),
    "if_on_list": (TypeError, r"'items' must have the same nested structure in the main and "
                              r"else branches"),
    "if_string_values": (TypeError, r"'s' in the true branch " + _NOT_JAX),
    "string_building": (TypeError, r"'s' is a Python str before the loop, which is not a JAX "
                                   r"type"),
    "or_default_list": (TypeError, r"the truth value of an array of shape \(\d+,\) is "
                                   r"ambiguous"),
    "list_index_and_slice": (TypeError, r"the truth value of an array of shape \(\d+,\) is "
                                        r"ambiguous"),
    "append_in_loop": (ValueError, _LOOP_LIST.format("out") + r".*Preallocate"),
    "list_append_while": (ValueError, _LOOP_LIST.format("out") + r".*static bound.*"
                                      r"\(.*constructs.py:\d+: while i < n:\)"),
    "list_append_nested": (ValueError, _LOOP_LIST.format("row")),
    "list_filter": (ValueError, r"'out.append\(x\)' .*" + _EFFECT),
    "list_alias_kept": (ValueError, r"'a.append\(i\)' .*" + _EFFECT),
    "dict_accumulate": (ValueError, r"'d\[i\] = i \* i' .*" + _EFFECT),
    "set_accumulate": (ValueError, r"'seen.add\(i % 2\)' .*" + _EFFECT),
    "assert_positive": (TypeError, r"assert on a traced JAX value: x must be positive .*"
                                   r"checkify"),
    "assert_no_message": (TypeError, r"assert on a traced JAX value: Assertion failed"),
    "comprehension_in_branch": (TypeError, r"a range\(\) whose bound is a traced JAX value can "
                                           r"only be iterated by a for statement"),
    "star_args": (TypeError, r"a range\(\) whose bound is a traced JAX value"),
    # Python control flow the converter leaves to Python, on a traced value:
    # JAX's own errors, as in any jax.jit function.
    "builtin_sum_sorted": (jax.errors.TracerBoolConversionError, r"boolean conversion"),
    "sorted_with_key": (jax.errors.TracerBoolConversionError, r"boolean conversion"),
    "raise_in_loop": (KeyError, r"Tracer"),
    "recursive_helper": (RecursionError, r"maximum recursion depth"),
    # A raise in one branch of a staged if runs while tracing, whatever the
    # condition: the function raises on every input.
    "raises_value_error": (ValueError, r"negative"),
}
# Integer division by zero gives a value in XLA, where Python raises.
DIFFERENT_VALUE = {"raises_zero_division"}


def _cases():
    return [pytest.param(fn, args, id=f"{fn.__name__}{args}")
            for fn, cases, *_ in cases_of(constructs) for args in cases]


def _python(fn, args):
    try:
        return "ok", fn(*copy.deepcopy(args))
    except Exception as e:  # noqa: BLE001 - the type is what we compare
        return "raised", type(e)


_JITTED = {}
_BATCH = []     # [{(function, repr(args)): value}] once the batch has run


def _jitted(fn):
    if fn not in _JITTED:
        _JITTED[fn] = jax.jit(autograph.to_graph(fn))
    return _JITTED[fn]


def _batched(fn, args):
    """The value of `_jitted(fn)(*args)` from the one program of every case
    expected to stage, or None where it has none."""
    if not _BATCH:
        _BATCH.append(_run_batch())
    return _BATCH[0].get((fn, repr(args)))


def _run_batch():
    staged = [(fn, args) for fn, args in (p.values for p in _cases())
              if fn.__name__ not in CANNOT_STAGE and fn.__name__ not in DIFFERENT_VALUE
              and _python(fn, args)[0] == "ok"]
    jitted = [_jitted(fn) for fn, _ in staged]
    inputs = [[to_jax(jnp, a) for a in args] for _, args in staged]
    try:
        outs = jax.jit(lambda xs: [f(*x) for f, x in zip(jitted, xs)])(inputs)
    except Exception:  # noqa: BLE001 - each case then runs alone and shows its own error
        return {}
    return {(fn, repr(args)): ("ok", out) for (fn, args), out in zip(staged, outs)}


@pytest.fixture(autouse=True)
def _strict_side_effects():
    """The corpus checks exactness: Python side effects in staged statements
    are refused (autograph's strict side effects), not run while tracing."""
    autograph.set_strict_side_effects(True)
    yield
    autograph.set_strict_side_effects(False)


def test_listed_names_exist():
    names = {case.fn.__name__ for case in cases_of(constructs)}
    assert set(CANNOT_STAGE) | DIFFERENT_VALUE <= names


@pytest.mark.parametrize("fn, args", _cases())
def test_jit_of_converted_matches_python(fn, args):
    with contextlib.redirect_stdout(io.StringIO()):
        expected = _python(fn, args)
        run = lambda: _jitted(fn)(*[to_jax(jnp, a) for a in args])
        if fn.__name__ in CANNOT_STAGE:
            kind, pattern = CANNOT_STAGE[fn.__name__]
            try:
                got = run()
            except kind as e:
                assert re.search(pattern, str(e)), str(e)
                return
            # some inputs of a listed function do stage: then they agree
            assert expected[0] == "ok", (expected, got)
            assert_same_values(jax, got, expected[1])
            return
        if expected[0] == "raised" and fn.__name__ not in DIFFERENT_VALUE:
            with pytest.raises(expected[1]):
                run()
            return
        if fn.__name__ in DIFFERENT_VALUE:
            run()
            return
        got = (_batched(fn, args) or ("ok", run()))[1]
    assert_same_values(jax, got, expected[1])
