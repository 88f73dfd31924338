"""The equivalence corpus (tests/autograph/corpus, its tensor cases)
under `tf.function(jit_compile=True)`: XLA's values equal the executor's.

The corpus's functions are compiled together, as one XLA program (one
compile costs more than all their runs), which then runs each function's
cases in turn; the functions whose cases have arguments of several shapes
get one entry per shape. Functions the compiled path refuses are listed with
the op it names.
"""

import contextlib
import io
import warnings

import numpy as np
import pytest

pytest.importorskip("jax")

import runtime as tf  # noqa: E402
from runtime._src.jit.program import JitCompileWarning  # noqa: E402
from tests.autograph.corpus import tensor_cases  # noqa: E402

# function -> the op its warning names (its cases run on the executor)
REFUSED = {"walrus_in_branch": "Assert"}


def _entries():
    """[(function, [cases])]: the corpus's tensor cases, one entry per
    function and argument shapes."""
    entries = {}
    for fn, cases, *_ in tensor_cases():
        if fn.__name__ in REFUSED:
            continue
        for args in cases:
            shapes = tuple(np.shape(a) for a in args)
            entries.setdefault((fn, shapes), []).append(args)
    return [(fn, cases) for (fn, _), cases in entries.items()]


def _feeds(args):
    return [tf.constant(np.array(a, np.int32) if isinstance(a, list) else a) for a in args]


def _plain(result):
    return [np.asarray(v.numpy() if hasattr(v, "numpy") else v)
            for v in tf.nest.flatten(result)]


def _run_all(entries):
    sizes = [len(cases[0]) for _, cases in entries]

    def run_all(*tensors):
        outs, k = [], 0
        for (fn, _), n in zip(entries, sizes):
            outs.append(fn(*tensors[k:k + n]))
            k += n
        return outs
    return run_all


def test_the_corpus_compiled_equals_the_executor():
    entries = _entries()
    run_all = _run_all(entries)
    compiled, executor = tf.function(run_all, jit_compile=True), tf.function(run_all)
    rounds = max(len(cases) for _, cases in entries)
    for r in range(rounds):
        feeds = [t for _, cases in entries for t in _feeds(cases[min(r, len(cases) - 1)])]
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("error", JitCompileWarning)
            want, got = executor(*feeds), compiled(*feeds)
        for (fn, cases), a, b in zip(entries, want, got):
            case = f"{fn.__name__}{cases[min(r, len(cases) - 1)]}"
            for x, y in zip(_plain(a), _plain(b), strict=True):
                assert (y.dtype, y.shape) == (x.dtype, x.shape), case
                np.testing.assert_allclose(y, x, rtol=1e-6, err_msg=case)
    assert compiled.experimental_get_tracing_count() == 1       # one XLA program


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_the_refused_functions_warn_naming_the_op(name):
    fn, cases = next((fn, cases) for fn, cases, *_ in tensor_cases() if fn.__name__ == name)
    with contextlib.redirect_stdout(io.StringIO()):
        with pytest.warns(JitCompileWarning, match=rf"{REFUSED[name]} at \S+constructs.py:\d+"):
            got = tf.function(fn, jit_compile=True)(*_feeds(cases[0]))
        want = tf.function(fn)(*_feeds(cases[0]))
    for x, y in zip(_plain(want), _plain(got), strict=True):
        np.testing.assert_array_equal(y, x)
