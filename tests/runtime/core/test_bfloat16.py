"""tf.bfloat16 against TensorFlow 2.21's values.

The table is tools/record_bfloat16.py's `cases` (written once for both
libraries), TF's results recorded in tests/data/bfloat16_tf221.npz: casts
with ties to even, overflow to inf, -0, NaN and float64's double rounding
through float32; elementwise math, matmul, conv2d, reductions (summed in
float32: 1000 ones sum to 1000) and softmax; each case runs eagerly and inside
tf.function, with the gradient of a weighted sum of its output. Every value
is bit for bit TF's. The rest: the dtype object, printing and Keras's bfloat16.
"""

import ml_dtypes
import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import load, results_fixture

table, DATA, NAMES = load("record_bfloat16")
results = results_fixture(table)


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")   # numpy's, at inf
@pytest.mark.parametrize("name", NAMES)
def test_bfloat16_values_and_gradients_are_tfs_bit_for_bit(results, name):
    got = results[name]
    keys = sorted((k for k in DATA.files if k.split("/")[0] == name),
                  key=lambda k: int(k.split("/")[1]))
    assert len(keys) == len(got)
    assert list(got[0]) == list(DATA[keys[0]]), "dtypes"
    for key in keys[1:]:
        want, value = DATA[key], got[int(key.split("/")[1])]
        assert value.shape == want.shape and value.dtype == want.dtype, (key, value.shape)
        np.testing.assert_array_equal(value, want, err_msg=key)


def test_the_dtype_is_tfs():
    b = tf.bfloat16
    assert tf.dtypes.bfloat16 is b and tf.as_dtype("bfloat16") is b and tf.as_dtype(14) is b
    assert tf.as_dtype(np.dtype(ml_dtypes.bfloat16)) is b and b == ml_dtypes.bfloat16
    assert (repr(b), str(b), b.as_numpy_dtype) == ("tf.bfloat16", "<dtype: 'bfloat16'>",
                                                   ml_dtypes.bfloat16)
    assert b.is_floating and not b.is_integer and b.is_numeric and b.real_dtype is b
    assert (float(b.min), float(b.max)) == (-3.3895313892515355e38, 3.3895313892515355e38)


@pytest.mark.parametrize("name, size, enum, numpy_compatible", [
    ("bfloat16", 2, 14, True), ("float32", 4, 1, True), ("string", 0, 7, True),
    ("bool", 1, 10, True), ("complex128", 16, 18, True), ("int8", 1, 6, True),
    ("variant", 0, 21, False)])
def test_dtype_size_enum_and_compatibility_are_tfs(name, size, enum, numpy_compatible):
    d = getattr(tf.dtypes, name)       # TF 2.21's values
    assert (d.size, d.as_datatype_enum, d.is_numpy_compatible) == (size, enum, numpy_compatible)
    assert d.base_dtype is d and not d.is_quantized
    assert d.is_compatible_with(name) and d.is_compatible_with(d)
    assert d.is_compatible_with("float32") == (name == "float32")
    with pytest.raises(TypeError, match="nope"):
        d.is_compatible_with("nope")


def test_bfloat16_tensors_print_as_tfs():
    t = tf.constant([1.5, 2.3, -0.0, 3.0e38], tf.bfloat16)
    assert repr(t) == ("<tf.Tensor: shape=(4,), dtype=bfloat16, numpy=array([1.5, 2.29688, "
                       "-0, 3.00406e+38], dtype=bfloat16)>")
    assert str(t) == "tf.Tensor([1.5 2.29688 -0 3.00406e+38], shape=(4,), dtype=bfloat16)"
    assert repr(t[0]) == "<tf.Tensor: shape=(), dtype=bfloat16, numpy=1.5>"
    assert t.numpy().dtype == ml_dtypes.bfloat16


def test_mixing_bfloat16_with_float32_is_refused_as_in_tf():
    with pytest.raises(tf.errors.InvalidArgumentError, match="bfloat16 tensor and a float32"):
        tf.constant(1.0, tf.bfloat16) + tf.constant(1.0)


def test_bfloat16_tensor_protos_are_tfs():
    # TF 2.21's bytes: serialize_tensor, a GraphDef's Const values (half_val holds
    # a scalar's 16 bits, tensor_content an array's), make_tensor_proto/make_ndarray.
    t = tf.constant([1.5, 2.0], tf.bfloat16)
    assert tf.io.serialize_tensor(t).numpy() == b'\x08\x0e\x12\x04\x12\x02\x08\x02"\x04\xc0?\x00@'
    assert tf.io.serialize_tensor(tf.constant(-2.5, tf.bfloat16)).numpy() == \
        b'\x08\x0e\x12\x00"\x02 \xc0'
    back = tf.io.parse_tensor(b'\x08\x0e\x12\x04\x12\x02\x08\x02"\x04\xc0?\x00@', tf.bfloat16)
    assert back.dtype == tf.bfloat16 and back.numpy().tolist() == [1.5, 2.0]
    proto = tf.make_tensor_proto(t)
    assert (proto.dtype, bytes(proto.tensor_content)) == (14, b"\xc0?\x00@")
    assert tf.make_ndarray(proto).tolist() == [1.5, 2.0]
    assert tf.make_ndarray(proto).dtype == ml_dtypes.bfloat16
    f = tf.function(lambda x: x * tf.constant(2.5, tf.bfloat16) + tf.constant([1.5, -2.0],
                                                                               tf.bfloat16))
    graph = f.get_concrete_function(tf.TensorSpec([2], tf.bfloat16)).graph.as_graph_def()
    consts = [n.attr["value"].tensor for n in graph.node if n.op == "Const"]
    assert [list(c.half_val) for c in consts] == [[16416], []]
    assert bytes(consts[1].tensor_content) == b"\xc0?\x00\xc0"
