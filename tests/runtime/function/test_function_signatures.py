"""`function`: input_signature, reduce_retracing, ConcreteFunction, retrace
explanations and warnings, Variables, and methods bound per instance."""

import gc
import warnings
import weakref

import numpy as np
import pytest

import runtime as tf
from runtime._src.function.function import InputSignatureMismatchError, RetracingWarning

from tests.runtime.seed_programs import counter_function


# --- input_signature ------------------------------------------------------------

def make_specific():
    @tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
    def specific(x):
        return x * 2.0
    return specific


def test_input_signature_traces_one_graph_for_any_length():
    f = make_specific()
    np.testing.assert_array_equal(f(tf.constant([1.0, 2.0, 3.0])).numpy(), [2, 4, 6])
    np.testing.assert_array_equal(f(tf.constant([4.0, 5.0])).numpy(), [8, 10])
    assert f.experimental_get_tracing_count() == 1
    cf = f.get_concrete_function()
    assert cf.inputs[0].shape.as_list() == [None]


def test_input_signature_converts_python_values():
    f = make_specific()
    out = f([1, 2])
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), [2.0, 4.0])
    assert f.experimental_get_tracing_count() == 1


MISMATCHES = [
    ("dtype", lambda: tf.constant([1, 2]),
     r"argument 'x' does not match the signature: expected a float32 tensor of shape "
     r"\(None,\), got an int32 tensor of shape \(2,\)"),
    ("rank", lambda: tf.constant(1.0),
     r"argument 'x' .*expected a float32 tensor of shape \(None,\), got a float32 "
     r"tensor of shape \(\)"),
    ("python value", lambda: "text", r"argument 'x' .*got str 'text'"),
]


@pytest.mark.parametrize("make_arg,message", [m[1:] for m in MISMATCHES],
                         ids=[m[0] for m in MISMATCHES])
def test_input_signature_mismatch_is_type_and_value_error(make_arg, message):
    f = make_specific()
    for cls in (TypeError, ValueError, InputSignatureMismatchError):
        with pytest.raises(cls, match=message):
            f(make_arg())


def test_input_signature_rejects_kwargs_functions_at_decoration():
    with pytest.raises(ValueError, match=r"cannot use input_signature with a function "
                                         r"that takes \*\*kwargs"):
        @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
        def f(x, **kwargs):
            return x


BAD_SIGNATURES = [
    ("not a list", tf.TensorSpec([], tf.int32), TypeError, "must be a list or tuple"),
    ("not specs", [3], TypeError, "only TensorSpec objects"),
    ("too many", [tf.TensorSpec([]), tf.TensorSpec([])], TypeError,
     "input_signature has 2 entries"),
]


@pytest.mark.parametrize("signature,error,message", [b[1:] for b in BAD_SIGNATURES],
                         ids=[b[0] for b in BAD_SIGNATURES])
def test_bad_input_signatures(signature, error, message):
    with pytest.raises(error, match=message):
        tf.function(lambda x: x, input_signature=signature)


def test_input_signature_with_nested_and_unknown_rank_specs():
    @tf.function(input_signature=[(tf.TensorSpec(None, tf.int32),
                                   tf.TensorSpec([2], tf.int32))])
    def f(pair):
        a, b = pair
        return tf.reduce_sum(a) + tf.reduce_sum(b)

    assert f((tf.constant([[1, 2], [3, 4]]), tf.constant([5, 6]))).numpy() == 21
    assert f((tf.constant(1), [1, 1])).numpy() == 3
    with pytest.raises(TypeError, match=r"argument 'pair\[1\]'"):
        f((tf.constant(1), tf.constant([1, 1, 1])))
    assert f.experimental_get_tracing_count() == 1


# --- reduce_retracing ------------------------------------------------------------

@pytest.mark.parametrize("options", [{"reduce_retracing": True},
                                     {"experimental_relax_shapes": True}])
def test_reduce_retracing_relaxes_changing_dims(options):
    @tf.function(**options)
    def f(x):
        return tf.reduce_sum(x)

    for n in range(1, 6):
        assert f(tf.ones([n, 3])).numpy() == 3 * n
    assert f.experimental_get_tracing_count() == 2
    shapes = [c.inputs[0].shape.dims for c in f._list_all_concrete_functions()]
    assert shapes == [(1, 3), (None, 3)]


