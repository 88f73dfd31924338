"""The LSTM time loop with a hand-written backward loop (backpropagation
through time), for the common case: Keras's default activations, no mask,
no recurrent dropout.

    outputs, h, c = lstm_sequence(z_x, h0, c0, recurrent_kernel, return_sequences)

z_x (time, batch, 4 * units) is the input projection `x @ kernel + bias`,
made for all steps at once before the loop. Forward, one staged
`while_loop` whose step is one `LSTMStep` op (runtime/_src/ops/rnn_ops.py):

    z = z_x[t] + h @ recurrent_kernel;  i, f, g, o = sigmoid, sigmoid, tanh, sigmoid
    c = f * c + i * g;  h = o * tanh(c)

keeping the gates [i, f, g, o], c and h of every step in TensorArrays.
Backward, one staged `while_loop` from the last step to the first, whose
step is one `LSTMStepGrad` op:

    dh = d_out[t] + dh_next;  dc = dc_next + dh * o * (1 - tanh(c)^2)
    dz[t] = [dc * g * i(1-i), dc * c_prev * f(1-f), dc * i * (1-g^2), dh * tanh(c) * o(1-o)]
    dh_next = dz[t] @ recurrent_kernel^T;  dc_next = dc * f

(c_prev read from the forward's cs shifted by one step), then after the
loop, for all steps at once: d z_x = dz and
d recurrent_kernel = sum over t of h_prev[t]^T dz[t] as one matmul of
(time * batch) rows, as cuDNN and TensorFlow's fused kernels do.

The values equal the generic loop's (layers/rnn/rnn_loop.py) up to the order of the
recurrent kernel gradient's sum (float rounding); the generic loop's
gradient replays the step's forward ops in its backward loop, this one
reads them from the forward's arrays.
"""

from runtime._src.autodiff.custom_gradient import custom_gradient
from runtime._src.function.control_flow import while_loop
from runtime._src.function.tensor_array import TensorArray
from runtime._src.keras.layers.rnn.rnn_loop import stacked
from runtime._src.ops import array_ops, math_ops, rnn_ops

__all__ = ["lstm_sequence"]


def _forward(z_x, h0, c0, rk, steps):
    dtype = z_x.dtype
    z_ta = TensorArray(dtype, size=steps).unstack(z_x)
    arrays = [TensorArray(dtype, size=steps) for _ in range(3)]   # gates, c, h

    def body(t, h, c, gates_ta, c_ta, h_ta):
        gates, c, h = rnn_ops.lstm_step(z_ta.read(t), h, c, rk)
        return t + 1, h, c, gates_ta.write(t, gates), c_ta.write(t, c), h_ta.write(t, h)

    _, h, c, gates_ta, c_ta, h_ta = while_loop(
        lambda t, *_: t < steps, body, (array_ops.constant(0), h0, c0, *arrays))
    return h, c, gates_ta.stack(), c_ta.stack(), stacked(h_ta, steps)


def _backward(d_seq, dh_last, dc_last, saved, rk, steps):
    gates, cs, hs, h0, c0 = saved
    dtype = gates.dtype
    arrays = {name: TensorArray(dtype, size=steps).unstack(v)
              for name, v in (("gates", gates), ("c", cs), ("c_prev", _shifted(c0, cs)))}
    if d_seq is not None:
        arrays["d"] = TensorArray(dtype, size=steps).unstack(d_seq)
    dz_ta = TensorArray(dtype, size=steps)

    def body(t, dh_next, dc_next, dz_ta):
        dh = dh_next if d_seq is None else math_ops.add(arrays["d"].read(t), dh_next)
        dz, dh_prev, dc_prev = rnn_ops.lstm_step_grad(
            arrays["gates"].read(t), arrays["c"].read(t), arrays["c_prev"].read(t),
            dh, dc_next, rk)
        return t - 1, dh_prev, dc_prev, dz_ta.write(t, dz)

    start = math_ops.subtract(_steps_tensor(steps), array_ops.constant(1))
    _, dh0, dc0, dz_ta = while_loop(lambda t, *_: t >= 0, body,
                                    (start, dh_last, dc_last, dz_ta))
    dz = stacked(dz_ta, steps)
    return dz, dh0, dc0, _all_steps_product(_shifted(h0, hs), dz, rk)


def _shifted(first, seq):
    """[first, seq[0], ..., seq[-2]]: each step's previous value, time-major."""
    return array_ops.concat([array_ops.expand_dims(first, 0), seq[:-1]], 0)


def _all_steps_product(h_prev, dz, rk):
    """sum over t of h_prev[t]^T dz[t], the recurrent kernel's gradient: one
    matmul over all steps and the batch, after the loop rather than inside it."""
    units, width = rk.shape.dims
    return math_ops.matmul(array_ops.reshape(h_prev, [-1, units]),
                           array_ops.reshape(dz, [-1, width]), transpose_a=True)


def _steps_tensor(steps):
    return array_ops.constant(steps) if isinstance(steps, int) else steps


def lstm_sequence(z_x, h0, c0, rk, steps, return_sequences=True):
    """(hs (time, batch, units), h, c) of the LSTM over the projected inputs;
    hs is None without `return_sequences` (then no gradient flows into it)."""

    @custom_gradient
    def run(z_x, h0, c0, rk):
        h, c, gates, cs, hs = _forward(z_x, h0, c0, rk, steps)

        def grad(*upstream):
            d_hs, d_h, d_c = upstream if return_sequences else (None, *upstream)
            d_h = array_ops.zeros_like(h) if d_h is None else d_h
            d_c = array_ops.zeros_like(c) if d_c is None else d_c
            return _backward(d_hs, d_h, d_c, (gates, cs, hs, h0, c0), rk, steps)
        return ((hs, h, c) if return_sequences else (h, c)), grad

    results = run(z_x, h0, c0, rk)
    return tuple(results) if return_sequences else (None, *results)
