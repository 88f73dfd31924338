"""`tf.types.experimental.TraceType`, `AtomicFunction` and printed function types.
Objects whose class gives a TraceType share
a trace when their TraceTypes are equal (TF 2.21's function guide: Apple/Mango
objects without one trace on every call; with one, the second call reuses the
first trace; the sum is [4 6])."""

import pytest

import runtime as tf


class FruitTraceType(tf.types.experimental.TraceType):
    def __init__(self, fruit):
        self.fruit_type = type(fruit)
        self.fruit_value = fruit

    def is_subtype_of(self, other):
        return type(other) is FruitTraceType and self.fruit_type is other.fruit_type

    def most_specific_common_supertype(self, others):
        return self if all(self == other for other in others) else None

    def placeholder_value(self, placeholder_context=None):
        return self.fruit_value

    def __eq__(self, other):
        return type(other) is FruitTraceType and self.fruit_type == other.fruit_type

    def __hash__(self):
        return hash(self.fruit_type)


class Apple:
    flavor = tf.constant([1, 2])


class Mango:
    flavor = tf.constant([3, 4])


class AppleWithTraceType(Apple):
    def __tf_tracing_type__(self, context):
        return FruitTraceType(self)


class MangoWithTraceType(Mango):
    def __tf_tracing_type__(self, context):
        return FruitTraceType(self)


def _counting():
    traces = []

    @tf.function
    def mixed(a, b):
        traces.append(1)
        return a.flavor + b.flavor
    return mixed, traces


def test_objects_without_a_trace_type_trace_each_call():
    mixed, traces = _counting()
    mixed(Apple(), Mango())
    mixed(Apple(), Mango())
    assert len(traces) == 2


def test_equal_trace_types_share_a_trace():
    mixed, traces = _counting()
    assert mixed(AppleWithTraceType(), MangoWithTraceType()).numpy().tolist() == [4, 6]
    assert mixed(AppleWithTraceType(), MangoWithTraceType()).numpy().tolist() == [4, 6]
    assert len(traces) == 1
    mixed(MangoWithTraceType(), AppleWithTraceType())
    assert len(traces) == 2
    assert isinstance(AppleWithTraceType(), tf.types.experimental.SupportsTracingProtocol)


def test_trace_type_is_abstract():
    with pytest.raises(TypeError):
        tf.types.experimental.TraceType()


def test_inference_fn_runs_the_trace_on_flat_inputs():
    # TF 2.21 function guide: double_strings.inference_fn(tf.constant("a"))
    # is <tf.Tensor: shape=(), dtype=string, numpy=b'aa'>
    double = tf.function(lambda a: a + a)
    atomic = double.get_concrete_function(tf.constant("a")).inference_fn
    assert isinstance(atomic, tf.types.experimental.AtomicFunction)
    assert repr(atomic(tf.constant("a"))) == "<tf.Tensor: shape=(), dtype=string, numpy=b'aa'>"
    with pytest.raises(TypeError, match="expected 1 input tensors, got 2"):
        atomic(tf.constant("a"), tf.constant("b"))


def test_a_named_tensor_spec_keeps_its_name_in_the_printed_signature():
    # TF 2.21: name='keras_tensor' (keras.io's export guide), name=None for tensors
    f = tf.function(lambda x: x * 2, input_signature=[
        tf.TensorSpec((None, 5), tf.float32, name="keras_tensor")])
    assert f.get_concrete_function().pretty_printed_signature().splitlines()[1] == (
        "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(None, 5), dtype=tf.float32, "
        "name='keras_tensor')")
    g = tf.function(lambda x: x * 3)
    assert g.get_concrete_function(tf.TensorSpec([2], tf.float32, name="inp")) \
        .pretty_printed_signature().splitlines()[1].endswith("name='inp')")
    assert g.get_concrete_function(tf.constant([1.0, 2.0, 3.0])) \
        .pretty_printed_signature().splitlines()[1].endswith("dtype=tf.float32, name=None)")
