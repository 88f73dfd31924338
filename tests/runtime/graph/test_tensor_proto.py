"""`tf.make_tensor_proto` and `tf.make_ndarray` against TF 2.21's recorded
results (tests/data/tensor_proto_tf221.json, tools/record_tensor_proto.py):
TensorProto bytes (SerializeToString), text (str), and the array read back;
and both inside a tf.function."""

import json
import re

import numpy as np
import pytest

import runtime as tf
from tests.paths import DATA

with open(DATA / "tensor_proto_tf221.json") as f:
    CASES = json.load(f)


@pytest.mark.parametrize("case", CASES, ids=[c["expr"][21:-1] for c in CASES])
def test_make_tensor_proto_is_tfs(case):
    if "error" in case:
        error = {"TypeError": TypeError, "ValueError": ValueError}[case["error"]]
        with pytest.raises(error, match=re.escape(case["message"])):
            eval(case["expr"], {"tf": tf, "np": np})   # noqa: S307
        return
    proto = eval(case["expr"], {"tf": tf, "np": np})   # noqa: S307
    assert proto.SerializeToString().hex() == case["bytes"]
    assert str(proto) == case["text"]
    value = tf.make_ndarray(proto)
    assert value.dtype.name == case["dtype"]
    assert repr(value.tolist()) == case["value"]


def test_make_tensor_proto_in_tf_function():
    @tf.function
    def f(x):
        with pytest.raises(TypeError, match="Expected any non-tensor type"):   # TF's words
            tf.make_tensor_proto(x)
        return tf.constant(tf.make_ndarray(tf.make_tensor_proto([1, 2], shape=[4]))) + x

    assert f(tf.constant(1)).numpy().tolist() == [2, 3, 3, 3]     # TF 2.21: [2, 3, 3, 3]


def test_make_tensor_proto_passes_a_proto_and_reads_variables():
    proto = tf.make_tensor_proto([1., 2.])
    assert tf.make_tensor_proto(proto) is proto
    var = tf.Variable([[1, 2]], dtype=tf.int64)
    np.testing.assert_array_equal(tf.make_ndarray(tf.make_tensor_proto(var)), [[1, 2]])
    with pytest.raises(TypeError, match="expected a TensorProto, got list"):
        tf.make_ndarray([1])
