"""A tf.function called under an eager GradientTape is one call: it runs its traced graph, each tape records one op, Python side
effects happen once per trace, and gradients (first and second order,
Variables, loops, conds, nested functions, Keras models) come from the
traced graph. Literals are TF 2.21's recorded values; each case is also
compared with the same Python run eagerly (the op-by-op tape)."""

import sys

import numpy as np
import pytest

import runtime as tf
from runtime._src.autodiff import function_call


def _np(t):
    return None if t is None else np.asarray(t.numpy() if hasattr(t, "numpy") else t)


def _second_order(fn, x):
    """(y, dy/dx, d2y/dx2) of fn at x with nested tapes."""
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = fn(x)
        g = inner.gradient(y, x)
    return y, g, outer.gradient(g, x)


# --- side effects: once per trace ---------------------------------------------------

def test_python_side_effects_run_once_under_a_tape():
    n = [0]

    @tf.function
    def f(x):
        n[0] += 1
        return x * x

    v = tf.Variable(3.0)
    grads = []
    for _ in range(5):
        with tf.GradientTape() as tape:
            y = f(v)
        grads.append(float(tape.gradient(y, v)))
    # TF 2.21: n == [1], gradients [6.0] * 5, one trace
    assert n == [1] and grads == [6.0] * 5
    assert f.experimental_get_tracing_count() == 1


def test_the_tape_records_one_op_per_call():
    @tf.function
    def f(x):
        y = x
        for _ in range(5):
            y = tf.sin(y) * x + y
        return y

    x = tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert [r.op for r in tape._records] == ["StatefulPartitionedCall"]
    with tf.GradientTape() as eager:
        eager.watch(x)
        expected = f.python_function(x)
    np.testing.assert_allclose(tape.gradient(y, x), eager.gradient(expected, x), rtol=1e-6)


def test_an_untaped_and_a_taped_call_share_the_trace():
    n = [0]

    @tf.function
    def f(x):
        n[0] += 1
        return tf.exp(x)

    x = tf.constant(1.0)
    f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    f(x)
    assert n == [1] and f.experimental_get_tracing_count() == 1
    np.testing.assert_allclose(tape.gradient(y, x), np.e, rtol=1e-6)


def test_tracing_under_a_tape_does_not_see_the_tape():
    """A loop traced under a tape gets no accumulator: the graph is the one an
    untaped call would trace."""
    @tf.function
    def f(x):
        i = tf.constant(0)
        while i < 3:
            x = x * 2.0
            i += 1
        return x

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    graph = f.get_concrete_function(x).graph
    loops = [n for n in graph.nodes if n.op == "While"]
    assert loops and not any(n.attrs.get("accumulator") for n in loops)
    assert float(tape.gradient(y, x)) == 8.0


# --- first and second order ----------------------------------------------------------

def test_first_and_second_order_match_tf_and_eager():
    def cubic_sin(x):
        return x ** 3 * tf.sin(x)

    x = tf.constant(1.5)
    got = [float(t) for t in _second_order(tf.function(cubic_sin), x)]
    eager = [float(t) for t in _second_order(cubic_sin, x)]
    # TF 2.21: 3.3665456771850586, 6.971829414367676, 6.565861701965332
    np.testing.assert_allclose(got, [3.3665456771850586, 6.971829414367676,
                                     6.565861701965332], rtol=1e-6)
    np.testing.assert_allclose(got, eager, rtol=1e-6)


def test_while_loop_and_cond_on_tensors_to_second_order():
    def loop(x):
        i = tf.constant(0)
        while i < 3:
            x = tf.sin(x) * x + 0.1 * x
            i += 1
        if tf.reduce_sum(x) > 0:
            x = x * 2.0
        else:
            x = x * 3.0
        return tf.reduce_sum(x * x)

    x = tf.constant([0.5, -1.2, 2.0])
    y, g, h = _second_order(tf.function(loop), x)
    # TF 2.21's values
    np.testing.assert_allclose(float(y), 19.255416870117188, rtol=1e-6)
    np.testing.assert_allclose(g, [0.04118560254573822, -18.694276809692383,
                                   0.04368230700492859], rtol=1e-5)
    np.testing.assert_allclose(h, [0.727224588394165, 68.43610382080078,
                                   -0.8392756581306458], rtol=1e-5)
    _, g_eager, h_eager = _second_order(loop, x)
    np.testing.assert_allclose(g, g_eager, rtol=1e-5)
    np.testing.assert_allclose(h, h_eager, rtol=1e-5)


