"""The seed tutorials' examples that need no autograph, run with `import runtime as tf`.

Each test is one scenario from the seed tutorials (000: tf.function overview,
001: the tf.function API doc, 002: a tf.function tutorial, 003: the "Intro to
graphs" guide), asserting the behaviour the seed describes. Control flow the
seeds write as Python `if` is written here with explicit `tf.cond` /
`tf.while_loop`. The last test runs every seed script in examples/.
"""

import os

import numpy as np
import pytest

import runtime as tf

from tests.runtime.seed_programs import counter_function, iterator_function, mean_of_squares, print_function
from tests import fresh_process

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# --- seed 000: tracing prints, retracing per dtype, input_signature ----------------

def test_seed000_tracing_prints_once_per_signature(capsys):
    def simple_computation(x, y):
        print(f"Tracing with inputs: {x}, {y}")
        return tf.multiply(tf.add(x, y), 2)

    @tf.function
    def optimized_computation(x, y):
        print(f"Tracing optimized function with inputs: {x}, {y}")
        return tf.multiply(tf.add(x, y), 2)

    assert simple_computation(tf.constant(1), tf.constant(2)).numpy() == 6
    assert simple_computation(tf.constant(3), tf.constant(4)).numpy() == 14
    assert capsys.readouterr().out.count("Tracing with inputs") == 2

    results = [optimized_computation(tf.constant(1), tf.constant(2)),
               optimized_computation(tf.constant(3), tf.constant(4)),
               optimized_computation(tf.constant(1.0), tf.constant(2.0)),
               optimized_computation(tf.constant(3.0), tf.constant(4.0))]
    assert [str(r) for r in results] == [
        "tf.Tensor(6, shape=(), dtype=int32)", "tf.Tensor(14, shape=(), dtype=int32)",
        "tf.Tensor(6.0, shape=(), dtype=float32)", "tf.Tensor(14.0, shape=(), dtype=float32)"]
    assert capsys.readouterr().out.splitlines() == [
        'Tracing optimized function with inputs: Tensor("x:0", shape=(), dtype=int32), '
        'Tensor("y:0", shape=(), dtype=int32)',
        'Tracing optimized function with inputs: Tensor("x:0", shape=(), dtype=float32), '
        'Tensor("y:0", shape=(), dtype=float32)']


def test_seed000_input_signature(capsys):
    @tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
    def specific_function(x):
        print(f"Tracing specific function with input shape: {x.shape}")
        return x * 2.0

    np.testing.assert_array_equal(specific_function(tf.constant([1.0, 2.0, 3.0])), [2, 4, 6])
    np.testing.assert_array_equal(specific_function(tf.constant([4.0, 5.0])), [8, 10])
    assert capsys.readouterr().out == "Tracing specific function with input shape: (None,)\n"
    with pytest.raises(TypeError, match="expected a float32 tensor.*got an int32 tensor"):
        specific_function(tf.constant([1, 2]))
    with pytest.raises(ValueError, match=r"got a float32 tensor of shape \(\)"):
        specific_function(tf.constant(1.0))


def test_seed000_conditional_function_with_explicit_cond():
    @tf.function(autograph=False)
    def conditional_function(x):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.abs(x), lambda: tf.square(x))

    np.testing.assert_array_equal(conditional_function(tf.constant([1, 2, -1])), [1, 2, 1])
    np.testing.assert_array_equal(conditional_function(tf.constant([-1, -2, 1])), [1, 4, 1])
    assert conditional_function.experimental_get_tracing_count() == 1


# --- seed 001: the tf.function API doc ------------------------------------------------

def test_seed001_function_matches_python_and_captures_tensors():
    f = mean_of_squares
    g = tf.function(f)
    x = tf.constant([[2.0, 3.0]])
    y = tf.constant([[3.0, -2.0]])
    assert f(x, y).numpy() == g(x, y).numpy()

    h = tf.function(lambda: f(x, y))
    assert (h().numpy() == f(x, y).numpy()).all()
    assert h.get_concrete_function().inputs == []


