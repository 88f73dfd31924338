"""GradientTape semantics: watching, Variables, persistence, unconnected
sources, nested structures, higher order, errors (TensorFlow's behaviour)."""

import warnings

import numpy as np
import pytest

import runtime as tf


def both(fn):
    """Run `fn` eagerly and as a tf.function; return both results as numpy."""
    eager = tf.nest.map_structure(lambda t: None if t is None else t.numpy(), fn())
    staged = tf.nest.map_structure(lambda t: None if t is None else t.numpy(),
                                   tf.function(fn)())
    return eager, staged


def test_watch_a_constant():
    x = tf.constant(3.0)

    def f():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        return tape.gradient(y, x)
    assert both(f) == (6.0, 6.0)


def test_unwatched_constant_gives_none():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None


def test_trainable_variables_are_watched_automatically():
    v = tf.Variable(2.0)
    frozen = tf.Variable(5.0, trainable=False)

    def f():
        with tf.GradientTape() as tape:
            y = v * v * frozen
        return tape.gradient(y, [v, frozen])
    (ev, ef), (sv, sf) = both(f)
    assert ev == sv == 20.0 and ef is None and sf is None


def test_watch_accessed_variables_false():
    v, w = tf.Variable(2.0), tf.Variable(3.0)

    def f():
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(w)
            y = v * w
        return tape.gradient(y, [v, w])
    assert both(f) == ([None, 2.0], [None, 2.0])


def test_watched_variables():
    v, w = tf.Variable(2.0), tf.Variable(3.0, trainable=False)
    with tf.GradientTape() as tape:
        _ = v * w
    assert tape.watched_variables() == (v,)


def test_values_computed_before_the_tape_are_constants():
    # and not sources: y's gradient is None, in tf.function too
    x = tf.constant(2.0)

    def f():
        y = x * 3.0
        with tf.GradientTape() as tape:
            tape.watch(x)
            z = y * x
        return tape.gradient(z, [x, y])
    assert both(f) == ([6.0, None], [6.0, None])


def test_non_persistent_tape_used_twice():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="A non-persistent GradientTape can only be used to "
                                           r"compute one set of gradients \(or jacobians\)"):
        tape.gradient(y, x)


def test_persistent_tape():
    x = tf.constant(3.0)

    def f():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x * x
            z = y * y
        return tape.gradient(y, x), tape.gradient(z, x)
    assert both(f) == ((6.0, 108.0), (6.0, 108.0))


def test_unconnected_sources():
    x, z = tf.constant(3.0), tf.constant([1.0, 2.0])

    def f():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, z])
            y = x * x
        return (tape.gradient(y, [x, z]),
                tape.gradient(y, [x, z], unconnected_gradients=tf.UnconnectedGradients.ZERO),
                tape.gradient(y, z, unconnected_gradients="zero"))
    for none, zero, zero2 in both(f):
        assert none == [6.0, None]
        assert zero[0] == 6.0 and list(zero[1]) == [0.0, 0.0] and list(zero2) == [0.0, 0.0]


def test_unknown_unconnected_value():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2
    with pytest.raises(ValueError, match="Unknown value for unconnected_gradients: 'bogus'"):
        tape.gradient(y, x, unconnected_gradients="bogus")


def test_nested_sources_and_targets_with_output_gradients():
    x = tf.constant(3.0)

    def f():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        return tape.gradient([y, y], {"a": x, "b": [x]}, output_gradients=[2.0, 3.0])
    assert both(f) == ({"a": 30.0, "b": [30.0]},) * 2


def test_target_is_the_source():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
    assert tape.gradient(x, x).numpy() == 1.0


def test_stop_gradient_and_stop_recording():
    x = tf.constant(3.0)

    def f():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = tf.stop_gradient(x * x) * x
            with tape.stop_recording():
                z = x * x
            w = z * x
        return tape.gradient(y, x), tape.gradient(w, x)
    assert both(f) == ((9.0, 9.0), (9.0, 9.0))


def test_second_derivative_with_nested_tapes():
    x = tf.constant(2.0)

    def f():
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = x * x * x
            dy = inner.gradient(y, x)
        return dy, outer.gradient(dy, x)
    assert both(f) == ((12.0, 12.0), (12.0, 12.0))


