"""A Model subclass called as `Sub(inputs, outputs)` gets a functional form
(Sub with Functional beneath it, as Keras 3 builds one): made once per class,
it keeps the subclass's methods and name, and it is kept on the class, so a
class the user drops is freed with its models (no table of the runtime holds
it)."""

import gc
import weakref

import numpy as np

import runtime as tf

keras = tf.keras


def _make_class():
    class Doubler(keras.Model):
        def twice(self, x):
            return 2 * self(x)

    return Doubler


def _functional(cls):
    inputs = keras.Input((2,))
    return cls(inputs, keras.layers.Dense(1, kernel_initializer="ones")(inputs))


def test_the_functional_form_is_made_once_and_keeps_the_methods():
    cls = _make_class()
    first, second = _functional(cls), _functional(cls)
    assert type(first) is type(second)
    assert isinstance(first, cls) and type(first).__name__ == "Doubler"
    assert isinstance(first, keras.Model) and type(first) is not cls
    np.testing.assert_allclose(first.twice(np.array([[1.0, 2.0]], np.float32)).numpy(),
                               [[6.0]])


def test_a_dropped_subclass_and_its_models_are_freed():
    cls = _make_class()
    model = _functional(cls)
    model(np.zeros((1, 2), np.float32))
    gone = weakref.ref(cls)
    del cls, model
    gc.collect()
    assert gone() is None
