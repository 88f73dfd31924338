"""tf.register_tensor_conversion_function, as TensorFlow 2.21 behaves (its
messages recorded): conversions for a user's type in convert_to_tensor, ops
and tf.function; the requested dtype passed along and checked; priorities;
NotImplemented passing on; refused base types and functions."""

import pytest

import runtime as tf
from runtime._src.core import tensor_conversion


@pytest.fixture(autouse=True)
def _clean_registry():
    saved = list(tensor_conversion.REGISTRY)
    yield
    tensor_conversion.REGISTRY[:] = saved


class Point:
    def __init__(self, *v):
        self.v = list(v)


def test_a_registered_type_converts_in_ops_and_functions():
    calls = []

    def convert(value, dtype=None, name=None, as_ref=False):
        calls.append((dtype, as_ref))
        return tf.constant(value.v, dtype=dtype)
    tf.register_tensor_conversion_function(Point, convert)
    assert tf.convert_to_tensor(Point(1.0, 2.0)).numpy().tolist() == [1.0, 2.0]
    assert tf.add(Point(1.0, 2.0), 1.0).numpy().tolist() == [2.0, 3.0]
    assert tf.convert_to_tensor(Point(1, 2), dtype=tf.float32).dtype == tf.float32
    assert calls[0] == (None, False) and calls[-1] == (tf.float32, False)
    assert tf.function(lambda: tf.convert_to_tensor(Point(3.0)) * 2)().numpy().tolist() == [6.0]


def test_the_dtype_returned_is_checked_and_priorities_order():
    class Q:
        pass
    tf.register_tensor_conversion_function(Q, lambda v, dtype=None, name=None, as_ref=False:
                                           tf.constant([1, 2]))
    with pytest.raises(RuntimeError, match="returned incompatible dtype: requested = float32, "
                                           "actual = int32"):
        tf.convert_to_tensor(Q(), dtype=tf.float32)
    tf.register_tensor_conversion_function(Q, lambda v, dtype=None, name=None, as_ref=False:
                                           tf.constant([7]), priority=1)
    assert tf.convert_to_tensor(Q()).numpy().tolist() == [7]


def test_not_implemented_passes_and_bad_registrations_are_refused():
    class R:
        pass
    tf.register_tensor_conversion_function(R, lambda v, dtype=None, name=None, as_ref=False:
                                           NotImplemented)
    with pytest.raises(ValueError, match="with an unsupported type"):
        tf.convert_to_tensor(R())
    for t in (int, float):
        with pytest.raises(TypeError, match="Cannot register conversions for Python numeric"):
            tf.register_tensor_conversion_function(t, lambda *a, **k: None)
    with pytest.raises(TypeError, match="`conversion_func` must be callable. Received 3"):
        tf.register_tensor_conversion_function(Point, 3)