def test_seed001_variable_counter():
    c, f = counter_function()
    assert int(c) == 0
    assert f(1.0) == 2.0
    assert int(c) == 1
    assert f(1.0) == 3.0
    assert int(c) == 2


def test_seed001_methods_use_distinct_variables():
    class Dense(object):
        def __init__(self):
            self.W = tf.Variable(tf.random.uniform((10, 10)))
            self.b = tf.Variable(tf.zeros(10))

        @tf.function
        def compute(self, x):
            return tf.matmul(x, self.W) + self.b

    d1 = Dense()
    d2 = Dense()
    x = tf.random.uniform((10, 10))
    assert not (d1.compute(x).numpy() == d2.compute(x).numpy()).all()
    np.testing.assert_allclose(d1.compute(x).numpy(),
                               x.numpy() @ d1.W.numpy() + d1.b.numpy(), rtol=1e-5)


def test_seed001_one_graph_per_shape_unless_input_signature():
    def add_one(x):
        return tf.add(x, 1.)

    per_shape = tf.function(add_one)
    one_graph = tf.function(add_one,
                            input_signature=[tf.TensorSpec(shape=None, dtype=tf.float32)])
    for arg in (tf.constant(1.0), tf.constant([1.0, 1.0]), tf.constant([[3.0]])):
        np.testing.assert_array_equal(per_shape(arg), one_graph(arg))
    assert per_shape.experimental_get_tracing_count() == 3
    assert one_graph.experimental_get_tracing_count() == 1


def test_seed001_numpy_random_is_baked_in_tf_random_is_not():
    def add_noise():
        return tf.eye(5) + np.random.randn(5, 5)

    def add_graph_noise():
        return tf.eye(5) + tf.random.normal((5, 5))

    assert not np.array_equal(add_noise(), add_noise())
    traced = tf.function(add_noise)
    first = traced().numpy()
    assert first.dtype == np.float32
    np.testing.assert_array_equal(traced().numpy(), first)
    traced_graph_noise = tf.function(add_graph_noise)
    assert not np.array_equal(traced_graph_noise(), traced_graph_noise())
    assert traced_graph_noise.experimental_get_tracing_count() == 1


def test_seed001_python_numbers_retrace_tensors_do_not():
    g = tf.function(lambda x: x * 2)
    g(2)
    g(3)
    assert g.experimental_get_tracing_count() == 2
    h = tf.function(lambda x: x * 2)
    h(tf.constant(2))
    h(tf.constant(3))
    assert h.experimental_get_tracing_count() == 1


# --- seed 002: a tf.function tutorial --------------------------------------------------

def test_seed002_decorated_and_wrapped_functions():
    @tf.function
    def function(x):
        a = tf.constant([[2.0], [3.0]])
        b = tf.constant(4.0)
        return a + b

    np.testing.assert_array_equal(function(2), [[6.0], [7.0]])

    function_that_uses_graph = tf.function(lambda a, b: tf.matmul(a, b))
    out = function_that_uses_graph(tf.constant([[1.0, 2.0]]), tf.constant([[2.0], [3.0]]))
    np.testing.assert_array_equal(out.numpy(), np.array([[8.0]], np.float32))
    assert out.numpy().dtype == np.float32


def test_seed002_print_traces_once_tf_print_every_run(capsys):
    f = print_function()
    f(1)
    f(1)
    captured = capsys.readouterr()
    assert captured.out == "Traced with 1\n"
    assert captured.err == "Executed with 1\nExecuted with 1\n"


def test_seed002_iterator_advances_only_while_tracing(capsys):
    var, side_effect = iterator_function()
    iterator = iter([0, 1, 2, 3])
    for _ in range(3):
        side_effect(iterator)
    assert capsys.readouterr().err == "Value of variable: 0\n" * 3
    assert next(iterator) == 1          # only one value was consumed, while tracing

    var.assign(0)
    iterator = iter([0, 1, 2, 3])
    for _ in range(3):
        side_effect.python_function(iterator)
    assert capsys.readouterr().err == (
        "Value of variable: 0\nValue of variable: 1\nValue of variable: 3\n")


