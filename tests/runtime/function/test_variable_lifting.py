"""A Variable created on the first call of a traced function, whose initial
value depends on the arguments, as TensorFlow allows: the initializer is
lifted out of the graph and computed from the first call's values; later
calls read and write that Variable; creating one on a later trace is still
an error (tests/runtime/function/test_function_signatures.py)."""

import numpy as np
import pytest

import runtime as tf


class Scaled(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = None

    @tf.function
    def __call__(self, x):
        if self.v is None:
            self.v = tf.Variable(tf.ones_like(x) * 2.0)
        return self.v * x


class Accumulates(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = None

    @tf.function
    def __call__(self, x):
        if self.v is None:
            self.v = tf.Variable(x * 2.0)       # needs x's value, not only its shape
        self.v.assign_add(x)
        return self.v * x


def test_initializer_from_the_argument_shape():
    m = Scaled()
    np.testing.assert_array_equal(m(tf.constant([1.0, 2.0])).numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(m(tf.constant([3.0, 4.0])).numpy(), [6.0, 8.0])
    assert m.v.shape == tf.TensorShape([2]) and m.v.dtype == tf.float32
    np.testing.assert_array_equal(m.v.numpy(), [2.0, 2.0])
    assert m.__call__.experimental_get_tracing_count() == 1


def test_initializer_from_the_argument_value_is_the_first_calls():
    m = Accumulates()
    np.testing.assert_array_equal(m(tf.constant([1.0, 2.0])).numpy(), [3.0, 12.0])
    np.testing.assert_array_equal(m.v.numpy(), [3.0, 6.0])
    np.testing.assert_array_equal(m(tf.constant([5.0, 2.0])).numpy(), [40.0, 16.0])
    np.testing.assert_array_equal(m.v.numpy(), [8.0, 8.0])


def test_later_trace_reuses_the_variable():
    m = Scaled()
    assert m(tf.constant(1.0)).numpy() == 2.0           # a scalar Variable
    np.testing.assert_array_equal(m(tf.constant([3.0, 4.0, 5.0])).numpy(), [6.0, 8.0, 10.0])
    assert m.__call__.experimental_get_tracing_count() == 2
    assert m.v.shape == tf.TensorShape([])


def test_later_trace_runs_into_the_first_calls_shape():
    m = Scaled()
    m(tf.constant([1.0, 2.0]))
    with pytest.raises(ValueError, match="Incompatible shapes: \\[2\\] vs. \\[3\\]"):
        m(tf.constant([3.0, 4.0, 5.0]))


def test_input_signature_call_initializes_from_its_values():
    class WithSignature(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = None

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(x + 1.0)
            return self.v.read_value()

    m = WithSignature()
    np.testing.assert_array_equal(m(tf.constant([1.0, 2.0, 3.0])).numpy(), [2.0, 3.0, 4.0])
    assert m.v.shape == tf.TensorShape([None])


def test_concrete_function_from_a_fully_known_spec_lifts_a_shape_only_initializer():
    m = Scaled()
    cf = m.__call__.get_concrete_function(tf.TensorSpec([2], tf.float32))
    np.testing.assert_array_equal(m.v.numpy(), [2.0, 2.0])
    np.testing.assert_array_equal(cf(tf.constant([1.0, 2.0])).numpy(), [2.0, 4.0])


@pytest.mark.parametrize("module, spec", [(Scaled, [None]), (Accumulates, [2])])
def test_concrete_function_from_a_spec_cannot_know_the_value(module, spec):
    m = module()
    with pytest.raises(ValueError, match="the initial value of Variable 'Variable:0' depends "
                                         "on the value of the input 'x', which is not known "
                                         "when tracing from a TensorSpec"):
        m.__call__.get_concrete_function(tf.TensorSpec(spec, tf.float32))


def test_initializer_through_a_captured_tensor_in_a_branch():
    state = {}

    @tf.function
    def f(x, flag):
        if "v" not in state:
            state["v"] = tf.Variable(tf.cond(flag, lambda: x * 10, lambda: x))
        return state["v"] + 0

    assert f(tf.constant(2), tf.constant(True)).numpy() == 20
    assert f(tf.constant(5), tf.constant(False)).numpy() == 20


def test_dtype_argument_must_match_a_lifted_initializer():
    @tf.function
    def f(x):
        return tf.Variable(x, dtype=tf.float64).read_value()

    with pytest.raises(TypeError, match="initial value is a float32 tensor but dtype=float64"):
        f(tf.constant(1.0))


def test_initializer_from_a_loop_variable_cannot_be_lifted():
    @tf.function
    def f(n):
        i = 0
        while i < n:
            v = tf.Variable(i * 2)  # noqa: F841 - created, not used
            i += 1
        return i

    with pytest.raises(ValueError, match="depends on 'i', a value of a staged loop or branch, "
                                         "which cannot be lifted out of the function"):
        f(tf.constant(3))
