"""One step of an LSTM (Keras's gate order i, f, g, o; sigmoid gates, tanh
cell activation) and its backward step, each as one op: the loops of
runtime/_src/keras/layers/rnn/lstm_fused.py run one node per step instead of twenty,
with the same numpy operations in the same order, so the same values.

    gates, c, h = lstm_step(z_x, h_prev, c_prev, recurrent_kernel)

means, with z_x (batch, 4 * units) the step's input projection:

    z = z_x + h_prev @ recurrent_kernel
    i, f, g, o = sigmoid(z[:, :u]), sigmoid(z[:, u:2u]), tanh(z[:, 2u:3u]), sigmoid(z[:, 3u:])
    gates = [i, f, g, o] (batch, 4 * units);  c = f * c_prev + i * g;  h = o * tanh(c)

and, given dh (the gradient reaching h) and dc_next (reaching c from the step after):

    dz, dh_prev, dc_prev = lstm_step_grad(gates, c, c_prev, dh, dc_next, recurrent_kernel)

    dc = dc_next + dh * o * (1 - tanh(c)^2)
    dz = [dc * g * i(1-i), dc * c_prev * f(1-f), dc * i * (1-g^2), dh * tanh(c) * o(1-o)]
    dh_prev = dz @ recurrent_kernel^T;  dc_prev = dc * f

dz is the gradient of z (so of z_x); the recurrent kernel's gradient is
h_prev^T dz summed over the steps, which the caller does once for all steps.
"""

import numpy as np

from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op
from runtime._src.ops import array_ops, math_ops, shape_ops, shape_rules as rules
from runtime._src.ops.nn_ops import sigmoid_of_half

__all__ = ["lstm_step", "lstm_step_grad"]


def _infer_step(inputs, attrs):
    """Inputs: (batch, 4u) or (batch, u) matrices, then the (u, 4u) kernel;
    outputs (batch, 4u), (batch, u), (batch, u)."""
    for t in inputs[1:]:
        rules.check_same_dtype(inputs[0], t)
    dtype = inputs[0].dtype
    if not dtype.is_floating:
        raise TypeError(f"the inputs must be floating-point tensors, got {dtype.name}")
    dims = [t.shape.dims for t in inputs]
    if any(d is not None and len(d) != 2 for d in dims):
        raise ValueError("the inputs must be matrices, got shapes "
                         f"{', '.join(rules.dims_text(t.shape) for t in inputs)}")
    batch = next((d[0] for d in dims[:-1] if d is not None and d[0] is not None), None)
    gates, units = (dims[0] or (None, None))[1], (dims[1] or (None, None))[1]
    if gates is not None and units is not None and gates != 4 * units:
        raise ValueError(f"the gates ({rules.dims_text(inputs[0].shape)}) must be "
                         f"4 times as wide as the states ({rules.dims_text(inputs[1].shape)})")
    if units is None and gates is not None:
        units = gates // 4
    state = (dtype, TensorShape([batch, units]))
    return [(dtype, TensorShape([batch, None if units is None else 4 * units])), state, state]


@define_op("LSTMStep", infer=_infer_step, num_outputs=3)
def _lstm_step(z_x, h_prev, c_prev, recurrent_kernel):
    u = np.shape(c_prev)[1]
    z = h_prev @ recurrent_kernel
    np.add(z_x, z, out=z)
    g = np.tanh(z[:, 2 * u:3 * u])                      # g: tanh, before ...
    sigmoid_of_half(np.multiply(z.dtype.type(0.5), z, out=z))    # ... all four: sigmoid
    z[:, 2 * u:3 * u] = g                               # gates [i, f, g, o]
    i, f, o = z[:, :u], z[:, u:2 * u], z[:, 3 * u:]
    c = f * c_prev
    np.add(c, i * g, out=c)
    h = np.tanh(c)
    return z, c, np.multiply(o, h, out=h)


@define_op("LSTMStepGrad", infer=_infer_step, num_outputs=3)
def _lstm_step_grad(gates, c, c_prev, dh, dc_next, recurrent_kernel):
    u = np.shape(c)[1]
    one = gates.dtype.type(1)
    i, f, g, o = gates[:, :u], gates[:, u:2 * u], gates[:, 2 * u:3 * u], gates[:, 3 * u:]
    tanh_c = np.tanh(c)
    dc = dh * o
    np.multiply(dc, np.subtract(one, np.square(tanh_c)), out=dc)
    np.add(dc_next, dc, out=dc)
    dz = np.empty_like(gates)                           # [dc * g, dc * c_prev, dc * i, do] ...
    for k, (a, b) in enumerate(((dc, g), (dc, c_prev), (dc, i), (dh, tanh_c))):
        np.multiply(a, b, out=dz[:, k * u:(k + 1) * u])
    np.multiply(dz, _slopes(gates, one), out=dz)        # ... times each activation's slope
    return dz, dz @ recurrent_kernel.T, dc * f


def _slopes(gates, one):
    """[i(1-i), f(1-f), 1-g^2, o(1-o)]: each activation's derivative from its output."""
    u = np.shape(gates)[1] // 4
    slopes = np.subtract(one, gates)
    np.multiply(gates, slopes, out=slopes)
    g_slope = slopes[:, 2 * u:3 * u]
    np.square(gates[:, 2 * u:3 * u], out=g_slope)
    np.subtract(one, g_slope, out=g_slope)
    return slopes


def lstm_step(z_x, h_prev, c_prev, recurrent_kernel):
    """(gates, c, h) of one LSTM step; see the module docstring."""
    return apply("LSTMStep", _tensors(z_x, h_prev, c_prev, recurrent_kernel))


def lstm_step_grad(gates, c, c_prev, dh, dc_next, recurrent_kernel):
    """(dz, dh_prev, dc_prev) of one LSTM step; see the module docstring."""
    return apply("LSTMStepGrad", _tensors(gates, c, c_prev, dh, dc_next, recurrent_kernel))


def _tensors(*values):
    return tuple(convert_to_tensor(v) for v in values)


@define_grad("LSTMStep", takes_none=True)
def _lstm_step_gradient(op, d_gates, d_c, d_h):
    """The step's gradient through LSTMStepGrad (plus what reaches the gates
    themselves, through each activation's slope)."""
    z_x, h_prev, c_prev, rk = op.inputs
    gates, c, h = op.outputs
    d_h = array_ops.zeros_like(h) if d_h is None else d_h
    d_c = array_ops.zeros_like(c) if d_c is None else d_c
    dz, dh_prev, dc_prev = lstm_step_grad(gates, c, c_prev, d_h, d_c, rk)
    if d_gates is not None:
        dz = math_ops.add(dz, math_ops.multiply(d_gates, _gate_slopes(gates)))
        dh_prev = math_ops.matmul(dz, rk, transpose_b=True)
    return [dz, dh_prev, dc_prev, math_ops.matmul(h_prev, dz, transpose_a=True)]


def _gate_slopes(gates):
    """[i(1-i), f(1-f), 1-g^2, o(1-o)] from the gates."""
    one = math_ops.cast(1, gates.dtype)
    i, f, g, o = shape_ops.split(gates, 4, axis=1)
    return array_ops.concat([math_ops.multiply(s, math_ops.subtract(one, s)) if s is not g
                             else math_ops.subtract(one, math_ops.square(g))
                             for s in (i, f, g, o)], 1)
