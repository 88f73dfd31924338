"""tf.experimental.dlpack against TensorFlow 2.21's behaviour (recorded with
tensorflow-cpu 2.21: the reprs and messages below are TF's): round trips of
every DLPack dtype including bfloat16, capsules consumed once, memory shared
with numpy, eager tensors as DLPack producers, and JAX both ways."""

import numpy as np
import pytest

import runtime as tf
from runtime.experimental import dlpack

DTYPES = ["bool", "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
          "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


@pytest.mark.parametrize("name", DTYPES)
def test_round_trip_keeps_dtype_and_values(name):
    dtype = tf.as_dtype(name)
    t = tf.cast(tf.constant([[0, 1, 2], [3, 4, 5]]), dtype)
    back = dlpack.from_dlpack(dlpack.to_dlpack(t))
    assert back.dtype == dtype and back.shape == (2, 3)
    assert np.array_equal(np.asarray(back), np.asarray(t))


def test_printed_as_tf_prints_it():
    t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert str(dlpack.from_dlpack(dlpack.to_dlpack(t))) == str(t)
    assert str(dlpack.from_dlpack(dlpack.to_dlpack(tf.constant(3.0)))) == \
        "tf.Tensor(3.0, shape=(), dtype=float32)"
    assert str(dlpack.from_dlpack(dlpack.to_dlpack(tf.zeros([0, 3])))) == \
        "tf.Tensor([], shape=(0, 3), dtype=float32)"
    assert repr(dlpack.to_dlpack(t)).startswith('<capsule object "dltensor"')


def test_a_capsule_is_consumed_once():
    capsule = dlpack.to_dlpack(tf.constant([1.0]))
    dlpack.from_dlpack(capsule)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match='name "dltensor", got "used_dltensor". Note that a DLPack '
                             'tensor may be consumed at most once'):
        dlpack.from_dlpack(capsule)


def test_to_dlpack_takes_only_tensors():
    for value in (np.zeros(2), tf.Variable([1.0])):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="The argument to `to_dlpack` must be a TF tensor, not "
                                 "Python object"):
            dlpack.to_dlpack(value)
    with pytest.raises(TypeError, match="PyCapsule"):
        dlpack.from_dlpack(np.zeros(2))


def test_memory_is_shared_with_numpy_both_ways():
    v = np.zeros(3, np.float32)
    t = dlpack.from_dlpack(v.__dlpack__())
    v[0] = 5
    assert str(t) == "tf.Tensor([5. 0. 0.], shape=(3,), dtype=float32)"     # TF 2.21's
    t2 = tf.constant([[1, 2], [3, 4]])
    assert np.from_dlpack(t2).tolist() == [[1, 2], [3, 4]]
    assert t2.__dlpack_device__() == (1, 0)


def test_strings_have_no_dlpack_type():
    with pytest.raises(tf.errors.InvalidArgumentError, match="string tensor cannot be "
                                                             "exchanged through DLPack"):
        dlpack.to_dlpack(tf.constant(["a"]))


def test_jax_both_ways_including_bfloat16():
    jnp = pytest.importorskip("jax.numpy", reason="the jax extra is not installed")
    x = tf.constant([1.5, -2.25, 3.0], tf.bfloat16)
    assert jnp.from_dlpack(tf.constant([1.0, 2.0])).tolist() == [1.0, 2.0]
    assert jnp.from_dlpack(x).dtype == jnp.bfloat16
    assert np.asarray(jnp.from_dlpack(x), np.float32).tolist() == [1.5, -2.25, 3.0]
    j = jnp.array([1.5, 2.0], jnp.bfloat16)
    back = dlpack.from_dlpack(j.__dlpack__())
    assert back.dtype == tf.bfloat16 and np.asarray(back, np.float32).tolist() == [1.5, 2.0]