def test_without_reduce_retracing_each_shape_traces():
    f = tf.function(lambda x: tf.reduce_sum(x))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RetracingWarning)
        for n in range(1, 5):
            f(tf.ones([n]))
    assert f.experimental_get_tracing_count() == 4


# --- ConcreteFunction ------------------------------------------------------------

def test_get_concrete_function_from_spec_serves_compatible_calls():
    @tf.function
    def f(x, scale=2):
        return x * scale

    cf = f.get_concrete_function(tf.TensorSpec([None], tf.int32))
    np.testing.assert_array_equal(f(tf.constant([1, 2, 3])).numpy(), [2, 4, 6])
    np.testing.assert_array_equal(cf(tf.constant([4])).numpy(), [8])
    assert f.experimental_get_tracing_count() == 1
    assert cf.name == "f"
    assert [t.name for t in cf.inputs] == ["x:0"]
    assert cf.outputs[0].dtype == tf.int32
    args, kwargs = cf.structured_input_signature
    assert args == (tf.TensorSpec([None], tf.int32, "x"), 2) and kwargs == {}
    assert cf.structured_outputs.shape.as_list() == [None]
    assert cf.graph.get_operations()[0].op == "Placeholder"


def test_concrete_function_checks_its_signature():
    @tf.function
    def poly(a):
        return a

    cf = poly.get_concrete_function(tf.constant(3))
    assert cf(tf.constant(5)).numpy() == 5
    assert cf(a=tf.constant(6)).numpy() == 6
    assert cf(7).numpy() == 7      # Python values convert to the traced dtype
    with pytest.raises(TypeError, match=r"argument 'a' .*expected an int32 tensor of shape "
                                        r"\(\), got a float32 tensor"):
        cf(tf.constant(7.4))


def test_concrete_function_python_arguments_must_match_the_trace():
    f = tf.function(lambda x, n: x * n)
    cf = f.get_concrete_function(tf.TensorSpec([], tf.int32), 3)
    assert cf(tf.constant(2), 3).numpy() == 6
    assert cf(tf.constant(2)).numpy() == 6    # traced Python values may be left out
    with pytest.raises(TypeError, match=r"argument 'n' .*the Python value 3 it was "
                                        r"traced with, got int 4"):
        cf(tf.constant(2), 4)


def test_pretty_printed_concrete_signatures():
    @tf.function
    def my_relu(x):
        return tf.maximum(0., x)

    my_relu(tf.constant(5.5))
    my_relu([1, -1])
    my_relu(tf.constant([3., -3.]))
    assert my_relu.pretty_printed_concrete_signatures() == """\
Input Parameters:
  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=tf.float32, name=None)
Output Type:
  TensorSpec(shape=(), dtype=tf.float32, name=None)
Captures:
  None

Input Parameters:
  x (POSITIONAL_OR_KEYWORD): List[Literal[1], Literal[-1]]
Output Type:
  TensorSpec(shape=(2,), dtype=tf.float32, name=None)
Captures:
  None

Input Parameters:
  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2,), dtype=tf.float32, name=None)
Output Type:
  TensorSpec(shape=(2,), dtype=tf.float32, name=None)
Captures:
  None"""


# --- retracing explained ---------------------------------------------------------

class Config:
    pass


EXPLANATIONS = [
    ("dtype", (tf.constant(1),), (tf.constant(1.0),), "argument 'x': dtype int32 -> float32"),
    ("shape", (tf.constant([1]),), (tf.constant([1, 2]),), "argument 'x': shape (1,) -> (2,)"),
    ("value", (2,), (3,), "argument 'x': value 2 -> 3 (Python values key traces by value)"),
    ("kind", (tf.constant(1),), (5,), "argument 'x': int32 tensor of shape () -> Python int 5"),
    ("object", (Config(),), (Config(),), "a different Config object"),
    ("structure", ([1],), ([1, 2],), "argument 'x': list of 1 elements -> list of 2 elements"),
]


@pytest.mark.parametrize("first,second,expected", [e[1:] for e in EXPLANATIONS],
                         ids=[e[0] for e in EXPLANATIONS])
def test_explain_retracing(first, second, expected):
    f = tf.function(lambda x: 0)
    assert f.experimental_explain_retracing() == "<lambda> has not been traced yet."
    f(*first)
    assert "traced for the first time" in f.experimental_explain_retracing()
    f(*second)
    text = f.experimental_explain_retracing()
    assert text.startswith("<lambda> retraced (trace #2) because")
    assert expected in text


