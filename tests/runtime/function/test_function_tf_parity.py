"""Functions and concrete functions behave and print as TensorFlow 2.21's.
Every expected string and exception type here was
recorded from TensorFlow 2.21 ($BENCH_TF_PYTHON)."""

import re

import pytest

import runtime as tf


def _f(x, y=2):
    return x * y


@pytest.fixture
def traced():
    f = tf.function(_f)
    return f, f.get_concrete_function(tf.TensorSpec([None], tf.float32), 3.0)


# TensorFlow 2.21: print(cf) and f.pretty_printed_concrete_signatures().
TF_SIGNATURE = """\
Input Parameters:
  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(None,), dtype=tf.float32, name=None)
  y (POSITIONAL_OR_KEYWORD): Literal[3.0]
Output Type:
  TensorSpec(shape=(None,), dtype=tf.float32, name=None)
Captures:
  None"""


def test_str_of_a_concrete_function_is_tensorflows(traced):
    f, cf = traced
    assert str(cf) == "ConcreteFunction " + TF_SIGNATURE
    assert f.pretty_printed_concrete_signatures() == TF_SIGNATURE


def test_an_unknown_shape_prints_unknown():
    cf = tf.function(_f).get_concrete_function(tf.TensorSpec(None, tf.int32))
    # TensorFlow 2.21
    assert str(cf) == (
        "ConcreteFunction Input Parameters:\n"
        "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=<unknown>, dtype=tf.int32, name=None)\n"
        "  y (POSITIONAL_OR_KEYWORD): Literal[2]\n"
        "Output Type:\n"
        "  TensorSpec(shape=<unknown>, dtype=tf.int32, name=None)\n"
        "Captures:\n"
        "  None")
    assert repr(tf.TensorSpec(None, tf.int32)) == \
        "TensorSpec(shape=<unknown>, dtype=tf.int32, name=None)"


def test_function_types(traced):
    f, cf = traced
    ft = cf.function_type
    assert isinstance(ft, tf.types.experimental.FunctionType)
    # TensorFlow 2.21: str is one line, repr the pretty form.
    assert str(ft) == ("(x: TensorSpec(shape=(None,), dtype=tf.float32, name=None), "
                       "y: Literal[3.0]) -> TensorSpec(shape=(None,), dtype=tf.float32, "
                       "name=None)")
    assert repr(ft) == TF_SIGNATURE
    assert list(ft.parameters) == ["x", "y"]
    assert repr(ft.parameters["x"].type_constraint) == \
        "TensorSpec(shape=(None,), dtype=tf.float32, name=None)"
    assert str(f.function_type) == "(x, y=<captured_default_value>)"
    assert re.fullmatch(r"<ConcreteFunction \(x: TensorSpec\(shape=\(None,\), dtype=tf\.float32, "
                        r"name=None\), y: Literal\[3\.0\]\) -> TensorSpec\(shape=\(None,\), "
                        r"dtype=tf\.float32, name=None\) at 0x[0-9A-F]+>", repr(cf))


def test_function_type_of_variadic_functions():
    @tf.function
    def f(x, *a, k=1, **kw):
        return x

    cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32),
                                 tf.TensorSpec([], tf.int32), 5, k=2,
                                 z=tf.TensorSpec([3], tf.float64))
    # TensorFlow 2.21
    assert str(cf.function_type) == (
        "(x: TensorSpec(shape=(None,), dtype=tf.float32, name=None), "
        "a_0: TensorSpec(shape=(), dtype=tf.int32, name=None), a_1: Literal[5], /, *, "
        "k: Literal[2], z: TensorSpec(shape=(3,), dtype=tf.float64, name=None)) -> "
        "TensorSpec(shape=(None,), dtype=tf.float32, name=None)")
    assert str(f.function_type) == "(x, *a, k=<captured_default_value>, **kw)"


def test_isinstance_checks(traced):
    f, cf = traced
    types = tf.types.experimental
    assert isinstance(f, types.PolymorphicFunction) and isinstance(f, types.GenericFunction)
    assert isinstance(cf, types.ConcreteFunction)
    assert not isinstance(f, types.ConcreteFunction)
    assert not isinstance(cf, types.PolymorphicFunction)
    assert isinstance(f, types.Callable) and isinstance(cf, types.Callable)


