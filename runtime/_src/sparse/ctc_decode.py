"""`tf.nn.ctc_greedy_decoder`: the best path of CTC logits (the largest class
at each step), repeats merged and blanks dropped, as a SparseTensor of
int64 labels, with the negated sum of the chosen logits;
`tf.nn.ctc_beam_search_decoder`: the `top_paths` most probable labellings by
TF's prefix beam search (runtime/_src/sparse/ctc_beam.py); and
`tf.nn.compute_accidental_hits`, the sampled candidates that are a row's
true classes.

    >>> import runtime as tf
    >>> logits = tf.math.log([[[0.1, 0.6, 0.3]], [[0.5, 0.2, 0.3]], [[0.2, 0.7, 0.1]]])
    >>> (decoded,), _ = tf.nn.ctc_greedy_decoder(logits, [3])
    >>> decoded.values.numpy()
    array([1, 0, 1])
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops import math_ops
from runtime._src.ops.scatter_ops import boolean_mask
from runtime._src.ops.base_ops import FLOATS
from runtime._src.sparse.ctc_beam import beam_search
from runtime._src.sparse.sparse_ops import make

__all__ = ["ctc_greedy_decoder", "ctc_beam_search_decoder", "compute_accidental_hits"]


def _infer_greedy(inputs, attrs):
    x = inputs[0]
    batch = x.shape[1] if x.shape.rank == 3 else None
    return [(dtypes.int64, TensorShape([None, 2])), (dtypes.int64, TensorShape([None])),
            (dtypes.int64, TensorShape([2])), (x.dtype, TensorShape([batch, 1]))]


@define_op("CTCGreedyDecoder", infer=_infer_greedy, num_outputs=4)
def _greedy(logits, lengths, merge_repeated, blank_index):
    steps, batch, classes = logits.shape
    if np.any(lengths > steps) or np.any(lengths < 0):
        raise InvalidArgumentError(f"sequence_length must be in [0, {steps}] (max_time), got "
                                   f"{lengths.tolist()}")
    blank = blank_index + classes if blank_index < 0 else blank_index
    indices, values, score, longest = [], [], np.zeros([batch, 1], logits.dtype), 0
    for b in range(batch):
        best = np.argmax(logits[:lengths[b], b], axis=-1)
        score[b, 0] = -np.sum(np.max(logits[:lengths[b], b], axis=-1)) if lengths[b] else 0
        previous, row = -1, []
        for c in best.tolist():
            if c != blank and not (merge_repeated and c == previous):
                row.append(c)
            previous = c
        indices += [[b, i] for i in range(len(row))]
        values += row
        longest = max(longest, len(row))
    return (np.asarray(indices, np.int64).reshape(-1, 2), np.asarray(values, np.int64),
            np.asarray([batch, longest], np.int64), score)


not_differentiable("CTCGreedyDecoder")


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """([SparseTensor decoded], neg_sum_logits [batch, 1]) of `inputs`
    [max_time, batch, num_classes]; blank_index defaults to num_classes - 1."""
    x = convert_to_tensor(inputs)
    if x.dtype not in FLOATS:
        raise TypeError(f"ctc_greedy_decoder: inputs must be float16/32/64, got {x.dtype.name}")
    if x.shape.rank is not None and x.shape.rank != 3:
        raise ValueError(f"ctc_greedy_decoder: inputs must be 3-D [max_time, batch, "
                         f"num_classes], got shape {x.shape}")
    lengths = convert_to_tensor(sequence_length, dtype=dtypes.int32)
    blank = -1 if blank_index is None else int(blank_index)
    indices, values, shape, score = apply("CTCGreedyDecoder", (x, lengths), {
        "merge_repeated": bool(merge_repeated), "blank_index": blank})
    return [make(indices, values, shape)], score


def _infer_beam(inputs, attrs):
    x, top = inputs[0], attrs["top_paths"]
    batch = x.shape[1] if x.shape.rank == 3 else None
    return [(dtypes.int64, TensorShape([None, 3])), (dtypes.int64, TensorShape([None])),
            (dtypes.int64, TensorShape([top, 2])), (x.dtype, TensorShape([batch, top]))]


@define_op("CTCBeamSearchDecoder", infer=_infer_beam, num_outputs=4)
def _beam(logits, lengths, beam_width, top_paths):
    """Every path's (path, batch, time) indices and labels, each path's dense shape,
    and the log probabilities [batch, top_paths]."""
    steps, batch, _ = logits.shape
    if np.any(lengths > steps) or np.any(lengths < 0):
        raise InvalidArgumentError(f"sequence_length must be in [0, {steps}] (max_time), got "
                                   f"{lengths.tolist()}")
    paths, log_probs = [], np.zeros([batch, top_paths], logits.dtype)
    for b in range(batch):
        found = beam_search(logits[:lengths[b], b].astype(np.float32), beam_width, top_paths)
        paths.append([labels for labels, _ in found])
        log_probs[b] = [p for _, p in found]
    indices, values = [], []
    shapes = np.zeros([top_paths, 2], np.int64)
    for i in range(top_paths):
        shapes[i] = [batch, max(len(p[i]) for p in paths) if batch else 0]
        for b in range(batch):
            indices += [[i, b, t] for t in range(len(paths[b][i]))]
            values += paths[b][i]
    return (np.asarray(indices, np.int64).reshape(-1, 3), np.asarray(values, np.int64),
            shapes, log_probs)


not_differentiable("CTCBeamSearchDecoder")


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1):
    """([SparseTensor] of the `top_paths` best labellings, their log probabilities
    [batch, top_paths]) of logits `inputs` [max_time, batch, num_classes], the last
    class the blank; repeated labels are not merged (TF 2's decoder)."""
    x = convert_to_tensor(inputs)
    if x.dtype not in FLOATS:
        raise TypeError(f"ctc_beam_search_decoder: inputs must be float16/32/64, got "
                        f"{x.dtype.name}")
    if x.shape.rank is not None and x.shape.rank != 3:
        raise ValueError(f"ctc_beam_search_decoder: inputs must be 3-D [max_time, batch, "
                         f"num_classes], got shape {x.shape}")
    beam_width, top_paths = int(beam_width), int(top_paths)
    for attr, value in (("beam_width", beam_width), ("top_paths", top_paths)):
        if value < 1:
            raise InvalidArgumentError(f"Value for attr '{attr}' of {value} must be at least "
                                       "minimum 1")
    if top_paths > beam_width:
        raise InvalidArgumentError(f"requested more paths than the beam width ({top_paths} > "
                                   f"{beam_width})")
    lengths = convert_to_tensor(sequence_length, dtype=dtypes.int32)
    indices, values, shapes, log_probs = apply("CTCBeamSearchDecoder", (x, lengths), {
        "beam_width": beam_width, "top_paths": top_paths})
    decoded = []
    for i in range(top_paths):
        mine = math_ops.equal(indices[:, 0], i)
        decoded.append(make(boolean_mask(indices[:, 1:], mine), boolean_mask(values, mine),
                            shapes[i]))
    return decoded, log_probs


def _infer_hits(inputs, attrs):
    return [(dtypes.int32, TensorShape([None])), (dtypes.int64, TensorShape([None])),
            (dtypes.float32, TensorShape([None]))]


@define_op("ComputeAccidentalHits", infer=_infer_hits, num_outputs=3)
def _hits(true_classes, sampled, num_true):
    if true_classes.ndim != 2 or true_classes.shape[1] != num_true:
        raise InvalidArgumentError(f"true_classes must be a matrix of {num_true} columns "
                                   f"(num_true), got shape {list(true_classes.shape)}")
    where = {c: j for j, c in enumerate(sampled.tolist())}   # the last position wins, as TF
    rows, ids = [], []
    for i, row in enumerate(true_classes.tolist()):
        for c in row:
            if c in where:
                rows.append(i)
                ids.append(where[c])
    lowest = np.full(len(rows), np.finfo(np.float32).min, np.float32)
    return np.asarray(rows, np.int32), np.asarray(ids, np.int64), lowest


not_differentiable("ComputeAccidentalHits")


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """(indices, ids, weights): for each row i and each of its true classes
    found among `sampled_candidates` (at position j), i, j and -FLT_MAX."""
    classes = convert_to_tensor(true_classes, dtype=dtypes.int64)
    sampled = convert_to_tensor(sampled_candidates, dtype=dtypes.int64)
    return tuple(apply("ComputeAccidentalHits", (classes, sampled), {"num_true": int(num_true)}))
