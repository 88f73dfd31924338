"""The time loop of the recurrent layers, staged as one `while_loop`.

    outputs, last_output, states = time_loop(step, inputs, states, mask=mask)

means, in plain Python (inputs time-major: (time, batch, features)):

    prev = zeros; outs = []
    for t in range(time):
        out, new = step(inputs[t], states)
        if mask is not None:                   # mask (time, batch): keep old values
            out = where(mask[t], out, prev)     # where the step is masked out
            new = [where(mask[t], n, s) for n, s in zip(new, states)]
        outs.append(out); prev, states = out, new
    return stack(outs), prev, states

Eagerly it runs as a Python loop (each step's ops recorded on the tape);
while a graph is traced it is one `While` node whose body is traced once,
reading the step inputs from a `TensorArray`, so a 1000-step sequence is
one node, not 1000 copies. Gradients flow through it like through any
`while_loop`. Masked steps keep the previous output and states, as Keras 3's
`backend.rnn` with `zero_output_for_mask=False`.
"""

from runtime._src.core import dtypes
from runtime._src.function.control_flow import while_loop
from runtime._src.function.tensor_array import TensorArray
from runtime._src.ops import array_ops, math_ops

__all__ = ["time_loop", "stacked"]


def _steps(inputs):
    """The number of steps: a Python int when the time axis is known."""
    dims = inputs.shape.dims
    if dims is not None and dims[0] is not None:
        return dims[0]
    return array_ops.shape(inputs)[0]


def time_loop(step, inputs, states, mask=None, return_sequences=True, zero_output=False,
              output_size=None):
    """Run `step(x_t, states) -> (output, new_states)` over the time-major
    `inputs`; `mask` is (time, batch) bool or None. Returns (outputs stacked
    time-major or None, the last output, the final states). With
    `zero_output` a masked step outputs zeros instead of the previous output
    (Keras's `zero_output_for_mask`, which `Bidirectional` turns on). The
    output is as wide as states[0] unless `output_size` says otherwise."""
    steps = _steps(inputs)
    inputs_ta = TensorArray(inputs.dtype, size=steps).unstack(inputs)
    mask_ta = None
    if mask is not None:
        mask = array_ops.expand_dims(math_ops.cast(mask, dtypes.bool), -1)
        mask_ta = TensorArray(dtypes.bool, size=steps).unstack(mask)
    # without return_sequences a dummy int passes through the loop in out_ta's place
    outs = TensorArray(inputs.dtype, size=steps) if return_sequences \
        else array_ops.constant(0)
    zero = array_ops.zeros_like(states[0])     # every Keras cell's output is its state 0
    if output_size is not None and output_size != states[0].shape.dims[-1]:
        zero = array_ops.zeros(array_ops.stack([array_ops.shape(states[0])[0],
                                                array_ops.constant(int(output_size))]),
                               states[0].dtype)

    def body(t, prev, state, outs):
        output, new_states = step(inputs_ta.read(t), list(state))
        if mask_ta is not None:
            keep = mask_ta.read(t)
            output = math_ops.where(keep, output, zero if zero_output else prev)
            new_states = [math_ops.where(keep, n, s) for n, s in zip(new_states, state)]
        if return_sequences:
            outs = outs.write(t, output)
        return t + 1, output, list(new_states), outs

    def cond(t, *_):
        return t < steps

    _, last, states, outs = while_loop(cond, body,
                                       (array_ops.constant(0), zero, list(states), outs))
    return (stacked(outs, steps) if return_sequences else None), last, list(states)


def stacked(ta, steps):
    """ta.stack() with its time axis static when `steps` is a Python int (a
    TensorArray that went through a while_loop forgets its size)."""
    out = ta.stack()
    dims = out.shape.dims
    if isinstance(steps, int) and dims is not None and dims[0] is None and \
            None not in dims[2:]:
        out = array_ops.reshape(out, [steps, -1, *dims[2:]])
    return out