def test_python_arguments_are_bound_at_trace_time():
    @tf.function
    def h(x, n=2.0):
        return x * n

    ch = h.get_concrete_function(tf.constant(1.0), 3.0)
    assert ch(tf.constant(2.0)).numpy() == 6.0       # TensorFlow 2.21: 6.0
    assert ch(tf.constant(2.0), n=3.0).numpy() == 6.0
    with pytest.raises(TypeError, match=re.escape(
            "Binding inputs to tf.function failed due to `Can not cast 4.0 to "
            "Literal[3.0]`. Received args: (<tf.Tensor: shape=(), dtype=float32, "
            "numpy=2.0>, 4.0) and kwargs: {} for signature: (x: TensorSpec(shape=(), "
            "dtype=tf.float32, name=None), n: Literal[3.0]) -> TensorSpec(shape=(), "
            "dtype=tf.float32, name=None).\n")):
        ch(tf.constant(2.0), 4.0)


@pytest.mark.parametrize("call, first_line", [
    # TensorFlow 2.21's first lines.
    (lambda f: f(), "Binding inputs to tf.function failed due to `missing a required "
                    "argument: 'x'`. Received args: () and kwargs: {} for signature: "
                    "(x, y=<captured_default_value>)."),
    (lambda f: f(1, 2, 3), "Binding inputs to tf.function failed due to `too many positional "
                           "arguments`. Received args: (1, 2, 3) and kwargs: {} for "
                           "signature: (x, y=<captured_default_value>)."),
    (lambda f: f(1, z=3), "Binding inputs to tf.function failed due to `got an unexpected "
                          "keyword argument 'z'`. Received args: (1,) and kwargs: {'z': 3} "
                          "for signature: (x, y=<captured_default_value>)."),
])
def test_binding_errors_of_a_function(call, first_line):
    with pytest.raises(TypeError) as info:
        call(tf.function(_f))
    lines = str(info.value).split("\n")
    assert lines[0] == first_line
    assert lines[1].startswith("_f(): ")          # ours: names the function


def test_binding_errors_of_an_input_signature():
    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def g(x):
        return x

    with pytest.raises(TypeError) as info:
        g(tf.constant([1, 2]))
    # TensorFlow 2.21
    assert str(info.value).split("\n")[0] == (
        "Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(2,), "
        "dtype=tf.int32, name=None) to TensorSpec(shape=(2,), dtype=tf.float32, name=None)`. "
        "Received args: (<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], "
        "dtype=int32)>,) and kwargs: {} for signature: (x: TensorSpec(shape=(2,), "
        "dtype=tf.float32, name=None)).")
    assert "g: argument 'x' does not match the signature" in str(info.value)
    with pytest.raises(TypeError, match=re.escape(
            "failed due to `too many positional arguments`. Received args: (1, 2) and "
            "kwargs: {} for signature: (x: TensorSpec(shape=(2,), dtype=tf.float32, "
            "name=None)).")):
        g(1, 2)


def test_concrete_function_called_with_another_dtype(traced):
    _, cf = traced
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        cf(tf.constant([1, 2]))
    # TensorFlow 2.21: "cannot compute __inference_f_6 as input #0(zero-based) was
    # expected to be a float tensor but is a int32 tensor [Op:__inference_f_6]"
    assert re.match(r"cannot compute __inference__f\w* as input #0\(zero-based\) was expected "
                    r"to be a float tensor but is a int32 tensor \[Op:__inference__f\w*\]\n",
                    str(info.value))
    with pytest.raises(TypeError, match="^Binding inputs to tf.function failed due to "
                                        "`missing a required argument: 'x'`"):
        cf()


def test_numpy_of_a_symbolic_tensor_is_an_attribute_error():
    @tf.function
    def f(x):
        assert not hasattr(x, "numpy")       # TensorFlow 2.21: no such attribute
        return x.numpy()

    # TensorFlow 2.21: AttributeError: 'SymbolicTensor' object has no attribute 'numpy'
    with pytest.raises(AttributeError) as info:
        f(tf.constant(1))
    assert str(info.value) == "'SymbolicTensor' object has no attribute 'numpy'"
    assert "tf.print" in info.value.__notes__[0]


def test_a_variable_created_on_every_call_fails_on_the_first():
    @tf.function
    def f(x):
        return tf.Variable(x) + 1

    # TensorFlow 2.21 raises on the first call, this ValueError.
    with pytest.raises(ValueError, match=re.escape(
            "tf.function only supports singleton tf.Variables created on the first call. "
            "Make sure the tf.Variable is only created once or created outside "
            "tf.function. See https://www.tensorflow.org/guide/function#creating_tfvariables"
            " for more information.")):
        f(1.0)