def test_second_derivative_through_matmul_and_tanh():
    a = tf.constant(np.array([[0.3, -0.2], [0.5, 0.1]]))
    x = tf.constant(np.array([[0.4], [-0.7]]))

    def f():
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(tf.tanh(tf.matmul(a, x)))
            g = inner.gradient(y, x)
            s = tf.reduce_sum(g * g)
        return outer.gradient(s, x)
    eager, staged = both(f)
    # d/dx sum((A^T (1 - tanh(Ax)^2))^2), by hand
    xv, av = x.numpy(), a.numpy()
    t = np.tanh(av @ xv)
    g = av.T @ (1 - t ** 2)
    expected = av.T @ ((av @ (2 * g)) * (-2 * t * (1 - t ** 2)))
    np.testing.assert_allclose(eager, expected)
    np.testing.assert_allclose(staged, expected)


def test_cast_between_floats_passes_gradients_and_int_casts_stop_them():
    x = tf.constant(1.5, tf.float64)

    def f():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = tf.cast(tf.cast(x, tf.float32), tf.float64) * 2.0
            z = tf.cast(tf.cast(x, tf.int32), tf.float64) * 2.0
        return tape.gradient(y, x), tape.gradient(z, x)
    assert both(f) == ((2.0, None), (2.0, None))


def test_integer_and_string_targets_give_none():
    # TF 2.21: a target that is not floating is not differentiated (None, or
    # zeros with unconnected_gradients='zero'); a float target beside it counts.
    x = tf.constant(1.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.cast(x, tf.int32)
        z = x * 3.0
    assert tape.gradient(y, x) is None
    assert tape.gradient(tf.constant("a"), x) is None
    assert tape.gradient(y, x, output_gradients=tf.constant(3)) is None
    assert float(tape.gradient(y, x, unconnected_gradients="zero")) == 0.0
    assert float(tape.gradient([y, z], x)) == 3.0


def test_none_target():
    with tf.GradientTape() as tape:
        pass
    with pytest.raises(TypeError, match="Argument `target` should be a list or nested "
                                        "structure of Tensors"):
        tape.gradient(None, tf.constant(1.0))


def test_integer_source_warns_and_gives_none():
    x = tf.constant(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cast(x, tf.float32) * 2.0
        assert tape.gradient(y, x) is None
    assert any("must be floating" in str(w.message) for w in caught)


def test_watch_a_python_number():
    with tf.GradientTape() as tape:
        with pytest.raises(ValueError, match="Passed in object 3.0 of type 'float', not "
                                             "tf.Tensor or tf.Variable"):
            tape.watch(3.0)


def test_op_without_gradient_names_op_and_line():
    x = tf.constant(np.array([1.0, 2.0]))

    @tf.function
    def f():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.unique(x).y * 2.0
        return tape.gradient(y, x)
    with pytest.raises(LookupError) as info:
        f()
    message = str(info.value)
    assert "No gradient defined for operation" in message and "Unique" in message
    assert "test_gradients_tape.py" in message


def test_jacobian():
    x = tf.constant(np.array([1.0, 2.0]))

    def f():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.stack([x[0] * x[1], x[0] * 3.0, x[1] * x[1]])
        return tape.jacobian(y, x)
    eager, staged = both(f)
    expected = [[2.0, 1.0], [3.0, 0.0], [0.0, 4.0]]
    np.testing.assert_allclose(eager, expected)
    np.testing.assert_allclose(staged, expected)


def test_gradient_inside_the_with_block():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        g = tape.gradient(y, x)
    assert g.numpy() == 6.0


def test_mlp_training_step_learns():
    rng = np.random.default_rng(0)
    w1 = tf.Variable(rng.normal(0, 0.1, (4, 8)).astype(np.float32))
    b1 = tf.Variable(np.zeros(8, np.float32))
    w2 = tf.Variable(rng.normal(0, 0.1, (8, 3)).astype(np.float32))
    b2 = tf.Variable(np.zeros(3, np.float32))
    x = tf.constant(rng.normal(size=(32, 4)).astype(np.float32))
    labels = tf.constant(np.argmax(x.numpy() @ rng.normal(size=(4, 3)), axis=1).astype(np.int32))

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(x, w1) + b1)
            logits = tf.matmul(h, w2) + b2
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=labels, logits=logits))
        grads = tape.gradient(loss, [w1, b1, w2, b2])
        for v, g in zip([w1, b1, w2, b2], grads):
            v.assign_sub(0.5 * g)
        return loss
    losses = [float(step()) for _ in range(30)]
    assert losses[-1] < losses[0] * 0.8


