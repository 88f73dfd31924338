"""`function` on methods binds like a Python bound method: methods of
temporary instances, the instance kept alive by its bound method and
collected with its traces once dropped, separate traces per instance, an
input_signature on a method, a call through the class."""

import gc
import weakref


import runtime as tf


class Counter:
    def __init__(self, k=1):
        self.k = k
        self.traces = 0

    @tf.function
    def f(self, x):
        self.traces += 1
        return x + self.k


def test_method_on_a_temporary_instance():
    assert Counter().f(tf.constant(3)).numpy() == 4
    assert Counter(10).f(tf.constant(3)).numpy() == 13
    assert Counter.f._bound == {}


def test_bound_method_keeps_its_instance_alive_like_a_python_method():
    obj = Counter(5)
    method = obj.f
    ref = weakref.ref(obj)
    del obj
    gc.collect()
    assert ref() is not None
    assert method(tf.constant(1)).numpy() == 6
    del method
    gc.collect()
    assert ref() is None
    assert Counter.f._bound == {}


def test_dropped_instance_is_collected_with_its_traces():
    obj = Counter(2)
    assert obj.f(tf.constant(1)).numpy() == 3
    concrete = obj.f.get_concrete_function(tf.constant(1))
    ref, concrete_ref = weakref.ref(obj), weakref.ref(concrete)
    del obj, concrete
    gc.collect()
    assert ref() is None
    assert concrete_ref() is None
    assert Counter.f._bound == {}


def test_traces_survive_dropping_the_bound_method():
    obj = Counter(1)
    for i in range(3):
        assert obj.f(tf.constant(i)).numpy() == i + 1
    assert obj.traces == 1
    assert obj.f.experimental_get_tracing_count() == 1
    assert obj.f is obj.f
    assert obj.f.python_function.__self__ is obj
    assert isinstance(obj.f, tf.Function)


def test_two_instances_have_separate_traces():
    a, b = Counter(1), Counter(100)
    assert a.f(tf.constant(1)).numpy() == 2
    assert b.f(tf.constant(1)).numpy() == 101
    assert a.f(tf.constant(2)).numpy() == 3
    assert (a.traces, b.traces) == (1, 1)
    assert a.f is not b.f
    assert a.f.experimental_get_tracing_count() == 1
    assert b.f.experimental_get_tracing_count() == 1


def test_method_with_input_signature_on_a_temporary_instance():
    class Scale:
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def f(self, x):
            return x * 2.0
    assert Scale().f(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    assert Scale.f(Scale(), tf.constant([3.0])).numpy().tolist() == [6.0]


def test_method_called_through_the_class_with_an_instance():
    obj = Counter(4)
    assert Counter.f(obj, tf.constant(1)).numpy() == 5
