"""`keras.ops.ctc_decode` (also `keras.ops.nn.ctc_decode`): CTC decoding of
per-frame class scores, greedy or by beam search, over the runtime's
`tf.nn.ctc_greedy_decoder` / `ctc_beam_search_decoder`.

    decoded, scores = ctc_decode(probs, lengths)            # greedy
    decoded, scores = ctc_decode(logits, lengths, strategy="beam_search", top_paths=2)

`decoded` is int32 [top_paths (1 when greedy), batch, frames], each path's
labels followed by -1; `scores` is the greedy decoder's negative sum of the
best scores [batch, 1], or each path's log probability [batch, top_paths].
"""

from runtime._src.keras.ops.operation import cast_to, keras_op, tensor
from runtime._src.keras.ops.tfops import tf
from runtime._src.sparse.ctc_decode import ctc_beam_search_decoder, ctc_greedy_decoder

__all__ = ["ctc_decode"]


@keras_op
def ctc_decode(inputs, sequence_lengths, strategy="greedy", beam_width=100, top_paths=1,
               merge_repeated=True, mask_index=0):
    """`keras.ops.ctc_decode(inputs, sequence_lengths, strategy="greedy",
    beam_width=100, top_paths=1, merge_repeated=True, mask_index=0)`: inputs
    [batch, frames, classes], class `mask_index` the blank."""
    x = tensor(inputs)
    x = cast_to(x, "float64" if x.dtype.name == "float64" else "float32")
    shape = tf.shape(x)
    batch, steps, classes = shape[0], shape[1], shape[2]
    frames = x.shape[1]                 # static, for the output's shape when known
    x = tf.transpose(x, [1, 0, 2])
    lengths = cast_to(sequence_lengths, "int32")
    if strategy == "greedy":
        decoded, scores = ctc_greedy_decoder(x, lengths, merge_repeated=merge_repeated,
                                             blank_index=mask_index)
    elif strategy == "beam_search":
        if mask_index is not None and mask_index < 0 and x.shape[-1] is not None:
            mask_index += x.shape[-1]
        if mask_index is not None:       # the blank last, where the beam decoder wants it
            x = tf.concat([x[..., :mask_index], x[..., mask_index + 1:],
                           x[..., mask_index:mask_index + 1]], axis=-1)
        decoded, scores = ctc_beam_search_decoder(x, lengths, beam_width=beam_width,
                                                  top_paths=top_paths)
    else:
        raise ValueError(f"Invalid strategy {strategy}. Supported values are 'greedy' and "
                         "'beam_search'.")
    dense = tf.stack([_dense(path, batch, steps, frames) for path in decoded], axis=0)
    if strategy == "beam_search" and mask_index is not None:
        blank = mask_index if mask_index >= 0 else mask_index + classes
        dense = tf.where(dense >= blank, dense + 1, dense)
    return dense, scores


def _dense(path, batch, steps, frames):
    """A decoded SparseTensor as int32 [batch, steps], -1 after each labelling."""
    values = cast_to(path.values, "int32") + 1
    dense = tf.scatter_nd(path.indices, values, tf.stack([batch, steps])) - 1
    return dense if frames is None else tf.reshape(dense, [-1, frames])
