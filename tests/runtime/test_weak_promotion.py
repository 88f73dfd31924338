"""TF's auto dtype conversion (`dtype_conversion_mode='all'` and `'safe'`):
weak tensors and the promotion lattice, against TF 2.21's recorded results
(tests/data/weak_promotion.json, written by tools/record_weak_promotion.py):
every pair of operand kinds under `+`, eagerly and traced, and the
constructor and op cases of TF's type-promotion guide."""

import json
import pathlib

import numpy as np
import pytest

import runtime as tf
import runtime.experimental.numpy as tnp
from runtime._src.ops.np_config import disable_numpy_behavior
from runtime._src.ops.weak_tensor import WeakTensor

RECORD = json.loads((pathlib.Path(__file__).parent.parent / "data" /
                     "weak_promotion.json").read_text())
PY = {"int": 3, "float": 1.5, "complex": 2 + 1j, "bool": True}


@pytest.fixture(params=["all", "safe"])
def mode(request):
    tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=request.param)
    yield request.param
    disable_numpy_behavior()


def operand(kind):
    if kind.startswith("py_"):
        return PY[kind[3:]]
    if kind.startswith("weak_"):
        return tf.constant(PY[kind[5:]])
    return tf.constant(1 if kind != "bool" else True, dtype=kind)


def outcome(fn):
    """What TF's record says of a result: dtype and weakness, or the error type."""
    try:
        value = fn()
    except Exception as e:  # noqa: BLE001 - the exception type is compared
        return {"error": type(e).__name__}
    return {"dtype": value.dtype.name, "weak": isinstance(value, WeakTensor)}


def pairs(mode_name):
    return list(RECORD[mode_name].items())


def test_every_pair_promotes_as_tf(mode):
    wrong = {}
    for key, want in pairs(mode):
        a, b = key.split(",")
        got = outcome(lambda: operand(a) + operand(b))
        if got != want:
            wrong[key] = (want, got)
    assert not wrong
    assert len(pairs(mode)) == 425


def test_pairs_promote_the_same_when_traced(mode):
    kinds = ["int8", "uint8", "int64", "float16", "float64", "complex64", "weak_int",
             "weak_float", "weak_complex"]

    @tf.function
    def add(x, y):
        return x + y

    wrong = {}
    for a in kinds:
        for b in kinds + ["py_int", "py_float"]:
            want = RECORD[mode][f"{a},{b}"]
            got = outcome(lambda: add(operand(a), operand(b)))
            if got != want:
                wrong[(a, b)] = (want, got)
    assert not wrong


def test_constructors_and_ops_as_tf(mode):
    cases = {
        "constant_int": lambda: tf.constant(5),
        "constant_list": lambda: tf.constant([5.0, 10.0, 3]),
        "constant_np": lambda: tf.constant(np.int16(5)),
        "constant_typed": lambda: tf.constant(5, tf.int32),
        "constant_convert": lambda: tf.constant(tf.constant(10, tf.int16), tf.float32),
        "tnp_array_int": lambda: tnp.array(1),
        "tnp_array_float": lambda: tnp.array(1.0),
        "abs_list": lambda: tf.math.abs([100.0, 4.0]),
        "abs_weak": lambda: tf.math.abs(tf.constant(-3)),
        "neg_weak": lambda: -tf.constant(5),
        "sum_list": lambda: tf.reduce_sum([1, 2]),
        "reshape_weak": lambda: tf.reshape(tf.constant(5), [1]),
        "cast_weak": lambda: tf.cast(tf.constant(5), tf.float32),
        "getitem_weak": lambda: tf.constant([1, 2])[0],
        "zeros": lambda: tf.zeros([2]),
        "variable_plus_int": lambda: tf.Variable(1.0) + 1,
        "assign_add_int16": lambda: tf.Variable(10, dtype=tf.int32).assign_add(
            tf.constant(5, tf.int16)),
        "matmul_lists": lambda: tf.linalg.matmul([[1.0]], [[2.0]]),
        "add_np_int8": lambda: tf.add(np.array(1, np.int8), tf.constant(1)),
        "pow_weak": lambda: tf.pow(tf.constant(2), 3),
        "large_int": lambda: tf.constant(2 ** 40),
    }
    got = {name: outcome(fn) for name, fn in cases.items()}
    assert got == RECORD[mode + "_ops"]


def test_values_and_printing(mode):
    w = tf.constant([1, 2])
    assert repr(w) == "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], " \
                      "dtype=int32), weak=True>"
    assert str(w) == "tf.Tensor([1 2], shape=(2,), dtype=int32, weak=True)"
    assert tf.is_tensor(w) and not isinstance(w, tf.Tensor)
    # a weak int defers: the Python int wraps into int8 as in TF 2.21 (5 + 1000 is -19)
    out = tf.constant(5, tf.int8) + 1000
    assert out.dtype == tf.int8 and int(out) == -19
    half = tf.constant(1.2) + tf.constant(3.1, tf.float16)
    assert half.dtype == tf.float16 and half.numpy() == np.float16(1.2) + np.float16(3.1)
    quotient = w / 2                        # int32 / int32 divides to float64, still weak
    assert isinstance(quotient, WeakTensor)
    np.testing.assert_array_equal(quotient.numpy(), [0.5, 1.0])
    assert quotient.dtype == tf.float64


def test_safe_mode_names_the_refused_promotion():
    tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="safe")
    try:
        with pytest.raises(TypeError, match=r"In promotion mode PromoMode.SAFE, implicit dtype "
                           r"promotion between \(<dtype: 'int32'>, weak=False\) and "
                           r"\(<dtype: 'float32'>, weak=True\) is disallowed"):
            tf.constant(1, tf.int32) + 1.5
    finally:
        disable_numpy_behavior()


def test_weak_values_through_functions_and_tapes(mode):
    calls = []

    @tf.function
    def double(x):
        calls.append(1)
        return x * 2

    weak = double(tf.constant([1.5, 2.0]))
    assert isinstance(weak, WeakTensor) and weak.dtype == tf.float32
    strong = double(tf.constant([1.5, 2.0], tf.float32))
    assert not isinstance(strong, WeakTensor)
    assert len(calls) == 2                  # a weak and a strong argument trace apart
    double(tf.constant([4.0, 5.0]))
    assert len(calls) == 2
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x + 1
    assert float(tape.gradient(y, x)) == 6.0


def test_default_mode_is_untouched_after_disabling():
    tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
    disable_numpy_behavior()
    assert not isinstance(tf.constant(5), WeakTensor)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.constant(1, tf.int32) + tf.constant(1.0)
