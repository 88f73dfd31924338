"""Three-way equivalence over the corpus in functions.py: the original on
Python values, the converted function on Python values (same results,
printed output and exception types), and `runtime.function` on tensors
(same values)."""

import contextlib
import copy
import io

import numpy as np
import pytest

import autograph
from tests.autograph.functions import CORPUS


def _ids():
    return [f"{fn.__name__}{args}" for fn, cases, _ in CORPUS for args in cases]


def _cases():
    return [(fn, args, tensor) for fn, cases, tensor in CORPUS for args in cases]


def _run(fn, args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            result = ("ok", fn(*copy.deepcopy(args)))
        except Exception as e:  # noqa: BLE001 - the type is what we compare
            result = ("raised", type(e))
    return result, out.getvalue()


def test_corpus_is_large_enough():
    assert len(_cases()) >= 150


@pytest.mark.parametrize("fn, args, tensor", _cases(), ids=_ids())
def test_converted_matches_original(fn, args, tensor):
    expected = _run(fn, args)
    converted = autograph.to_graph(fn)
    assert _run(converted, args) == expected


def _to_tensor(tf, value):
    if isinstance(value, bool):
        return tf.constant(value)
    if isinstance(value, list):
        return tf.constant(np.array(value, dtype=np.int32))
    return tf.constant(value)


@pytest.mark.parametrize("fn, args, tensor", [c for c in _cases() if c[2]],
                         ids=[i for i, c in zip(_ids(), _cases()) if c[2]])
def test_function_on_tensors_matches_original(fn, args, tensor):
    import runtime as tf
    (status, expected), _ = _run(fn, args)
    assert status == "ok"
    result = tf.function(fn)(*[_to_tensor(tf, a) for a in args])
    got = np.asarray(result.numpy() if hasattr(result, "numpy") else result)
    np.testing.assert_allclose(got, np.asarray(expected, dtype=got.dtype), rtol=1e-6)