def test_eager_tape_sees_through_a_tf_function_call():
    v = tf.Variable(np.array([1.0, 2.0]))

    @tf.function
    def model(x):
        return tf.reduce_sum(tf.sin(x) * v)
    x = tf.constant(np.array([0.5, 0.25]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = model(x)
    gx, gv = tape.gradient(y, [x, v])
    np.testing.assert_allclose(gx.numpy(), np.cos([0.5, 0.25]) * [1.0, 2.0])
    np.testing.assert_allclose(gv.numpy(), np.sin([0.5, 0.25]))


def test_jacobian_of_an_unconnected_source_is_none():
    x, z = tf.constant([1.0, 2.0]), tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, z])
        y = x * 2.0
    assert tape.jacobian(y, z) is None
    np.testing.assert_allclose(tape.jacobian(y, z, unconnected_gradients="zero").numpy(), [0, 0])


def test_eager_loop_and_cond_in_python_are_recorded():
    x = tf.constant(0.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(3):
            y = tf.sin(y) if float(y) > 0 else y * 2.0
    expected = np.cos(0.5) * np.cos(np.sin(0.5)) * np.cos(np.sin(np.sin(0.5)))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), expected, rtol=1e-6)


def test_tf_gradients_in_a_graph():
    @tf.function
    def f(x):
        y = x * x * 3.0
        z = tf.stop_gradient(y) * x
        return tf.gradients(y, x)[0], tf.gradients([y, z], [x, y]), tf.gradients(y, [z])
    g, (gx, gy), unconnected = f(tf.constant(2.0))
    assert float(g) == 12.0 and float(gx) == 12.0 + 12.0 and float(gy) == 1.0
    assert unconnected == [None]


def test_tf_gradients_eagerly_is_an_error():
    with pytest.raises(RuntimeError, match="tf.gradients is not supported when eager "
                                           "execution is enabled"):
        tf.gradients(tf.constant(1.0), tf.constant(1.0))


# --- batch_jacobian and jacobians of dynamic shapes -------------------------------------

M = np.arange(6.0).reshape(3, 2) / 10


def _batch_jacobian(fn, source=None, **kwargs):
    m = tf.constant(M)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(m)
            y = fn(m)
        return tape.batch_jacobian(y, m if source is None else source, **kwargs)
    return run


def test_batch_jacobian():
    def fn(m):                   # y[b, i, j] = sin(m[b, i]) * m[b, j]
        return tf.sin(m)[:, :, None] * m[:, None, :]
    expected = np.zeros((3, 2, 2, 2))
    for b in range(3):
        for i in range(2):
            for j in range(2):
                expected[b, i, j, i] += np.cos(M[b, i]) * M[b, j]
                expected[b, i, j, j] += np.sin(M[b, i])
    eager, staged = both(_batch_jacobian(fn))
    np.testing.assert_allclose(eager, expected)
    np.testing.assert_allclose(staged, expected)


def test_batch_jacobian_through_a_loop_with_a_dynamic_batch():
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float64)])
    def f(m):
        with tf.GradientTape() as tape:
            tape.watch(m)
            y = tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, tf.tanh(y) * m), [0, m])[1]
        return tape.batch_jacobian(y, m)
    t = np.tanh(M)
    d = (1 - np.tanh(t * M) ** 2) * (t + (1 - t ** 2) * M) * M + np.tanh(t * M)
    expected = np.stack([np.diag(row) for row in d])
    np.testing.assert_allclose(f(tf.constant(M)).numpy(), expected)


def test_batch_jacobian_unconnected_and_integer_targets_are_zeros():
    # as TensorFlow: zeros (of the target's dtype) whatever unconnected_gradients says
    eager, staged = both(_batch_jacobian(lambda m: tf.constant(np.ones((3, 2)))))
    assert eager.shape == staged.shape == (3, 2, 2) and not eager.any() and not staged.any()
    eager, staged = both(_batch_jacobian(lambda m: tf.cast(m * 10, tf.int32)))
    assert eager.dtype == staged.dtype == np.int32 and eager.shape == (3, 2, 2)


