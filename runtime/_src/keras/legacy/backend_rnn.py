"""`tf.keras.backend.rnn` (Keras 2's, Keras 3.15's legacy backend): a step
function run over the time axis, as a Python loop over the static time steps.

    rnn(step_function, inputs, initial_states, go_backwards=False, mask=None,
        constants=None, unroll=False, input_length=None, time_major=False,
        zero_output_for_mask=False, return_all_outputs=True)
        -> (last_output, outputs, new_states)

A masked step keeps the previous output (zeros with zero_output_for_mask)
and the previous states; without a mask, an `input_length` tensor masks the
steps past each entry's length the same way (unroll=False, as Keras).
"""

from runtime._src.core import dtypes, nest
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.ops import (array_ops, comparison_ops, manipulation_ops, reduction_ops,
                              scatter_ops, tile_ops, where_cast_ops)

__all__ = ["rnn"]


def _swap(x):
    axes = list(range(x.shape.rank))
    axes[0], axes[1] = 1, 0
    return manipulation_ops.transpose(x, axes)


def _expand(mask_t, like, fixed_dim=1):
    """mask_t with trailing axes added and tiled to like's shape."""
    for _ in range(like.shape.rank - mask_t.shape.rank):
        mask_t = manipulation_ops.expand_dims(mask_t, -1)
    return tile_ops.tile(mask_t, [1] * fixed_dim + like.shape.as_list()[fixed_dim:])


def _step_masks(mask, input_length, steps, go_backwards, unroll):
    """Per step, the (batch,) bool mask or None."""
    if mask is not None:
        masks = manipulation_ops.unstack(mask)
        return masks[::-1] if go_backwards else masks
    if input_length is None or unroll or not hasattr(input_length, "shape"):
        return [None] * steps
    lengths = convert_to_tensor(input_length)
    if go_backwards:
        reverse_len = reduction_ops.reduce_max(lengths, axis=0) - 1 - lengths
        return [comparison_ops.less(reverse_len, t) for t in range(steps)]
    return [comparison_ops.greater(lengths, t) for t in range(steps)]


def _select(mask_t, new, old):
    return scatter_ops.where(_expand(mask_t, new), new, old)


def rnn(step_function, inputs, initial_states, go_backwards=False, mask=None, constants=None,
        unroll=False, input_length=None, time_major=False, zero_output_for_mask=False,
        return_all_outputs=True):
    """(last_output, outputs (batch, time, ...), new_states) of step_function over time."""
    inputs = nest.map_structure(convert_to_tensor, inputs)
    if not time_major:
        inputs = nest.map_structure(_swap, inputs)
    flat = nest.flatten(inputs)
    steps = flat[0].shape.as_list()[0]
    if unroll and not steps:
        raise ValueError("Unrolling requires a fixed number of timesteps.")
    if mask is not None:
        mask = convert_to_tensor(mask)
        if mask.dtype != dtypes.bool:
            mask = where_cast_ops.cast(mask, dtypes.bool)
        if mask.shape.rank == 2:
            mask = manipulation_ops.expand_dims(mask, -1)
        if not time_major:
            mask = _swap(mask)
    per_step = [manipulation_ops.unstack(x) for x in flat]
    order = range(steps - 1, -1, -1) if go_backwards else range(steps)
    masks = _step_masks(mask, input_length, steps, go_backwards, unroll)
    states, outputs, output = tuple(initial_states), [], None
    for i, t in enumerate(order):
        step_in = nest.pack_sequence_as(inputs, [x[t] for x in per_step])
        new_out, new_states = step_function(step_in, tuple(states) + tuple(constants or []))
        mask_t = masks[i]
        if mask_t is not None:
            previous = output if output is not None else array_ops.zeros_like(new_out)
            keep = array_ops.zeros_like(new_out) if zero_output_for_mask and \
                (mask is None or not unroll) else previous
            new_out = _select(mask_t, new_out, keep)
            flat_states = [_select(mask_t, n, o) for n, o in
                           zip(nest.flatten(new_states), nest.flatten(states))]
            new_states = nest.pack_sequence_as(new_states, flat_states)
        output, states = new_out, new_states
        outputs = outputs + [new_out] if return_all_outputs else [new_out]
    stacked = manipulation_ops.stack(outputs)
    last = outputs[-1]
    if mask is not None and unroll and zero_output_for_mask:
        last = _select(masks[-1], last, array_ops.zeros_like(last))
        stacked = scatter_ops.where(_expand(mask, stacked, fixed_dim=2), stacked,
                                    array_ops.zeros_like(stacked))
    if not time_major:
        stacked = nest.map_structure(_swap, stacked)
    return last, stacked, list(states) if isinstance(states, tuple) else states
