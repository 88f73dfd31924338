"""`tf.strings.unicode_script` against TF 2.21's recorded answers
(tests/data/unicode_script_tf221.json, written by tools/record_unicode_script.py):
run edges, random code points, invalid ones, shapes, ragged input, inside
`tf.function`, and TF's errors for other dtypes."""

import json
import os

import numpy as np
import pytest

import runtime as tf

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data", "unicode_script_tf221.json")


@pytest.fixture(scope="module")
def recorded():
    with open(DATA) as f:
        return json.load(f)


def test_recorded_points_eagerly_and_traced(recorded):
    points = tf.constant(recorded["points"], tf.int32)
    assert tf.strings.unicode_script(points).numpy().tolist() == recorded["codes"]
    traced = tf.function(tf.strings.unicode_script)
    assert traced(points).numpy().tolist() == recorded["codes"]


def test_known_scripts_and_invalid_points():
    # ICU's UScriptCode: Common 0, Inherited 1, Arabic 2, Cyrillic 8, Han 17, Latin 25,
    # Unknown 103; USCRIPT_INVALID_CODE -1 outside 0..0x10FFFF
    got = tf.strings.unicode_script([0x30, 0x300, 0x627, 0x410, 0x4E00, 0x41, 0x10FFFF,
                                     -1, 0x110000])
    assert got.dtype == tf.int32
    assert got.numpy().tolist() == [0, 1, 2, 8, 17, 25, 103, -1, -1]


def test_shapes_scalar_empty_and_variables():
    assert tf.strings.unicode_script(65).numpy() == 25
    empty = tf.strings.unicode_script(tf.zeros([0, 3], tf.int32))
    assert empty.shape == (0, 3) and empty.dtype == tf.int32
    grid = tf.strings.unicode_script(np.array([[65, 0x627], [0x4E00, 32]], np.int32))
    assert grid.numpy().tolist() == [[25, 2], [17, 0]]
    assert tf.strings.unicode_script(tf.Variable([0x410])).numpy().tolist() == [8]


def test_ragged_keeps_its_rows(recorded):
    got = tf.strings.unicode_script(tf.ragged.constant([[65, 0x4E00], [], [0x627]]))
    assert isinstance(got, tf.RaggedTensor)
    assert got.to_list() == recorded["ragged"]


def test_other_dtypes_are_tfs_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"cannot compute UnicodeScript "
                       r"as input #0\(zero-based\) was expected to be a int32 tensor but is a "
                       r"int64 tensor \[Op:UnicodeScript\]"):
        tf.strings.unicode_script(tf.constant([65], tf.int64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="but is a float tensor"):
        tf.strings.unicode_script(tf.constant([65.0]))
    with pytest.raises(TypeError, match=r"Cannot convert \[1.5\]"):
        tf.strings.unicode_script([1.5])
    traced = tf.function(lambda x: tf.strings.unicode_script(x))
    with pytest.raises(TypeError, match="Input 'input' of 'UnicodeScript' Op has type int64 "
                       "that does not match expected type of int32."):
        traced(tf.constant([65], tf.int64))


def test_no_gradient():
    x = tf.constant([65, 0x627])
    with pytest.warns(UserWarning, match="must be floating"):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.strings.unicode_script(x)
        assert tape.gradient(y, x) is None