def test_batch_jacobian_errors():
    with pytest.raises(ValueError, match=r"Shape \(3,\) must have rank at least 2"):
        _batch_jacobian(lambda m: tf.reduce_sum(m, 1))()
    with pytest.raises(ValueError, match=r"Shape \(3,\) must have rank at least 2"):
        _batch_jacobian(lambda m: m * 2.0, source=tf.constant([1.0, 2.0, 3.0], tf.float64))()
    with pytest.raises(ValueError, match=r"Need first dimension of target shape \(\(2, 2\)\) "
                                         r"and source shape \(\(3, 2\)\) to match."):
        _batch_jacobian(lambda m: m[:2] * 2.0)()
    m = tf.constant(M)
    with tf.GradientTape() as tape:
        tape.watch(m)
        y = m * 2.0
    tape.batch_jacobian(y, m)
    with pytest.raises(RuntimeError, match="A non-persistent GradientTape can only be used"):
        tape.batch_jacobian(y, m)


def test_jacobian_of_a_dynamic_shape_in_tf_function():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float64)])
    def f(v):
        with tf.GradientTape() as tape:
            tape.watch(v)
            y = tf.sin(v) * 2.0
        return tape.jacobian(y, v)
    np.testing.assert_allclose(f(tf.constant([1.0, 2.0], tf.float64)).numpy(),
                               np.diag(2 * np.cos([1.0, 2.0])))


def test_large_jacobian_in_a_graph_is_one_loop():
    x = tf.constant(np.linspace(0.0, 1.0, 40))
    z = tf.constant(3.0, tf.float64)

    def f():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, z])
            y = tf.sin(x) * x
        return tape.jacobian(y, [x, z]), tape.jacobian(y, z, unconnected_gradients="zero")
    (jac, unconnected), zeros = tf.function(f)()
    xv = x.numpy()
    np.testing.assert_allclose(jac.numpy(), np.diag(np.cos(xv) * xv + np.sin(xv)))
    assert unconnected is None and zeros.shape == (40,) and not zeros.numpy().any()
    graph = tf.function(f).get_concrete_function().graph
    assert sum(n.op == "While" for n in graph.nodes) == 2


def test_jacobian_of_a_list_target_is_an_error_as_in_tensorflow():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    with pytest.raises(AttributeError, match="'list' object has no attribute 'shape'"):
        tape.jacobian([y, y], x)


# --- corners found by tools/tape_diff.py (TensorFlow's behaviour) ---------------------

def test_target_that_is_a_source_gets_its_weight_watched_or_not():
    x = tf.constant([1.0, 2.0])
    v = tf.Variable([3.0, 4.0])

    def f():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
        return tape.gradient(x, x), tape.gradient(v, v)
    for gx, gv in both(f):
        assert list(gx) == [1.0, 1.0] and list(gv) == [1.0, 1.0]
    y = tf.constant(2.0)
    with tf.GradientTape() as tape:
        pass
    assert float(tape.gradient(y, y)) == 1.0


def test_a_none_output_gradient_is_an_error():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(ValueError, match=r"Attempt to convert a value \(None\) with an "
                                         "unsupported type"):
        tape.gradient([y, y], x, output_gradients=[tf.constant(1.0), None])


def test_one_shot_tape_keeps_its_watched_variables():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = v * v
    tape.gradient(y, v)
    assert tape.watched_variables() == (v,)


def test_reset_and_stop_recording_need_a_recording_tape():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        tape.reset()
        z = x * 5.0
    assert tape.gradient([y, z], x) is None
    with pytest.raises(ValueError, match="Tape is not recording."):
        tape.reset()
    with pytest.raises(RuntimeError, match="Trying to stop recording a tape which is not "
                                           "recording."):
        with tape.stop_recording():
            pass


def test_unconnected_zero_for_integer_sources_is_integer_zeros():
    x, v = tf.constant([1, 2]), tf.Variable(3)

    def f():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.cast(x, tf.float32)) * tf.cast(v, tf.float32)
        return tape.gradient(y, [x, v], unconnected_gradients="zero")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for gx, gv in both(f):
            assert gx.dtype == np.int32 and list(gx) == [0, 0] and gv == 0 and gv.dtype == np.int32


def test_python_number_target_is_a_type_error():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
    with pytest.raises(TypeError, match="the target must be a Tensor or Variable, got 3.0 of "
                                        "type float"):
        tape.gradient(3.0, x)
