"""`DType ==` as TensorFlow 2.21's: a dtype equals anything `tf.as_dtype`
turns into it (a name, a numpy dtype or type), and comparing with anything
else is False, never an error. The expected results are TF 2.21's, recorded
on the same expressions."""

import numpy as np
import pytest

import runtime as tf


@pytest.mark.parametrize("other,equal", [
    ("float32", True), (np.float32, True), (np.dtype("float32"), True), ("float", True),
    (tf.float32, True), ("int32", False), (tf.float64, False), ("bogus", False),
    (None, False), (3, False), (float, True)])
def test_float32_equality_is_tf_s(other, equal):
    assert (tf.float32 == other) is equal
    assert (tf.float32 != other) is (not equal)


def test_python_types_and_enum_numbers_and_hashing():
    # tf.as_dtype(int) raises in TF, so int32 == int is False; enum numbers convert.
    assert tf.int32.__ne__(int) and tf.bool.__eq__(bool) and tf.string == "string"
    assert tf.float32 == 1 and tf.int32 == 3 and tf.float32 != 3
    # TF's hash is not the name's: a dict keyed by dtypes is not found by name.
    assert {tf.float32: 1}.get("float32") is None
    assert {tf.float32: 1}[tf.as_dtype("float32")] == 1
    assert len({tf.float32, tf.as_dtype(np.float32), tf.float64}) == 2