def test_lazily_created_variable_traces_twice_on_the_first_call():
    traces = []

    class M(tf.Module):
        def __init__(self):
            self.v = None

        @tf.function
        def __call__(self, x):
            traces.append(1)
            if self.v is None:
                self.v = tf.Variable(2.0)
            return self.v * x

    m = M()
    assert m(1.0).numpy() == 2.0 and len(traces) == 2     # TensorFlow 2.21: 2 traces
    assert m(tf.constant(2.0)).numpy() == 4.0


def test_unbounded_recursion_is_a_staging_error():
    @tf.function
    def rec(n):
        return rec(n - 1)

    # TensorFlow 2.21: StagingError (autograph's), whose text ends in the
    # RecursionError.
    with pytest.raises(Exception) as info:
        rec(tf.constant(3))
    assert type(info.value).__name__ == "StagingError"
    assert "RecursionError: maximum recursion depth exceeded" in str(info.value)
    assert isinstance(info.value.__cause__, RecursionError)


def test_variables_of_one_dtype_and_shape_share_a_trace():
    a, b = tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b")
    seen = []

    @tf.function
    def f(v, w):
        seen.append((v is a, w is v))
        v.assign_add(tf.ones_like(v))
        return v + w

    # TensorFlow 2.21: 4.0, 5.0, 6.0; traces (True, True), (True, False); count 2;
    # a and b end at 3.0 and 3.0.
    assert f(a, a).numpy() == 4.0
    assert f(a, b).numpy() == 5.0
    assert f(b, a).numpy() == 6.0
    assert seen == [(True, True), (True, False)]
    assert f.experimental_get_tracing_count() == 2
    assert a.numpy() == 3.0 and b.numpy() == 3.0
    f(tf.Variable([1.0, 2.0]), tf.Variable([1.0, 2.0]))     # another shape: a new trace
    assert f.experimental_get_tracing_count() == 3


def test_variable_spec_prints_as_tensorflow():
    f = tf.function(lambda v: v + 1)
    f(tf.Variable(1.0))
    # TensorFlow 2.21
    assert f.pretty_printed_concrete_signatures() == (
        "Input Parameters:\n"
        "  v (POSITIONAL_OR_KEYWORD): VariableSpec(shape=(), dtype=tf.float32, "
        "trainable=True, alias_id=0)\n"
        "Output Type:\n"
        "  TensorSpec(shape=(), dtype=tf.float32, name=None)\n"
        "Captures:\n"
        "  None")


def test_threads_share_a_variable_trace_with_their_own_variables():
    import threading

    f = tf.function(lambda v: v.assign_add(tf.ones_like(v)))
    variables = [tf.Variable(float(i)) for i in range(4)]
    f(variables[0])

    def work(v):
        for _ in range(50):
            f(v)
    threads = [threading.Thread(target=work, args=(v,)) for v in variables]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [v.numpy() for v in variables] == [51.0, 51.0, 52.0, 53.0]
    assert f.experimental_get_tracing_count() == 1


def test_a_concrete_function_call_is_differentiable():
    v = tf.Variable(2.0)
    f = tf.function(lambda x: x * x * v)
    cf = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    x = tf.constant([3.0, 1.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = cf(x)
    # TensorFlow 2.21: [12. 4.] and 10.0 (9 + 1)
    assert tape.gradient(y, x).numpy().tolist() == [12.0, 4.0]
    assert tape.gradient(y, v).numpy() == 10.0
    g = tf.function(lambda w, x: w * x)
    cg = g.get_concrete_function(tf.Variable(5.0), tf.TensorSpec([], tf.float32))
    b = tf.Variable(7.0)
    with tf.GradientTape() as tape:
        y = cg(b, tf.constant(3.0))           # another Variable of the same spec
    assert y.numpy() == 21.0 and tape.gradient(y, b).numpy() == 3.0


def test_concrete_function_falls_back_to_the_flat_signature():
    # TensorFlow 2.21 (guide "function"): a concrete function traced with a
    # Python object and a tensor is called with the tensor alone.
    class Model(tf.Module):
        weight = 2.

    def evaluate(model, x):
        return model.weight * x

    model, x = Model(), tf.constant(10.)
    cf = tf.function(evaluate).get_concrete_function(model, x)
    assert float(cf(x)) == 20.0
    assert float(cf(x=x)) == 20.0
    with pytest.raises(TypeError, match="missing a required argument"):
        cf()
