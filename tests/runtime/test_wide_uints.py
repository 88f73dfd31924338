"""Arithmetic on uint16, uint32 and uint64 tensors, against TF 2.21's recorded
results (tests/data/wide_uints.json, tools/record_wide_uints.py): 0, 1, the
maximum and wrap-around, division by zero, and the ops TF refuses for them."""

import json
import pathlib

import numpy as np
import pytest

import runtime as tf

RECORD = json.loads((pathlib.Path(__file__).parent.parent / "data" /
                     "wide_uints.json").read_text())
BINARY = {"add", "subtract", "multiply", "floordiv", "floormod", "truediv", "maximum",
          "minimum", "truncatediv", "truncatemod", "divide_no_nan", "pow", "less",
          "less_equal", "greater", "greater_equal", "equal", "not_equal",
          "squared_difference"}
# TF 2.21 raises InternalError for an unsigned TruncateDiv by zero ("only integer
# div and mod should have errors"); here it is InvalidArgumentError, as FloorDiv's.
DIFFERENT_ERROR = {"truncatediv:uint16", "truncatediv:uint32", "truncatediv:uint64"}


def operands(key):
    name, dtype = key.split(":")
    top = np.iinfo(dtype).max
    x = np.array([0, 1, 7, top, 12, top], dtype)
    y = np.array([3, 0, 2, 2, 12, top], dtype)
    if name.endswith("_nonzero"):
        name, y = name[:-len("_nonzero")], np.where(y == 0, 5, y).astype(dtype)
    fn = getattr(tf.math, name, None) or getattr(tf, name)
    return fn, ((x, y) if name in BINARY else (x,))


def outcome(fn, args):
    try:
        value = np.asarray(fn(*args))
    except Exception as e:  # noqa: BLE001 - the exception type is compared
        return {"error": type(e).__name__}
    return {"dtype": value.dtype.name, "values": [str(v) for v in value.ravel().tolist()],
            "shape": list(value.shape)}


def test_every_case_eagerly_as_tf():
    wrong = {}
    for key, want in RECORD.items():
        fn, args = operands(key)
        got = outcome(fn, [tf.constant(a) for a in args])
        if key in DIFFERENT_ERROR:
            assert got == {"error": "InvalidArgumentError"} and want == {"error": "InternalError"}
        elif got != want:
            wrong[key] = (want, got)
    assert not wrong
    assert len(RECORD) == 153


@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64"])
@pytest.mark.parametrize("divisor", ["with_zero", "nonzero"])
def test_values_the_same_when_traced(dtype, divisor):
    keys = [k for k, want in RECORD.items() if k.endswith(dtype) and "error" not in want
            and ("_nonzero" in k) == (divisor == "nonzero")]
    ops = [operands(k) for k in keys]

    @tf.function
    def run(x, y):
        return [fn(x, y) if len(args) == 2 else fn(x) for fn, args in ops]

    x, y = ops[0][1][0], ops[[len(a) for _, a in ops].index(2)][1][1]
    for key, value in zip(keys, run(tf.constant(x), tf.constant(y))):
        assert [str(v) for v in np.asarray(value).ravel().tolist()] == RECORD[key]["values"], key
