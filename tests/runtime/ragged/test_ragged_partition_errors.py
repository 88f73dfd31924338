"""Elementwise ops of ragged operands whose rows do not line up fail in TF
2.21's words (its assert_equal of the row splits); TF 2.21's recorded texts."""

import pytest

import runtime as tf

_DENSE_VS_RAGGED = ("Condition x == y did not hold.\nIndices of first 3 different values:\n"
                    "[[1]\n [2]\n [3]]\nCorresponding x values:\n[ 4  8 12]\n"
                    "Corresponding y values:\n[2 6 7]\nFirst 3 elements of x:\n[0 4 8]\n"
                    "First 3 elements of y:\n[0 2 6]")
_NROWS = ("Condition x == y did not hold.\nFirst 1 elements of x:\n[False]\n"
          "First 1 elements of y:\n[ True]")
_R = tf.ragged.constant


def _dense3x4():
    return tf.constant([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])


CASES = [
    ("ragged + dense", lambda: _R([[1, 2], [3, 4, 5, 6], [7]]) + _dense3x4(), _DENSE_VS_RAGGED),
    ("dense + ragged", lambda: _dense3x4() + _R([[1, 2], [3, 4, 5, 6], [7]]), _DENSE_VS_RAGGED),
    ("ragged + ragged", lambda: _R([[1, 2, 3], [4], [5, 6]]) + _R([[10, 20], [30, 40], [50]]),
     "Condition x == y did not hold.\nIndices of first 2 different values:\n[[1]\n [3]]\n"
     "Corresponding x values:\n[3 6]\nCorresponding y values:\n[2 5]\n"
     "First 3 elements of x:\n[0 3 4]\nFirst 3 elements of y:\n[0 2 4]"),
    ("inner partitions", lambda: _R([[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10]]])
     + _R([[[1, 2, 0], [3, 4, 0], [5, 6, 0]], [[7, 8, 0], [9, 10, 0]]]),
     "Condition x == y did not hold.\nIndices of first 3 different values:\n[[1]\n [2]\n [3]]\n"
     "Corresponding x values:\n[2 4 6]\nCorresponding y values:\n[3 6 9]\n"
     "First 3 elements of x:\n[0 2 4]\nFirst 3 elements of y:\n[0 3 6]"),
    ("broadcast row", lambda: _R([[1, 2], [3, 4, 5]]) + tf.constant([[1, 2, 3]]),
     "Condition x == y did not hold.\nIndices of first 2 different values:\n[[1]\n [2]]\n"
     "Corresponding x values:\n[3 6]\nCorresponding y values:\n[2 5]\n"
     "First 3 elements of x:\n[0 3 6]\nFirst 3 elements of y:\n[0 2 5]"),
    ("row counts", lambda: _R([[1, 2, 3], [4]]) + _R([[1], [2], [3]]), _NROWS),
    ("dense row count", lambda: _R([[1, 2], [3, 4]]) - tf.constant([[1, 2], [3, 4], [5, 6]]),
     _NROWS),
    ("one dense row", lambda: _R([[1, 2], [3, 4]]) + tf.constant([[1, 2]]),
     "Last row partition does not match flat_values.\nCondition x == y did not hold.\n"
     "First 1 elements of x:\n[2]\nFirst 1 elements of y:\n[4]"),
]


@pytest.mark.parametrize("case, fn, text", CASES, ids=[c[0] for c in CASES])
def test_mismatched_rows_fail_as_tf(case, fn, text):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        fn()
    assert str(info.value) == text


def test_dense_rows_matching_a_uniform_ragged_tensor_add():
    got = _R([[1, 2], [3, 4]]) + tf.constant([[1, 2], [3, 4]])
    assert got.to_list() == [[2, 4], [6, 8]]          # TF: <tf.RaggedTensor [[2, 4], [6, 8]]>
