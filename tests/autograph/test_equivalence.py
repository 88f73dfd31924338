"""The corpus's tensor programs (`tensor=True`, tests/autograph/corpus/) under
`runtime.function` on tensors give the values the original gives on Python
values. (Converted code on Python values is checked for every program,
tensor ones included, by test_python_corpus.py.)"""

import contextlib
import copy
import io

import numpy as np
import pytest

from tests.autograph.corpus import tensor_cases


def _cases():
    return [pytest.param(fn, args, id=f"{fn.__name__}{args}")
            for fn, inputs, *_ in tensor_cases() for args in inputs]


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


def _to_tensor(tf, value):
    if isinstance(value, bool):
        return tf.constant(value)
    if isinstance(value, list):
        return tf.constant(np.array(value, dtype=np.int32))
    return tf.constant(value)


@pytest.mark.parametrize("fn, args", _cases())
def test_function_on_tensors_matches_original(fn, args):
    import runtime as tf
    (status, expected), _ = _run(fn, args)
    assert status == "ok"
    result = tf.function(fn)(*[_to_tensor(tf, a) for a in args])
    got = np.asarray(result.numpy() if hasattr(result, "numpy") else result)
    np.testing.assert_allclose(got, np.asarray(expected, dtype=got.dtype), rtol=1e-6)
