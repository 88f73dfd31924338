"""What TF 2.21 shows of a Variable and what its updates return (recorded from
TF 2.21's guides: basics, autodiff, tf_numpy_type_promotion)."""

import runtime as tf
import runtime.keras as keras


def test_eager_assign_results_print_as_tf_unread_variable():
    v = tf.Variable([1.0, 2.0, 3.0])
    r = v.assign_add([1.0, 1.0, 1.0])
    want = ("<tf.Variable 'UnreadVariable' shape=(3,) dtype=float32, "
            "numpy=array([2., 3., 4.], dtype=float32)>")
    assert repr(r) == want and str(r) == want
    assert repr(tf.Variable(1).assign(15)) == \
        "<tf.Variable 'UnreadVariable' shape=() dtype=int32, numpy=15>"
    assert repr(v.assign_sub([2.0, 2.0, 2.0])).endswith("numpy=array([0., 1., 2.], dtype=float32)>")
    assert str(r + 1) == "tf.Tensor([3. 4. 5.], shape=(3,), dtype=float32)"   # a tensor in use


def test_gradient_through_an_assign_result_reaches_the_variable():
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        r = x.assign_add(1.0)
        y = r * r
    assert float(tape.gradient(y, x)) == 6.0


def test_keras_variable_assign_results_are_tensors():
    # Keras 3 on TF: <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 3.], ...)>
    v = keras.Variable([1.0, 2.0])
    assert repr(v.assign_add([1.0, 1.0])) == \
        "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 3.], dtype=float32)>"


def test_tf_variable_makes_a_resource_variable():
    v = tf.Variable(2.0)
    assert type(v).__name__ == "ResourceVariable" and isinstance(v, tf.Variable)
    assert tf.Variable.__name__ == "Variable"


def test_tf_version_is_the_followed_tensorflow_version():
    assert tf.__version__ == "2.21.0"
