"""The kernels a training step spends its time in, and the invariants their fast
paths must keep: the fused sparse cross-entropy (loss and backprop from one
softmax, as TensorFlow's kernel), ReluGrad's NaN behaviour, and Variable
updates that run in place only when no one can see the old value."""

import re

import numpy as np
import pytest

import runtime as tf
from runtime._src.graph.op_registry import OPS
from tests.runtime.gradient_check import check_gradients, check_second_order


def _xent(logits, labels):
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)


# --- fused sparse softmax cross-entropy ------------------------------------------

def _reference(logits, labels):
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    loss = -np.take_along_axis(log_p, labels[..., None], axis=-1)[..., 0]
    backprop = np.exp(log_p)
    np.put_along_axis(backprop, labels[..., None],
                      np.take_along_axis(backprop, labels[..., None], axis=-1) - 1, axis=-1)
    return loss, backprop


@pytest.mark.parametrize("shape", [(6, 4), (2, 3, 5), (0, 3), (1, 1), (3, 7), (200, 150)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fused_kernel_gives_loss_and_backprop(shape, dtype):
    rng = np.random.default_rng(3)
    logits = (rng.standard_normal(shape) * 30).astype(dtype)   # large: needs the row shift
    labels = rng.integers(0, shape[-1], shape[:-1]).astype(np.int32)
    loss, backprop = OPS["SparseSoftmaxCrossEntropyWithLogits"].kernel(logits, labels)
    want_loss, want_backprop = _reference(logits.astype(np.float64), labels)
    assert loss.dtype == backprop.dtype == dtype
    assert loss.shape == shape[:-1] and backprop.shape == shape
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(loss, want_loss, rtol=tol, atol=tol)
    np.testing.assert_allclose(backprop, want_backprop, rtol=tol, atol=tol)


@pytest.mark.parametrize("bad", [-1, 4, 2**31 - 1])
@pytest.mark.parametrize("label_dtype", [np.int32, np.int64])
def test_out_of_range_label_is_invalid_argument(bad, label_dtype):
    labels = np.array([0, bad, 1], label_dtype)
    logits = tf.constant(np.zeros((3, 4), np.float32))
    message = (f"Received a label value of {bad} which is outside the valid range of "
               rf"\[0, 4\).  Label values: 0 {bad} 1")
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        _xent(logits, tf.constant(labels))
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.function(_xent)(logits, tf.constant(labels))


def test_first_order_gradient_is_the_backprop_output_only():
    # The loss's gradient is one multiply of the kernel's backprop output: no
    # second softmax and no zeros for the unused output in the graph.
    rng = np.random.default_rng(4)
    logits = tf.constant(rng.standard_normal((5, 3)))
    labels = tf.constant(np.array([0, 2, 1, 1, 0], np.int32))

    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_mean(_xent(x, labels))
        return tape.gradient(loss, x)

    ops = [n.op for n in grad.get_concrete_function(logits).graph.nodes]
    assert ops.count("SparseSoftmaxCrossEntropyWithLogits") == 1
    assert "Softmax" not in ops and "ZerosLike" not in ops
    assert not [op for op in ops if op.endswith("Grad")]       # no separate backprop op
    _, backprop = _reference(logits.numpy(), labels.numpy())
    np.testing.assert_allclose(grad(logits).numpy(), backprop / 5, rtol=1e-12)


def test_gradients_match_finite_differences_first_and_second_order():
    rng = np.random.default_rng(5)
    logits = rng.standard_normal((4, 3))
    labels = tf.constant(np.array([2, 0, 1, 2], np.int32))
    check_gradients(lambda x: _xent(x, labels), [logits])
    check_gradients(lambda x: tf.reduce_mean(_xent(x, labels)), [logits])
    check_second_order(lambda x: _xent(x, labels), [logits])


# --- ReluGrad --------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # silenced outside pytest
def test_relu_gradient_multiplies_by_the_mask_as_tensorflow():
    # TF's ReluGrad is grad * (y > 0): a NaN or infinite gradient at a unit that is
    # off stays NaN (inf * 0), it is not masked to 0.
    grad = np.array([np.nan, np.inf, 1.0, np.nan, -np.inf, 2.0], np.float32)
    y = np.array([0.0, 0.0, 3.0, 0.0, 0.0, 0.0], np.float32)
    got = OPS["ReluGrad"].kernel(grad, y)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, [np.nan, np.nan, 1.0, np.nan, np.nan, 0.0])


# --- Variable updates in place ----------------------------------------------------

def _var(values=(1.0, 2.0, 3.0)):
    return tf.Variable(np.array(values, np.float32))


def test_update_is_in_place_when_only_the_variable_holds_the_value():
    v = _var()
    before = id(v._value)
    v.assign_sub(tf.constant(np.ones(3, np.float32)), read_value=False)
    v.assign_add(tf.constant(np.full(3, 0.5, np.float32)), read_value=False)
    assert id(v._value) == before
    np.testing.assert_array_equal(v.numpy(), [0.5, 1.5, 2.5])


@pytest.mark.parametrize("holder", ["read_value", "returned", "asarray", "view", "initial"])
def test_a_value_handed_out_never_changes(holder):
    source = np.array([1.0, 2.0, 3.0], np.float32)
    v = tf.Variable(source) if holder == "initial" else _var()
    held = {"read_value": lambda: v.read_value(),
            "returned": lambda: v.assign_add(tf.constant(np.zeros(3, np.float32))),
            "asarray": lambda: np.asarray(v),
            "view": lambda: np.asarray(v)[1:],
            "initial": lambda: source}[holder]()
    snapshot = np.array(held, copy=True)
    v.assign_sub(tf.constant(np.ones(3, np.float32)))
    v.assign_add(tf.constant(np.full(3, 10, np.float32)))
    np.testing.assert_array_equal(np.asarray(held), snapshot)
    np.testing.assert_array_equal(v.numpy(), np.array([1, 2, 3], np.float32) + 9)


def test_a_read_returned_by_a_graph_is_the_value_before_the_update():
    v = _var()

    @tf.function
    def f():
        old = v.read_value()
        doubled = old * 2
        v.assign_sub(doubled)
        return old, doubled

    old, doubled = f()
    np.testing.assert_array_equal(old.numpy(), [1, 2, 3])
    np.testing.assert_array_equal(doubled.numpy(), [2, 4, 6])
    np.testing.assert_array_equal(v.numpy(), [-1, -2, -3])


def test_eager_tape_keeps_the_value_it_recorded():
    v = _var((1.0, 2.0))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v)
        v.assign_sub(tf.constant(np.array([5.0, 5.0], np.float32)))
    # d/dv sum(v*v) at the value read (not the updated one) is 2v.
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(v.numpy(), [-4.0, -3.0])


