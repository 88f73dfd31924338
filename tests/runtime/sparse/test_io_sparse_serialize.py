"""tf.io.serialize_sparse, serialize_many_sparse and deserialize_many_sparse:
the bytes TensorFlow 2.21 writes (recorded by tools/record_data_extras.py),
eagerly and inside tf.function."""

import numpy as np
import pytest

import runtime as tf

# TF 2.21's recorded bytes
SERIALIZED = [b'\x08\t\x12\x08\x12\x02\x08\x02\x12\x02\x08\x02" \x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00', b'\x08\x01\x12\x04\x12\x02\x08\x02"\x08\x00\x00\xc0?\x00\x00\x00\xc0', b'\x08\t\x12\x04\x12\x02\x08\x02"\x10\x03\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00']
MANY = [[b'\x08\t\x12\x08\x12\x02\x08\x01\x12\x02\x08\x02"\x10\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00', b'\x08\x03\x12\x04\x12\x02\x08\x01"\x04\x01\x00\x00\x00', b'\x08\t\x12\x04\x12\x02\x08\x02"\x10\x03\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00'], [b'\x08\t\x12\x08\x12\x02\x08\x02\x12\x02\x08\x02" \x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00', b'\x08\x03\x12\x04\x12\x02\x08\x02"\x08\x02\x00\x00\x00\x03\x00\x00\x00', b'\x08\t\x12\x04\x12\x02\x08\x02"\x10\x03\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00']]
EMPTY = [b'\x08\t\x12\x06\x12\x00\x12\x02\x08\x01', b'\x08\x07\x12\x02\x12\x00', b'\x08\t\x12\x04\x12\x02\x08\x01"\x08\x05\x00\x00\x00\x00\x00\x00\x00']
STRINGS = [[b'\x08\t\x12\x08\x12\x02\x08\x01\x12\x02\x08\x01"\x08\x00\x00\x00\x00\x00\x00\x00\x00', b'\x08\x07\x12\x04\x12\x02\x08\x01"\x02\x01a', b'\x08\t\x12\x04\x12\x02\x08\x01"\x08\x02\x00\x00\x00\x00\x00\x00\x00'], [b'\x08\t\x12\x06\x12\x00\x12\x02\x08\x01', b'\x08\x07\x12\x02\x12\x00', b'\x08\t\x12\x04\x12\x02\x08\x01"\x08\x02\x00\x00\x00\x00\x00\x00\x00'], [b'\x08\t\x12\x08\x12\x02\x08\x01\x12\x02\x08\x01"\x08\x01\x00\x00\x00\x00\x00\x00\x00', b'\x08\x07\x12\x04\x12\x02\x08\x01"\x03\x02bc', b'\x08\t\x12\x04\x12\x02\x08\x01"\x08\x02\x00\x00\x00\x00\x00\x00\x00']]


def _st():
    return tf.sparse.SparseTensor([[0, 1], [2, 3]], [1.5, -2.], [3, 4])


def _batch():
    return tf.sparse.SparseTensor([[0, 0, 1], [1, 1, 0], [1, 2, 2]], [1, 2, 3], [2, 3, 4])


def _strings():
    return tf.sparse.SparseTensor([[0, 0], [2, 1]], ["a", "bc"], [3, 2])


def _empty():
    return tf.sparse.SparseTensor(tf.zeros([0, 1], tf.int64), tf.constant([], tf.string), [5])


CASES = [("serialize_sparse", _st, SERIALIZED), ("serialize_sparse", _empty, EMPTY),
         ("serialize_many_sparse", _batch, MANY), ("serialize_many_sparse", _strings, STRINGS)]


@pytest.mark.parametrize("name,make,expected", CASES)
def test_bytes_as_tf(name, make, expected):
    out = getattr(tf.io, name)(make())
    assert out.dtype == tf.string
    assert out.numpy().tolist() == expected
    traced = tf.function(lambda: getattr(tf.io, name)(make()))()
    assert traced.numpy().tolist() == expected


@pytest.mark.parametrize("make,dtype", [(_batch, tf.int32), (_strings, tf.string)])
def test_round_trip(make, dtype):
    st = make()
    back = tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(st), dtype)
    assert back.indices.numpy().tolist() == st.indices.numpy().tolist()
    assert back.values.numpy().tolist() == st.values.numpy().tolist()
    assert back.dense_shape.numpy().tolist() == st.dense_shape.numpy().tolist()
    assert back.values.dtype == dtype

    @tf.function
    def f(s):
        out = tf.io.deserialize_many_sparse(s, dtype, rank=st.shape.rank)
        return out.indices, out.dense_shape

    indices, shape = f(tf.constant(np.array(STRINGS if dtype == tf.string else MANY,
                                            dtype=object)))
    assert indices.numpy().tolist() == st.indices.numpy().tolist()
    assert shape.numpy().tolist() == st.dense_shape.numpy().tolist()