def test_seed002_polymorphic_function(capsys):
    @tf.function
    def poly_func(a):
        print("Tracing with", a)
        return a

    outputs = [poly_func(tf.constant(1)), poly_func(tf.constant(1.1)),
               poly_func(tf.constant("a")), poly_func(tf.constant(3.6))]
    assert [str(o) for o in outputs] == [
        "tf.Tensor(1, shape=(), dtype=int32)", "tf.Tensor(1.1, shape=(), dtype=float32)",
        "tf.Tensor(b'a', shape=(), dtype=string)", "tf.Tensor(3.6, shape=(), dtype=float32)"]
    assert capsys.readouterr().out.splitlines() == [
        'Tracing with Tensor("a:0", shape=(), dtype=int32)',
        'Tracing with Tensor("a:0", shape=(), dtype=float32)',
        'Tracing with Tensor("a:0", shape=(), dtype=string)']
    assert poly_func.pretty_printed_concrete_signatures().count("Input Parameters:") == 3

    polyfunc_int = poly_func.get_concrete_function(tf.constant(3))
    assert polyfunc_int(tf.constant(5)).numpy() == 5
    assert polyfunc_int(a=tf.constant(6)).numpy() == 6
    with pytest.raises(TypeError, match="expected an int32 tensor"):
        polyfunc_int(tf.constant(7.4))
    assert poly_func.experimental_get_tracing_count() == 3


# --- seed 003: Intro to graphs -----------------------------------------------------------

def test_seed003_function_and_inner_function():
    def a_regular_function(x, y, b):
        return tf.matmul(x, y) + b

    a_function_that_uses_a_graph = tf.function(a_regular_function)
    x1 = tf.constant([[1.0, 2.0]])
    y1 = tf.constant([[2.0], [3.0]])
    b1 = tf.constant(4.0)
    assert a_regular_function(x1, y1, b1).numpy() == a_function_that_uses_a_graph(x1, y1, b1).numpy()

    @tf.function
    def outer_function(x):
        return a_regular_function(x, tf.constant([[2.0], [3.0]]), tf.constant(4.0))

    np.testing.assert_array_equal(outer_function(tf.constant([[1.0, 2.0]])), [[12.0]])


def test_seed003_simple_relu_graph_with_explicit_cond():
    tf_simple_relu = tf.function(
        lambda x: tf.cond(tf.greater(x, 0), lambda: x, lambda: tf.constant(0)),
        autograph=False)
    assert tf_simple_relu(tf.constant(1)).numpy() == 1
    assert tf_simple_relu(tf.constant(-1)).numpy() == 0
    graph = tf_simple_relu.get_concrete_function(tf.constant(1)).graph
    ops = [op.type for op in graph.get_operations()]
    assert ops[0] == "Placeholder" and "Greater" in ops
    assert [n.name for n in graph.as_graph_def().node][0] == "x"


def test_seed003_polymorphism_of_my_relu():
    @tf.function
    def my_relu(x):
        return tf.maximum(0., x)

    assert str(my_relu(tf.constant(5.5))) == "tf.Tensor(5.5, shape=(), dtype=float32)"
    assert str(my_relu([1, -1])) == "tf.Tensor([1. 0.], shape=(2,), dtype=float32)"
    assert str(my_relu(tf.constant([3., -3.]))) == "tf.Tensor([3. 0.], shape=(2,), dtype=float32)"
    assert str(my_relu(tf.constant(-2.5))) == "tf.Tensor(0.0, shape=(), dtype=float32)"
    assert str(my_relu(tf.constant([-1., 1.]))) == "tf.Tensor([0. 1.], shape=(2,), dtype=float32)"
    assert my_relu.experimental_get_tracing_count() == 3
    assert "List[Literal[1], Literal[-1]]" in my_relu.pretty_printed_concrete_signatures()