def test_training_step_updates_weights_in_place_and_exactly():
    rng = np.random.default_rng(6)
    w0 = rng.standard_normal((4, 3)).astype(np.float32)
    x = rng.standard_normal((8, 4)).astype(np.float32)
    labels = rng.integers(0, 3, 8).astype(np.int32)
    w = tf.Variable(w0)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(_xent(tf.matmul(x, w), y))
        w.assign_sub(0.1 * tape.gradient(loss, w))
        return loss

    src = step.get_concrete_function(tf.constant(x), tf.constant(labels)).graph.python_source()
    assert "del ReadVariableOp" in src
    before = id(w._value)
    for _ in range(3):
        step(tf.constant(x), tf.constant(labels))
    assert id(w._value) == before
    expected = w0.copy()
    for _ in range(3):
        _, backprop = _reference((x @ expected).astype(np.float32), labels)
        expected = expected - np.float32(0.1) * (x.T @ (backprop / 8).astype(np.float32))
    np.testing.assert_allclose(w.numpy(), expected, rtol=1e-5, atol=1e-6)


def test_update_of_a_variable_read_inside_a_loop_stays_correct():
    v = _var()

    @tf.function
    def f(n):
        total = tf.zeros(3)
        for _ in tf.range(n):
            total += v.read_value()
        v.assign_sub(total)
        return total

    np.testing.assert_array_equal(f(tf.constant(2)).numpy(), [2, 4, 6])
    np.testing.assert_array_equal(v.numpy(), [-1, -2, -3])


def test_numpy_views_of_tensors_are_read_only_as_tensorflow():
    v = _var()
    t = v.read_value()                 # shares the Variable's array
    view = np.asarray(t)
    assert not view.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        view[0] = 100.0
    copy = np.asarray(v)               # a Variable gives a writable copy, as TF
    copy[0] = 100.0
    np.testing.assert_array_equal(v.numpy(), [1, 2, 3])
    np.testing.assert_array_equal(t.numpy(), [1, 2, 3])
    owned = t.numpy()                  # numpy() copies
    owned[1] = 50.0
    np.testing.assert_array_equal(v.numpy(), [1, 2, 3])
    assert np.asarray(t, dtype=np.float64).flags.writeable       # a converted copy


@pytest.mark.parametrize("staged", [False, True])
def test_an_assignment_returns_a_read_that_carries_the_variables_gradient(staged):
    # TF 2.21: y = v.assign(x * 2) is a read of v after the write, so d(5y)/dv = 5
    # and x gets None (writes are not differentiable); here 5 + 2 from assign_add.
    v = tf.Variable(1.0)

    def f(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            z = v.assign(x * 2) * 5 + v.assign_add(1.0) * 2
        return tape.gradient(z, v), tape.gradient(z, x), z

    gv, gx, z = (tf.function(f) if staged else f)(tf.constant(3.0))
    assert float(gv) == 7.0 and gx is None
    assert float(z) == 44.0 and float(v.numpy()) == 7.0


def test_eager_update_of_another_shape_is_invalid_argument_as_tensorflow():
    v = _var()
    for delta in ([1.0], 1.0):
        for update in (v.assign_add, v.assign_sub):
            shape = "[1]" if isinstance(delta, list) else "[]"
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=rf"Cannot update variable with shape \[3\] using a "
                                     rf"Tensor with shape {re.escape(shape)}, shapes must "
                                     "be equal"):
                update(delta)
    with pytest.raises(ValueError, match="incompatible"):         # a graph: while tracing
        tf.function(lambda: v.assign_add([1.0]))()
    np.testing.assert_array_equal(v.numpy(), [1, 2, 3])
