"""`tf.nn.nce_loss` and `tf.nn.sampled_softmax_loss`: losses over the true
classes and a sample of the others, composed as TensorFlow composes them.

The logits of each example's true classes and of the sampled classes are dot
products with the rows of `weights` (a tensor or a list of 'div' shards, as
`embedding_lookup` reads them) plus `biases`; less log(expected count), the
sampler's estimate, for both losses; a sampled class that is one of the row's
true classes (an accidental hit) gets a logit of -FLT_MAX there when
`remove_accidental_hits`. The labels are 1/num_true for each true class, 0 for
the sampled ones. nce_loss is the per-example sum of sigmoid cross entropies,
sampled_softmax_loss the softmax cross entropy. Without `sampled_values` the
classes are drawn with `log_uniform_candidate_sampler` (unique; numpy's numbers,
not TF's).
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.ops.array_ops import ones_like, reshape, shape as shape_of, zeros_like
from runtime._src.ops.candidate_sampling_ops import log_uniform_candidate_sampler
from runtime._src.ops.gradient_ops import stop_gradient
from runtime._src.ops.manipulation_ops import concat, expand_dims, stack
from runtime._src.ops.math_ops import cast, greater, log, matmul, where
from runtime._src.ops.cross_entropy_ops import (sigmoid_cross_entropy_with_logits,
                                                softmax_cross_entropy_with_logits)
from runtime._src.ops.nn_ops import embedding_lookup
from runtime._src.ops.reduction_ops import reduce_sum
from runtime._src.ops.scatter_ops import scatter_nd
from runtime._src.sparse.ctc_decode import compute_accidental_hits

__all__ = ["nce_loss", "sampled_softmax_loss"]


def _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                    sampled_values, subtract_log_q, remove_accidental_hits, seed):
    """(logits [batch, num_true + num_sampled], labels of the same shape)."""
    labels = cast(convert_to_tensor(labels), dtypes.int64)
    inputs = convert_to_tensor(inputs)
    if sampled_values is None:
        sampled_values = log_uniform_candidate_sampler(labels, num_true, num_sampled, True,
                                                       num_classes, seed=seed)
    sampled, true_expected, sampled_expected = (stop_gradient(v) for v in sampled_values)
    sampled = cast(sampled, dtypes.int64)
    flat_labels = reshape(labels, [-1])
    all_ids = concat([flat_labels, sampled], 0)
    all_w = embedding_lookup(weights, all_ids)
    all_b = embedding_lookup(biases, all_ids)
    n_true = shape_of(flat_labels)[0]
    true_w, sampled_w = all_w[:n_true], all_w[n_true:]
    dim = shape_of(true_w)[1:2]
    true_w = reshape(true_w, concat([[-1, num_true], dim], 0))
    true_logits = reduce_sum(expand_dims(inputs, 1) * true_w, -1) + \
        reshape(all_b[:n_true], [-1, num_true])
    sampled_logits = matmul(inputs, sampled_w, transpose_b=True) + all_b[n_true:]
    if remove_accidental_hits:
        sampled_logits = _remove_hits(sampled_logits, labels, sampled, num_true)
    if subtract_log_q:
        true_logits -= log(cast(true_expected, true_logits.dtype))
        sampled_logits -= log(cast(sampled_expected, sampled_logits.dtype))
    logits = concat([true_logits, sampled_logits], 1)
    out_labels = concat([ones_like(true_logits) / num_true, zeros_like(sampled_logits)], 1)
    return logits, out_labels


def _remove_hits(sampled_logits, labels, sampled, num_true):
    """-FLT_MAX added where a row's sampled class is one of its true classes."""
    rows, ids, _ = compute_accidental_hits(labels, sampled, num_true)
    where_hit = scatter_nd(stack([cast(rows, dtypes.int64), ids], 1),
                           ones_like(rows), cast(shape_of(sampled_logits), dtypes.int64))
    lowest = convert_to_tensor(-np.finfo(np.float32).max, sampled_logits.dtype)
    return sampled_logits + where(greater(where_hit, 0), lowest, zeros_like(lowest))


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
             sampled_values=None, remove_accidental_hits=False, name="nce_loss"):
    """`tf.nn.nce_loss`: noise-contrastive estimation loss, one per example."""
    logits, labels = _sampled_logits(weights, biases, labels, inputs, num_sampled,
                                     num_classes, num_true, sampled_values, True,
                                     remove_accidental_hits, None)
    return reduce_sum(sigmoid_cross_entropy_with_logits(labels=labels, logits=logits), 1)


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes,
                         num_true=1, sampled_values=None, remove_accidental_hits=True,
                         seed=None, name="sampled_softmax_loss"):
    """`tf.nn.sampled_softmax_loss`: softmax cross entropy over the true and the
    sampled classes, one per example."""
    logits, labels = _sampled_logits(weights, biases, labels, inputs, num_sampled,
                                     num_classes, num_true, sampled_values, True,
                                     remove_accidental_hits, seed)
    return softmax_cross_entropy_with_logits(labels=stop_gradient(labels), logits=logits)