def test_third_order_through_a_loop():
    @tf.function
    def f(x):
        for _ in tf.range(2):
            x = x * x
        return x                     # x ** 4

    x = tf.constant(1.5)
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = f(x)
            g1 = t1.gradient(y, x)
        g2 = t2.gradient(g1, x)
    g3 = t3.gradient(g2, x)
    np.testing.assert_allclose([float(g1), float(g2), float(g3)],
                               [4 * 1.5 ** 3, 12 * 1.5 ** 2, 24 * 1.5], rtol=1e-6)


def test_persistent_tape_two_gradients():
    f = tf.function(lambda x: x ** 3 * tf.sin(x))
    sq = tf.function(lambda x: x * x)
    x = tf.constant(1.5)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
        z = sq(y)
    # TF 2.21: 6.971829414367676, 46.94196701049805
    np.testing.assert_allclose([float(tape.gradient(y, x)), float(tape.gradient(z, x))],
                               [6.971829414367676, 46.94196701049805], rtol=1e-6)


def test_persistent_tape_gradient_inside_its_block_is_recorded():
    f = tf.function(lambda x: tf.sin(x) * x)
    x = tf.constant(0.7)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
        g = tape.gradient(y, x)
    h = tape.gradient(g, x)
    expected = 2 * np.cos(0.7) - 0.7 * np.sin(0.7)
    np.testing.assert_allclose(float(h), expected, rtol=1e-5)


# --- Variables and watched tensors ---------------------------------------------------

def _linear():
    w = tf.Variable([[1.0, -2.0], [0.5, 3.0]])
    b = tf.Variable([0.1, -0.1], trainable=False)

    def lin(x):
        return tf.reduce_sum(tf.tanh(tf.matmul(x, w) + b))
    return w, b, lin


@pytest.mark.parametrize("staged", [True, False])
def test_variables_read_inside_are_watched(staged):
    w, b, lin = _linear()
    fn = tf.function(lin) if staged else lin
    x = tf.constant([[0.3, -0.7]])
    with tf.GradientTape() as tape:
        y = fn(x)
    assert tape.watched_variables() == (w,)
    gw, gb, gx = tape.gradient(y, [w, b, x])
    # TF 2.21: the trainable w only; b is not trainable, x not watched
    np.testing.assert_allclose(gw, [[0.29925126, 0.00440481], [-0.6982529, -0.0102779]],
                               rtol=1e-5, atol=1e-7)
    assert gb is None and gx is None


@pytest.mark.parametrize("staged", [True, False])
def test_watch_accessed_variables_false(staged):
    w, b, lin = _linear()
    fn = tf.function(lin) if staged else lin
    x = tf.constant([[0.3, -0.7]])
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(b)
        y = fn(x)
    gw, gb = tape.gradient(y, [w, b])
    assert gw is None
    np.testing.assert_allclose(gb, [0.9975042, 0.01468271], rtol=1e-5)   # TF 2.21
    assert tape.watched_variables() == (b,)


def test_variable_argument_and_captured_tensor():
    @tf.function
    def f(v, x):
        return tf.reduce_sum(v * v * x)

    v1, v2 = tf.Variable([1.0, 2.0]), tf.Variable([3.0, -1.0])
    x = tf.constant([0.5, 2.0])
    for v in (v1, v2):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(v, x)
        gv, gx = tape.gradient(y, [v, x])
        np.testing.assert_allclose(gv, 2 * v.numpy() * x.numpy())
        np.testing.assert_allclose(gx, v.numpy() ** 2)
    assert f.experimental_get_tracing_count() == 1



def test_a_watched_tensor_the_function_closes_over():
    """The trace made `c` a constant; under a tape watching it, the call runs
    the Python eagerly (a documented fallback) and the gradient is TF's."""
    c = tf.constant(2.0)
    g = tf.function(lambda: c * c * 3.0)
    g()
    with tf.GradientTape() as tape:
        tape.watch(c)
        y = g()
    assert float(y) == 12.0 and float(tape.gradient(y, c)) == 12.0     # TF 2.21: 12.0
    with tf.GradientTape() as tape:
        y = g()
    assert [r.op for r in tape._records] == []