def test_seed003_run_functions_eagerly(capsys):
    @tf.function
    def get_MSE(y_true, y_pred):
        print("Calculating MSE!")
        return tf.reduce_mean(tf.pow(y_true - y_pred, 2))

    y_true = tf.constant([2, 0, 7, 2, 3])
    y_pred = tf.constant([9, 9, 1, 1, 5])
    for _ in range(3):
        error = get_MSE(y_true, y_pred)
    assert repr(error) == "<tf.Tensor: shape=(), dtype=int32, numpy=34>"
    assert capsys.readouterr().out == "Calculating MSE!\n"
    tf.config.run_functions_eagerly(True)
    try:
        for _ in range(3):
            assert get_MSE(y_true, y_pred).numpy() == 34
    finally:
        tf.config.run_functions_eagerly(False)
    assert capsys.readouterr().out == "Calculating MSE!\n" * 3


def test_seed003_non_strict_execution():
    def unused_return_eager(x):
        tf.gather(x, [1])
        return x

    with pytest.raises(tf.errors.InvalidArgumentError, match="GatherV2"):
        unused_return_eager(tf.constant([0.0]))
    unused_return_graph = tf.function(unused_return_eager)
    assert str(unused_return_graph(tf.constant([0.0]))) == \
        "tf.Tensor([0.], shape=(1,), dtype=float32)"


def test_seed003_power_graph_matches_eager():
    x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)

    def power(x, y):
        result = tf.eye(10, dtype=tf.dtypes.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result

    power_as_graph = tf.function(power)
    np.testing.assert_array_equal(power(x, 100).numpy(), power_as_graph(x, 100).numpy())
    assert power_as_graph(x, 100).dtype == tf.int32


def test_seed003_python_arguments_retrace(capsys):
    @tf.function
    def a_function_with_python_side_effect(x):
        print("Tracing!")
        return x * x + tf.constant(2)

    assert a_function_with_python_side_effect(tf.constant(2)).numpy() == 6
    assert a_function_with_python_side_effect(tf.constant(3)).numpy() == 11
    assert capsys.readouterr().out == "Tracing!\n"
    assert a_function_with_python_side_effect(2).numpy() == 6
    assert a_function_with_python_side_effect(3).numpy() == 11
    assert capsys.readouterr().out == "Tracing!\nTracing!\n"


def test_explicit_while_loop_in_a_function():
    @tf.function(autograph=False)
    def collatz_steps(n):
        def body(n, steps):
            n = tf.cond(n % 2 == 0, lambda: n // 2, lambda: 3 * n + 1)
            return n, steps + 1
        _, steps = tf.while_loop(lambda n, steps: n > 1, body, (n, tf.constant(0)))
        return steps

    assert collatz_steps(tf.constant(27)).numpy() == 111
    assert collatz_steps(tf.constant(1)).numpy() == 0
    assert collatz_steps.experimental_get_tracing_count() == 1


# --- the example scripts ----------------------------------------------------------------

EXAMPLES = [
    ("tracing.py", "Tracing optimized function with inputs: Tensor(\"x:0\""),
    ("input_signature.py", "Graphs traced: 1"),
    ("polymorphism.py", "List[Literal[1], Literal[-1]]"),
    ("variables.py", "d1 and d2 give the same result: False"),
    ("non_strict.py", "tf.Tensor([0.], shape=(1,), dtype=float32)"),
    ("random_values.py", "traced calls are equal:   True"),
    ("iterator_side_effect.py", "Value of variable: 3"),
    ("print_side_effects.py", "tf.Tensor(34, shape=(), dtype=int32)"),
    ("explicit_control_flow.py", "Collatz steps for 27: 111"),
    ("python_arguments.py", "graph and eager agree: True"),
]


@pytest.mark.parametrize("script,expected", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_example_script_runs(script, expected):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = fresh_process.run([os.path.join(ROOT, "examples", script)],
                             capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert expected in proc.stdout + proc.stderr