def test_deserialize_largest_shape_and_errors():
    rows = np.array([SERIALIZED, SERIALIZED], dtype=object)  # two [3, 4] float tensors
    back = tf.io.deserialize_many_sparse(rows, tf.float32)
    assert back.dense_shape.numpy().tolist() == [2, 3, 4]
    assert back.indices.numpy().tolist() == [[0, 0, 1], [0, 2, 3], [1, 0, 1], [1, 2, 3]]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Requested SparseTensor of type float but "
                             r"SparseTensor\[0\].values.dtype\(\) == int32"):
        tf.io.deserialize_many_sparse(MANY, tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Rank of input SparseTensor"):
        tf.io.serialize_many_sparse(tf.sparse.SparseTensor([[1]], [1], [3]))
    with pytest.raises(TypeError, match="must be a SparseTensor"):
        tf.io.serialize_sparse(tf.constant([1]))


def test_string_values_in_tensor_content():
    # TF 2.21: string values are written as tensor_content (lengths, then bytes),
    # which parse_tensor reads back
    s = tf.io.serialize_sparse(tf.sparse.SparseTensor([[0], [1]], ["ab", "c"], [2]))
    assert s[1].numpy() == b'\x08\x07\x12\x04\x12\x02\x08\x02"\x05\x02\x01abc'
    assert tf.io.parse_tensor(s[1], tf.string).numpy().tolist() == [b"ab", b"c"]


# --- tf.io.SparseFeature in parse_example / parse_single_example ----------------------

def _example(ix, val, iy=None):
    feature = {"ix": tf.train.Feature(int64_list=tf.train.Int64List(value=ix)),
               "val": tf.train.Feature(float_list=tf.train.FloatList(value=val))}
    if iy is not None:
        feature["iy"] = tf.train.Feature(int64_list=tf.train.Int64List(value=iy))
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


RECORDS = [_example([3, 1], [0.5, 1.5]), _example([], []), _example([4], [2.0])]

# TF 2.21's (indices, values, dense_shape)
SPARSE_FEATURE_CASES = [
    ("batch", RECORDS, tf.io.SparseFeature("ix", "val", tf.float32, 5),
     ([[0, 1], [0, 3], [2, 4]], [1.5, 0.5, 2.0], [3, 5])),
    ("single", RECORDS[0], tf.io.SparseFeature("ix", "val", tf.float32, 5),
     ([[1], [3]], [1.5, 0.5], [5])),
    ("sorted", RECORDS, tf.io.SparseFeature("ix", "val", tf.float32, 5, already_sorted=True),
     ([[0, 3], [0, 1], [2, 4]], [0.5, 1.5, 2.0], [3, 5])),
    ("2-d", [_example([0, 1], [1., 2.], [2, 0])],
     tf.io.SparseFeature(["ix", "iy"], "val", tf.float32, [2, 3]),
     ([[0, 0, 2], [0, 1, 0]], [1.0, 2.0], [1, 2, 3])),
]


@pytest.mark.parametrize("what,records,feature,expected", SPARSE_FEATURE_CASES)
def test_sparse_feature(what, records, feature, expected):
    features = {"sp": feature, "val": tf.io.VarLenFeature(tf.float32)}
    parse = tf.io.parse_single_example if what == "single" else tf.io.parse_example
    for run in (lambda: parse(records, features),
                tf.function(lambda: parse(tf.constant(records), features))):
        sp = run()["sp"]
        got = (sp.indices.numpy().tolist(), sp.values.numpy().tolist(),
               sp.dense_shape.numpy().tolist())
        assert got == expected and sp.values.dtype == tf.float32


def test_sparse_feature_repr_and_mismatch():
    feature = tf.io.SparseFeature("ix", "val", tf.float32, 5)
    assert repr(feature) == ("SparseFeature(index_key='ix', value_key='val', "
                             "dtype=tf.float32, size=5, already_sorted=False)")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="SparseFeature 'sp': example 0 has 1 values but"):
        tf.io.parse_example([_example([1, 2], [1.])], {"sp": feature})
