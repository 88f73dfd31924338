"""tf.RaggedTensor and tf.ragged against TensorFlow 2.21's recorded values
(tests/data/ragged_cases.json, written by tools/record_ragged.py): elementwise
ops and operators, reductions over every axis, indexing, array ops, tf.ragged's
functions and printing, eagerly and inside tf.function; gradients through
them with respect to the flat values."""

import json
import math

import numpy as np
import pytest

import runtime as tf
from tests.paths import DATA as TEST_DATA

_DATA = json.load(open(TEST_DATA / "ragged_cases.json"))
_NAMES = ("D", "F", "W", "R", "U")


def _env():
    env = {"tf": tf, "np": np}
    exec(_DATA["setup"], env)
    return env


_ENV = _env()


def _plain(x):
    if isinstance(x, list):
        return [_plain(v) for v in x]
    if isinstance(x, bytes):
        return {"b": x.decode("latin-1")}
    if isinstance(x, float) and math.isnan(x):
        return "nan"
    if isinstance(x, float) and math.isinf(x):
        return str(x)
    return x


def _encode(value):
    """The recorded form of a result (as tools/record_ragged.py writes it)."""
    if isinstance(value, str):
        return {"text": value}
    if isinstance(value, tf.RaggedTensor):
        return {"ragged": _plain(value.to_list()), "dtype": value.dtype.name,
                "shape": str(value.shape), "ragged_rank": value.ragged_rank}
    if isinstance(value, tf.SparseTensor):
        return {"sparse": [_plain(value.indices.numpy().tolist()),
                           _plain(value.values.numpy().tolist()),
                           _plain(value.dense_shape.numpy().tolist())],
                "dtype": value.dtype.name}
    if isinstance(value, (tuple, list)):
        return {"tuple": [_encode(v) for v in value]}
    t = tf.convert_to_tensor(value)
    return {"tensor": _plain(t.numpy().tolist()), "dtype": t.dtype.name,
            "shape": str(t.shape)}


def _close(got, want):
    """Equal, floats to float32 rounding."""
    if isinstance(want, dict) and isinstance(got, dict):
        return got.keys() == want.keys() and all(_close(got[k], want[k]) for k in want)
    if isinstance(want, list) and isinstance(got, list):
        return len(got) == len(want) and all(_close(g, w) for g, w in zip(got, want))
    if isinstance(want, float) and isinstance(got, float):
        return math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-6)
    return got == want


def _run(case, env):
    try:
        return _encode(eval(case, env))
    except Exception as e:  # noqa: BLE001 - compared with the error TF raised
        return {"error": type(e).__name__, "message": str(e)}


@pytest.mark.parametrize("case", sorted(_DATA["cases"]))
def test_eager_matches_tf(case):
    want = _DATA["cases"][case]
    got = _run(case, _ENV)
    if "error" in want:
        assert got.get("error") == want["error"], got
        return
    assert _close(got, want), f"{case}: got {got}, TF {want}"


_TRACED = sorted(c for c, v in _DATA["cases"].items()
                 if "text" not in v and "error" not in v and "tf.shape(" not in c)


@pytest.mark.parametrize("case", _TRACED)
def test_in_function_matches_tf(case):
    """The same case with D, F, W, R, U as arguments of a tf.function (symbolic
    there); static shapes may be less known than eagerly."""
    want = dict(_DATA["cases"][case])

    def body(*args):
        return eval(case, dict(_ENV, **dict(zip(_NAMES, args))))
    got = _encode(tf.function(body, autograph=False)(*[_ENV[n] for n in _NAMES]))
    want.pop("shape", None)
    got.pop("shape", None)
    assert _close(got, want), f"{case}: got {got}, TF {want}"


def _gradient(case, v):
    with tf.GradientTape() as tape:
        tape.watch(v)
        env = {"tf": tf, "v": v}
        exec(_DATA["grad_setup"], env)
        y = eval(case, env)
        total = tf.reduce_sum(y.flat_values if isinstance(y, tf.RaggedTensor) else y)
    return tf.convert_to_tensor(tape.gradient(total, v))


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("case", sorted(_DATA["gradients"]))
def test_gradient_matches_tf(case, traced):
    v = tf.constant([1.5, -2.0, 0.0, 3.25, 4.0, -1.0])
    run = tf.function(_gradient, autograph=False) if traced else _gradient
    grad = run(case, v).numpy()
    want = [float(w) if isinstance(w, str) else w for w in _DATA["gradients"][case]]  # "nan"
    np.testing.assert_allclose(grad, want, rtol=1e-5, atol=1e-6)


def test_printing_inside_function():
    """Inside a tf.function a RaggedTensor prints its component tensors (TF's text)."""
    seen = []

    @tf.function(autograph=False)
    def f(rt):
        seen.append(repr(rt))
        return rt

    f(_ENV["D"])
    assert seen[0].startswith("tf.RaggedTensor(values=Tensor(\"rt:0\", shape=(None,), "
                              "dtype=int32), row_splits=Tensor(")


def test_mismatched_rows_fail_as_tf_assert_equal_of_the_row_splits():
    # TF 2.21's words: its assert_equal of the two row splits (summarize=3)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^Condition x == y did not hold.\nIndices of first 3 different "
                             r"values:\n\[\[1\]\n \[2\]\n \[3\]\]\nCorresponding x values:"):
        _ENV["D"] + tf.ragged.constant([[1], [2], [3], [4], [5]])


def test_tf_print_of_ragged(capsys):
    """TF 2.21 prints `[[3, 1, 4, 1], [], [5, 9, 2], [6], []]` eagerly and in a
    function, and [['a', 'b'], []] for strings."""
    @tf.function(autograph=False)
    def f(rt, words):
        tf.print(rt, "|", words)
        return rt

    f(_ENV["D"], tf.ragged.constant([["a", "b"], []]))
    tf.print(_ENV["R"])
    assert capsys.readouterr().err == ("[[3, 1, 4, 1], [], [5, 9, 2], [6], []] | [['a', 'b'], []]\n"
                                       "[[[1, 2], [3]], [[4, 5, 6]], []]\n")