def test_unconnected_sources():
    @tf.function
    def first(x, z):
        return x * 2.0

    @tf.function
    def two(x, z):
        return x * 2.0, z * 3.0

    x, z = tf.constant(1.5), tf.constant(4.0)
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        a = first(x, z)
    gx, gz = tape.gradient(a, [x, z])
    assert float(gx) == 2.0 and gz is None                     # TF 2.21: 2.0, None
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        a, _ = two(x, z)
    gx, gz = tape.gradient(a, [x, z])
    assert float(gx) == 2.0 and float(gz) == 0.0               # TF 2.21: 2.0, 0.0
    with tf.GradientTape() as tape:
        tape.watch([x, z])
        a = first(x, z)
    gz = tape.gradient(a, z, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    assert float(gz) == 0.0
    w = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        a = first(x, z)
    assert tape.gradient(a, w) is None


def test_jacobian_and_batch_jacobian():
    vec = tf.function(lambda x: tf.sin(x) * tf.reduce_sum(x))
    x = tf.constant([0.5, -1.2, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = vec(x)
    # TF 2.21's jacobian
    np.testing.assert_allclose(tape.jacobian(y, x), [
        [1.620282769203186, 0.4794255495071411, 0.4794255495071411],
        [-0.9320390820503235, -0.4609740674495697, -0.9320390820503235],
        [0.9092974066734314, 0.9092974066734314, 0.3683065176010132]], rtol=1e-5)
    rowwise = tf.function(lambda x: tf.sin(x) * x)
    xb = tf.constant([[0.5, 1.0], [2.0, -1.0]])
    with tf.GradientTape() as tape:
        tape.watch(xb)
        y = rowwise(xb)
    np.testing.assert_allclose(tape.batch_jacobian(y, xb), [
        [[0.9182168245315552, 0.0], [0.0, 1.3817732334136963]],
        [[0.07700371742248535, 0.0], [0.0, -1.3817732334136963]]], rtol=1e-5, atol=1e-7)


# --- nested functions -----------------------------------------------------------------

def test_custom_gradient_inside_to_second_order():
    @tf.custom_gradient
    def square(x):
        def grad(upstream):          # closes over the forward tensor x
            return upstream * 2.0 * x
        return x * x, grad

    def f(x):
        return tf.reduce_sum(square(tf.sin(x)))

    x = tf.constant([0.2, -0.5, 1.0])
    y, g, h = _second_order(tf.function(f), x)
    _, g_eager, h_eager = _second_order(f, x)
    np.testing.assert_allclose(g, np.sin(2 * x.numpy()), rtol=1e-6)
    np.testing.assert_allclose(h, 2 * np.cos(2 * x.numpy()), rtol=1e-5)
    np.testing.assert_allclose(g, g_eager, rtol=1e-6)
    np.testing.assert_allclose(h, h_eager, rtol=1e-6)


def test_nested_functions_are_not_run_again():
    m = [0]

    @tf.function
    def inner(x):
        m[0] += 1
        return tf.exp(x) * x

    @tf.function
    def outer(x):
        return inner(x) + inner(2.0 * x)

    x = tf.constant(1.5)
    for _ in range(3):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = outer(x)
        g = tape.gradient(y, x)
    # TF 2.21: 66.97914123535156, 171.88851928710938 (and inner traced once: its
    # two call sites are inlined here, each traced once; see docs/tf_differences.md)
    np.testing.assert_allclose([float(y), float(g)],
                               [66.97914123535156, 171.88851928710938], rtol=1e-6)
    assert m == [2]


# --- stateful ops -------------------------------------------------------------------

def test_variable_assignment_runs_once_per_call():
    count = tf.Variable(0.0)

    @tf.function
    def f(x):
        count.assign_add(1.0)
        return x * count

    x = tf.constant(1.5)
    for step in range(1, 4):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        assert float(tape.gradient(y, x)) == step and float(count) == step
    # TF 2.21 after one call: y 1.5, gradient 1.0, count 1.0


def test_random_values_are_the_ones_differentiated():
    @tf.function
    def f(x):
        r = tf.random.uniform([3], seed=1)
        return x * r, r

    x = tf.constant([0.5, -1.2, 2.0])
    for _ in range(2):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y, r = f(x)
        np.testing.assert_array_equal(tape.gradient(y, x), r)   # TF 2.21: equal too


def test_print_and_py_function_inside(capsys):
    @tf.function
    def f(x):
        tf.print("value", x, output_stream=sys.stdout)
        y = tf.py_function(lambda a: a * a, [x], tf.float32)
        return y * x

    x = tf.constant(2.0)
    for _ in range(2):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        assert float(tape.gradient(y, x)) == 12.0              # d(x^3)/dx at 2
    assert capsys.readouterr().out == "value 2\nvalue 2\n"


def test_an_op_without_gradient_falls_back_to_op_by_op():
    n = [0]

    @tf.function
    def f(x):
        n[0] += 1
        u, _ = tf.unique(x)
        return x * 2.0, tf.reduce_sum(u)

    x = tf.constant([0.5, -1.2, 0.5])
    for _ in range(2):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            a, c = f(x)
        np.testing.assert_array_equal(tape.gradient(a, x), [2.0, 2.0, 2.0])
        with pytest.raises(LookupError, match="No gradient defined for operation 'Unique'"):
            tape.gradient(c, x)
    assert n == [1]
    form = next(iter(f.get_concrete_function(x)._taped._forms.values()))
    assert isinstance(form.fallback, LookupError)


# --- signatures and concrete functions ---------------------------------------------------

def test_input_signature_and_concrete_function():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        i = tf.constant(0)
        while i < 2:
            x = x * x
            i += 1
        return tf.reduce_sum(x)

    x = tf.constant([1.0, 2.0])
    for call in (f, f.get_concrete_function()):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = call(x)
        np.testing.assert_allclose(tape.gradient(y, x), 4 * x.numpy() ** 3)
    assert f.experimental_get_tracing_count() == 1


# --- a Keras model in a hand-written training loop -----------------------------------------

def _keras_run(staged):
    keras = tf.keras
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh"),
                              keras.layers.Dense(2)])
    model.set_weights([
        np.array([[0.1, -0.2, 0.3, 0.4], [0.5, 0.1, -0.3, 0.2], [-0.1, 0.2, 0.1, -0.4]],
                 np.float32),
        np.array([0.0, 0.1, -0.1, 0.05], np.float32),
        np.array([[0.3, -0.1], [0.2, 0.4], [-0.5, 0.1], [0.1, 0.2]], np.float32),
        np.array([0.01, -0.02], np.float32)])
    x = np.array([[1.0, 2.0, -1.0], [0.5, -0.5, 2.0]], np.float32)
    y = np.array([[1.0, 0.0], [0.0, 1.0]], np.float32)
    calls = [0]

    def forward(xb):
        calls[0] += 1
        return model(xb)
    if staged:
        forward = tf.function(forward)
    opt = keras.optimizers.SGD(0.1)
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(forward(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
    return float(loss), calls[0], model.get_weights()


def test_keras_model_call_traced_in_a_hand_written_loop():
    loss, calls, weights = _keras_run(staged=True)
    eager_loss, _, eager_weights = _keras_run(staged=False)
    assert calls == 1                                      # TF 2.21: traced once
    np.testing.assert_allclose(loss, 0.1554262638092041, rtol=1e-6)   # TF 2.21
    np.testing.assert_allclose(loss, eager_loss, rtol=1e-6)
    for w, e in zip(weights, eager_weights):
        np.testing.assert_allclose(w, e, rtol=1e-6, atol=1e-7)
    # TF 2.21's weights after the 3 steps
    np.testing.assert_allclose(weights[1], [0.00286, 0.160275, -0.12444, 0.069702], atol=2e-6)
    np.testing.assert_allclose(weights[3], [0.101645, 0.104629], atol=2e-6)
    np.testing.assert_allclose(weights[2], [[0.331933, -0.14399], [0.209629, 0.449043],
                                            [-0.513327, 0.144736], [0.12641, 0.136032]],
                               atol=2e-6)


def test_the_backward_is_built_once_per_trace():
    builds = []
    real = function_call._Form._backward

    def counting(self, targets, extend=False):
        builds.append(targets)
        return real(self, targets, extend)

    @tf.function
    def f(x):
        return tf.reduce_sum(tf.sin(x) * x)

    x = tf.constant([0.5, 1.0])
    function_call._Form._backward = counting
    try:
        for _ in range(4):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = f(x)
            tape.gradient(y, x)
    finally:
        function_call._Form._backward = real
    assert len(builds) == 1


# --- loops over TensorArrays, nested loops, Keras RNN and Dropout -----------------------

def _nested_loops(x):
    s = tf.constant(0.0)
    for i in tf.range(2):
        for j in tf.range(3):        # captures x from two graphs out
            s += tf.reduce_sum(tf.sin(x * tf.cast(i + j, tf.float32)))
    return s


def _tensor_array(x):
    arr = tf.TensorArray(tf.float32, size=3)
    for i in tf.range(3):
        arr = arr.write(i, x[0] * tf.cast(i, tf.float32) + x[1])
    return tf.reduce_sum(arr.stack() ** 2)


@pytest.mark.parametrize("fn", [
    _nested_loops, _tensor_array,
    lambda x: tf.reduce_sum(tf.map_fn(lambda r: tf.sin(r) * r, x)),
    lambda x: tf.reduce_sum(tf.scan(lambda a, r: a * r + 1.0, x)),
], ids=["nested_loops", "tensor_array", "map_fn", "scan"])
def test_loops_match_the_eager_gradients(fn):
    x = tf.constant(np.linspace(-1, 1, 6).reshape(2, 3).astype(np.float32))
    staged = _second_order(tf.function(fn), x)
    eager = _second_order(fn, x)
    for got, want in zip(staged, eager):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_keras_lstm_under_a_taped_function():
    """The LSTM's fused custom gradient holds tensors the optimizer removed
    from the trace (unused by the forward): they are made again for it."""
    keras = tf.keras
    model = keras.Sequential([keras.Input((4, 3)), keras.layers.LSTM(5), keras.layers.Dense(1)])
    x = tf.constant(np.random.default_rng(0).normal(size=(2, 4, 3)).astype(np.float32))
    results = []
    for fn in (tf.function(lambda z: model(z)), lambda z: model(z)):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(fn(x) ** 2)
        results.append([y] + tape.gradient(y, model.trainable_variables))
    for got, want in zip(*results):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def test_dropout_gradient_uses_the_forward_mask():
    drop = tf.keras.layers.Dropout(0.5, seed=3)
    w = tf.Variable(np.ones((4, 5), np.float32))
    f = tf.function(lambda x: drop(x * w, training=True))
    x = tf.constant(np.arange(1, 21, dtype=np.float32).reshape(4, 5))
    with tf.GradientTape() as tape:
        y = f(x)
    g = tape.gradient(y, w)
    np.testing.assert_allclose(g, y)             # w is ones: dy/dw == x * mask / 0.5 == y
    assert 0 < int(np.sum(y.numpy() == 0)) < 20


def test_loaded_function_with_a_loop_under_a_tape(tmp_path):
    class Powers(tf.Module):
        def __init__(self):
            self.w = tf.Variable(1.5)

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def __call__(self, x):
            i = tf.constant(0)
            while i < 3:
                x = x * self.w
                i += 1
            return x

    tf.saved_model.save(Powers(), str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = loaded(x)
    assert [r.op for r in tape._records] == ["StatefulPartitionedCall"]
    gx, gw = tape.gradient(y, [x, loaded.trainable_variables[0]])
    # x * w**3: TF's values are the calculus: 6.75, 3.375, 13.5
    assert (float(y), float(gx), float(gw)) == (6.75, 3.375, 13.5)


def test_variables_read_in_a_loop_and_a_branch_to_second_order():
    w, u = tf.Variable(1.5), tf.Variable(-0.5)

    def f(x):
        i = tf.constant(0)
        while i < 3:
            x = x * w + tf.sin(x)
            i += 1
        if x > 0:
            y = x * u
        else:
            y = x * w
        return y

    x = tf.constant(0.3)
    results = []
    for fn in (tf.function(f), f):
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = fn(x)
            g = inner.gradient(y, [w, u])
        assert inner.watched_variables() == (w, u)
        results.append(g + outer.gradient(g[0], [w, u]))
    for got, want in zip(*results):
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_outputs_without_gradient_get_a_smaller_backward():
    @tf.function
    def f(x):
        return tf.reduce_sum(tf.sin(x)), tf.matmul(x, x), tf.exp(x)

    x = tf.constant(np.eye(3, dtype=np.float32) * 0.5)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a, b, c = f(x)
    np.testing.assert_allclose(tape.gradient(a, x), np.cos(x.numpy()), rtol=1e-6)
    np.testing.assert_allclose(tape.gradient([a, c], x), np.cos(x.numpy()) + np.exp(x.numpy()),
                               rtol=1e-6)
    np.testing.assert_allclose(tape.gradient(b, x), np.ones((3, 3)) @ x.numpy().T
                               + x.numpy().T @ np.ones((3, 3)), rtol=1e-6)
    form = next(iter(f.get_concrete_function(x)._taped._forms.values()))
    ops = {n.op for n in form._backwards[(0,)].function.graph.nodes}
    assert "MatMul" not in ops and "Exp" not in ops
