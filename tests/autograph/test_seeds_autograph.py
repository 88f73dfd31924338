"""The seed tutorials' examples that need autograph, run with
`import runtime as tf`, checked against the output the seeds document."""

import warnings

import numpy as np

import autograph
import runtime as tf  # an import error must fail the module loudly


def test_conditional_function():                     # seed 000
    @tf.function
    def conditional_function(x):
        if tf.reduce_sum(x) > 0:
            # This branch uses tf.abs
            return tf.abs(x)
        else:
            # This branch uses tf.square
            return tf.square(x)

    assert str(conditional_function(tf.constant([1, 2, -1]))) == \
        "tf.Tensor([1 2 1], shape=(3,), dtype=int32)"
    assert str(conditional_function(tf.constant([-1, -2, 1]))) == \
        "tf.Tensor([1 4 1], shape=(3,), dtype=int32)"
    graph = conditional_function.get_concrete_function(tf.constant([1])).graph
    assert "If" in {n.op for n in graph.nodes}


def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0


def test_simple_relu(capsys):                         # seed 003
    tf_simple_relu = tf.function(simple_relu)
    print("First branch, with graph:", tf_simple_relu(tf.constant(1)).numpy())
    print("Second branch, with graph:", tf_simple_relu(tf.constant(-1)).numpy())
    assert capsys.readouterr().out == ("First branch, with graph: 1\n"
                                       "Second branch, with graph: 0\n")
    code = tf.autograph.to_code(simple_relu)
    assert "ag__.if_stmt(tf.greater(x, 0), if_body, else_body" in code
    compile(code, "<to_code>", "exec")


def my_function(x):
    if tf.reduce_sum(x) <= 1:
        return x * x
    else:
        return x - 1


def test_my_function(capsys):                          # seed 002
    a_function = tf.function(my_function)
    print("First branch, with graph:", a_function(tf.constant(1.0)).numpy())
    print("Second branch, with graph:", a_function(tf.constant([5.0, 5.0])).numpy())
    assert capsys.readouterr().out == ("First branch, with graph: 1.0\n"
                                       "Second branch, with graph: [4. 4.]\n")
    assert tf.autograph.to_code(my_function).count("return (retval_,)") == 2


def test_get_mse_prints_once_per_trace(capsys):        # seed 003
    @tf.function
    def get_MSE(y_true, y_pred):  # the seed's name
        print("Calculating MSE!")
        sq_diff = tf.pow(y_true - y_pred, 2)
        return tf.reduce_mean(sq_diff)

    y_true = tf.constant([2, 0, 7, 2, 3])
    y_pred = tf.constant([9, 9, 1, 1, 5])
    for _ in range(3):
        error = get_MSE(y_true, y_pred)
    assert capsys.readouterr().out == "Calculating MSE!\n"
    assert repr(error) == "<tf.Tensor: shape=(), dtype=int32, numpy=34>"


def test_power_graph_matches_eager():                  # seed 003
    x = tf.constant(np.arange(100, dtype=np.int32).reshape(10, 10) % 3 - 1)

    def power(x, y):
        result = tf.eye(10, dtype=tf.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result

    power_as_graph = tf.function(power)
    np.testing.assert_array_equal(power_as_graph(x, 5).numpy(), power(x, 5).numpy())
    # With a tensor y the loop is staged: one graph serves every y.
    staged = tf.function(power)
    np.testing.assert_array_equal(staged(x, tf.constant(3)).numpy(), power(x, 3).numpy())
    np.testing.assert_array_equal(staged(x, tf.constant(0)).numpy(), np.eye(10, dtype=np.int32))
    assert staged.experimental_get_tracing_count() == 1


def test_poly_func(capsys):                             # seed 002
    @tf.function
    def poly_func(a):
        print("Tracing with", a)
        return a

    print(poly_func(tf.constant(1)))
    print(poly_func(tf.constant(1.1)))
    print(poly_func(tf.constant("a")))
    print(poly_func(tf.constant(3.6)))
    assert capsys.readouterr().out == (
        'Tracing with Tensor("a:0", shape=(), dtype=int32)\n'
        "tf.Tensor(1, shape=(), dtype=int32)\n"
        'Tracing with Tensor("a:0", shape=(), dtype=float32)\n'
        "tf.Tensor(1.1, shape=(), dtype=float32)\n"
        'Tracing with Tensor("a:0", shape=(), dtype=string)\n'
        "tf.Tensor(b'a', shape=(), dtype=string)\n"
        "tf.Tensor(3.6, shape=(), dtype=float32)\n")


class Model:
    """A method decorated with tf.function, with Python and tensor control flow."""

    def __init__(self, scale):
        self.scale = scale

    @tf.function
    def call(self, x, training=True):
        y = x * self.scale
        if training:                  # a Python bool: decided while tracing
            y = y + 1
        if tf.reduce_sum(y) > 10:     # a tensor: staged
            y = y - 10
        return y


def test_function_on_methods():                        # seed 001
    m1, m2 = Model(2), Model(5)
    x = tf.constant([1, 2])
    assert m1.call(x).numpy().tolist() == [3, 5]
    assert m1.call(x, training=False).numpy().tolist() == [2, 4]
    assert m2.call(x).numpy().tolist() == [-4, 1]
    assert m2.call(x, training=False).numpy().tolist() == [-5, 0]


# Seed 001 (the tf.function API doc): `print(i)`, a Variable assign and
# `l.append(i)` ("Caution! Doesn't work.") in `for i in x:` over a tensor.
SEED_L = []
SEED_V = None


def seed001_g(x):
    for i in x:
        print(i)  # Works
        SEED_V.assign(i)  # Works
        SEED_L.append(i)  # Caution! Doesn't work.
    return SEED_V.read_value()


def test_seed001_python_side_effect_in_a_tensor_loop(capsys):  # seed 001
    global SEED_V
    SEED_V = tf.Variable(0)
    SEED_L.clear()
    g = tf.function(seed001_g)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = g(tf.constant([1, 2, 3]))
        second = g(tf.constant([4, 5, 6]))
    # TF 2.21 (same code): returns 3 then 6; prints the loop's symbolic element
    # once, while tracing (Tensor("while/TensorArrayV2Read/TensorListGetItem:0",
    # shape=(), dtype=int32)); l holds one symbolic tensor after both calls.
    assert int(first) == 3 and int(second) == 6 and int(SEED_V.numpy()) == 6
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 1 and printed[0].startswith("Tensor(")
    assert printed[0].endswith("shape=(), dtype=int32)")
    assert len(SEED_L) == 1 and tf.is_tensor(SEED_L[0])
    ours = [str(w.message) for w in caught if w.category is autograph.SideEffectWarning]
    assert len(ours) == 1 and ours[0].startswith("'SEED_L.append(i)' (")
    assert "once per trace, not once per iteration" in ours[0]
