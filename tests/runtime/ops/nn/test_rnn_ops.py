"""The fused LSTM step ops `LSTMStep` and `LSTMStepGrad` (runtime/_src/ops/rnn_ops.py):
records against float64 references written from the LSTM's equations, run
eagerly and inside `tf.function` (and through ONNX Runtime by
tests/onnx_export/test_onnx_ops.py); the same bits as the step written with
plain ops; gradients against a tape through plain ops; shape errors.
"""

import numpy as np
import pytest

import runtime as tf
from runtime._src.ops import rnn_ops
from tests.runtime.op_records import Rec, check_eager, check_in_function

RNG = np.random.RandomState(7)
B, U = 3, 4
Z = RNG.uniform(-2, 2, (B, 4 * U)).astype(np.float32)
H = RNG.uniform(-1, 1, (B, U)).astype(np.float32)
C = RNG.uniform(-2, 2, (B, U)).astype(np.float32)
RK = RNG.uniform(-0.5, 0.5, (U, 4 * U)).astype(np.float32)
DH = RNG.uniform(-1, 1, (B, U)).astype(np.float32)
DC = RNG.uniform(-1, 1, (B, U)).astype(np.float32)


def _sig(x):
    return 1 / (1 + np.exp(-x))


def ref_step(z_x, h, c, rk):
    z = np.float64(z_x) + np.float64(h) @ np.float64(rk)
    i, f, g, o = _sig(z[:, :U]), _sig(z[:, U:2 * U]), np.tanh(z[:, 2 * U:3 * U]), \
        _sig(z[:, 3 * U:])
    c = f * c + i * g
    return np.concatenate([i, f, g, o], 1), c, o * np.tanh(c)


def ref_step_grad(gates, c, c_prev, dh, dc_next, rk):
    gates, c = np.float64(gates), np.float64(c)
    i, f, g, o = (gates[:, k * U:(k + 1) * U] for k in range(4))
    dc = dc_next + dh * o * (1 - np.tanh(c) ** 2)
    dz = np.concatenate([dc * g * i * (1 - i), dc * c_prev * f * (1 - f),
                         dc * i * (1 - g ** 2), dh * np.tanh(c) * o * (1 - o)], 1)
    return dz, dz @ np.float64(rk).T, dc * f


GATES, C_NEW, _ = (np.float32(v) for v in ref_step(Z, H, C, RK))
STEP_ARGS = [Z, H, C, RK]
GRAD_ARGS = [GATES, C_NEW, C, DH, DC, RK]

RECORDS = [
    Rec("lstm_step", rnn_ops.lstm_step, STEP_ARGS, {}, ref_step(*STEP_ARGS), np.float32),
    Rec("lstm_step_f64", rnn_ops.lstm_step, [np.float64(a) for a in STEP_ARGS], {},
        ref_step(*STEP_ARGS), np.float64, 1e-12),
    Rec("lstm_step_empty_batch", rnn_ops.lstm_step, [Z[:0], H[:0], C[:0], RK], {},
        tuple(r[:0] for r in ref_step(*STEP_ARGS)), np.float32),
    Rec("lstm_step_grad", rnn_ops.lstm_step_grad, GRAD_ARGS, {}, ref_step_grad(*GRAD_ARGS),
        np.float32),
    Rec("lstm_step_grad_f64", rnn_ops.lstm_step_grad, [np.float64(a) for a in GRAD_ARGS], {},
        ref_step_grad(*GRAD_ARGS), np.float64, 1e-12),
]


@pytest.mark.parametrize("rec", RECORDS, ids=str)
def test_eager(rec):
    check_eager(rec)


@pytest.mark.parametrize("rec", RECORDS, ids=str)
def test_in_function(rec):
    check_in_function(rec)


def plain_step(z_x, h, c, rk):
    """The step with one op per operation (what lstm_fused.py ran before the fused op)."""
    z = z_x + tf.matmul(h, rk)
    z_i, z_f, z_g, z_o = tf.split(z, 4, axis=1)
    i, f, g, o = tf.sigmoid(z_i), tf.sigmoid(z_f), tf.tanh(z_g), tf.sigmoid(z_o)
    c = f * c + i * g
    return tf.concat([i, f, g, o], 1), c, o * tf.tanh(c)


def test_the_fused_step_gives_the_bits_of_the_plain_ops():
    fused = rnn_ops.lstm_step(*STEP_ARGS)
    for a, b in zip(fused, plain_step(*[tf.constant(a) for a in STEP_ARGS])):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


@pytest.mark.parametrize("weights", [(1.0, 0.5, -2.0), (0.0, 0.5, -2.0)],
                         ids=["gates_used", "gates_unused"])
def test_gradient_of_the_step_matches_the_plain_ops(weights):
    w_gates, w_c, w_h = weights
    args = [tf.constant(a) for a in STEP_ARGS]

    def loss(step, *args):
        gates, c, h = step(*args)
        total = w_c * tf.reduce_sum(tf.sin(c)) + w_h * tf.reduce_sum(h * h)
        return total + w_gates * tf.reduce_sum(gates * gates) if w_gates else total

    grads = []
    for step in (rnn_ops.lstm_step, plain_step):
        with tf.GradientTape() as tape:
            tape.watch(args)
            value = loss(step, *args)
        grads.append(tape.gradient(value, args))
    for got, want in zip(*grads):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)


def test_step_grad_is_the_tape_gradient_of_one_step():
    args = [tf.constant(a) for a in STEP_ARGS]
    with tf.GradientTape() as tape:
        tape.watch(args)
        gates, c, h = plain_step(*args)
        value = tf.reduce_sum(h * DH) + tf.reduce_sum(c * DC)
    d_z, d_h, d_c, _ = tape.gradient(value, args)
    dz, dh_prev, dc_prev = rnn_ops.lstm_step_grad(gates, c, args[2], DH, DC, args[3])
    for got, want in ((dz, d_z), (dh_prev, d_h), (dc_prev, d_c)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)


def test_gates_of_the_wrong_width_are_an_error_naming_the_op():
    wide = r"LSTMStep: the gates \(\[3,12\]\) must be 4 times as wide as the states \(\[3,4\]\)"
    with pytest.raises(tf.errors.InvalidArgumentError, match=wide):
        rnn_ops.lstm_step(Z[:, :12], H, C, RK)
    with pytest.raises(ValueError, match=wide):
        tf.function(rnn_ops.lstm_step)(Z[:, :12], H, C, RK)


def test_integer_inputs_are_an_error_naming_the_op():
    with pytest.raises(TypeError, match="LSTMStepGrad: the inputs must be floating-point "
                                        "tensors, got int32"):
        tf.function(rnn_ops.lstm_step_grad)(*[np.int32(a) for a in GRAD_ARGS])