def test_excessive_retracing_warns_once_with_the_fix():
    @tf.function
    def f(x):
        return x

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in range(1, 8):
            f(tf.zeros([n]))
    retracing = [w for w in caught if issubclass(w.category, RetracingWarning)]
    assert len(retracing) == 1
    message = str(retracing[0].message)
    assert "f has been traced 5 times" in message
    assert "argument 'x': shape (4,) -> (5,)" in message
    assert "input_signature=[TensorSpec(shape=[None], dtype=tf.float32)]" in message
    assert "reduce_retracing=True" in message
    assert retracing[0].filename == __file__


# --- Variables -----------------------------------------------------------------

def test_variables_are_captured_by_reference():
    c, f = counter_function()
    assert int(c) == 0
    assert f(1.0).numpy() == 2.0
    assert int(c) == 1
    assert f(1.0).numpy() == 3.0
    assert int(c) == 2
    assert f.experimental_get_tracing_count() == 1


def test_variable_creation_only_on_first_trace():
    @tf.function
    def f(x):
        v = tf.Variable(1.0)
        return x + v

    # TensorFlow 2.21 raises on the first call (it traces twice to check), with
    # this first sentence.
    with pytest.raises(ValueError, match="^tf.function only supports singleton tf.Variables "
                                         "created on the first call(.|\n)*second trace of the "
                                         "first call created 1 Variable"):
        f(tf.constant(1.0))


def test_lazily_created_variable_pattern():
    class Counter:
        def __init__(self):
            self.v = None

        @tf.function
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(0)
            self.v.assign_add(x)
            return self.v.read_value()

    counter = Counter()
    assert counter(tf.constant(2)).numpy() == 2
    assert counter(tf.constant(3)).numpy() == 5
    assert counter(tf.constant([1, 1])[0]).numpy() == 6


def test_variable_arguments_key_by_dtype_and_shape():
    # TensorFlow 2.21: Variables of one dtype and shape share a trace (VariableSpec).
    f = tf.function(lambda v: v * 2)
    a, b = tf.Variable(1), tf.Variable(5)
    assert f(a).numpy() == 2
    a.assign(4)
    assert f(a).numpy() == 8
    assert f(b).numpy() == 10
    assert f.experimental_get_tracing_count() == 1


# --- methods ---------------------------------------------------------------------

class Dense:
    def __init__(self, scale):
        self.w = tf.Variable(float(scale))
        self.traces = 0

    @tf.function
    def compute(self, x):
        self.traces += 1
        return x * self.w


def test_methods_bind_per_instance():
    d1, d2 = Dense(2), Dense(3)
    x = tf.constant(1.0)
    assert d1.compute(x).numpy() == 2.0
    assert d2.compute(x).numpy() == 3.0
    assert d1.compute(tf.constant(2.0)).numpy() == 4.0
    assert (d1.traces, d2.traces) == (1, 1)
    assert d1.compute is d1.compute
    assert d1.compute is not d2.compute
    assert d1.compute.experimental_get_tracing_count() == 1
    assert d1.compute.python_function.__self__ is d1


def test_bound_methods_do_not_keep_instances_alive():
    d = Dense(2)
    assert d.compute(tf.constant(1.0)).numpy() == 2.0
    ref = weakref.ref(d)
    del d
    gc.collect()
    assert ref() is None
    assert Dense.compute._bound == {}


def test_input_signature_on_a_method_describes_the_parameters_after_self():
    class Scaler:
        def __init__(self, factor):
            self.factor = factor

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def scale(self, x):
            return x * self.factor

    two, three = Scaler(2.0), Scaler(3.0)
    np.testing.assert_array_equal(two.scale(tf.constant([1.0, 2.0])), [2.0, 4.0])
    np.testing.assert_array_equal(three.scale([1.0]), [3.0])
    np.testing.assert_array_equal(Scaler.scale(two, tf.constant([5.0])), [10.0])
    assert two.scale.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError, match="argument 'x'"):
        two.scale(tf.constant([1, 2]))


def test_function_name_option():
    f = tf.function(lambda x: x + 1, name="increment")
    cf = f.get_concrete_function(tf.constant(1))
    assert cf.name == "increment" and cf.graph.name == "increment"
    assert "increment has not been traced" not in f.experimental_explain_retracing()
