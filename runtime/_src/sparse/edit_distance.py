"""`tf.edit_distance`: the Levenshtein distance between the sequences of two
SparseTensors (each sequence the values along the last dimension at one
index of the others), optionally divided by the truth's length (TF: inf
for an empty truth against a non-empty hypothesis, 0 for two empty ones).

    >>> import runtime as tf
    >>> h = tf.SparseTensor([[0, 0], [0, 1]], ["a", "b"], [1, 2])
    >>> t = tf.SparseTensor([[0, 0]], ["a"], [1, 1])
    >>> tf.edit_distance(h, t).numpy()
    array([1.], dtype=float32)
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.sparse.sparse_ops import check_sparse

__all__ = ["edit_distance"]


def _levenshtein(a, b):
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def _sequences(indices, values):
    """{outer index tuple: [values in the last dimension's order]}."""
    groups = {}
    for key, value in sorted(zip(map(tuple, np.asarray(indices).tolist()), values.tolist()),
                             key=lambda kv: kv[0]):
        groups.setdefault(key[:-1], []).append(value)
    return groups


def _infer(inputs, attrs):
    rank = inputs[2].shape[0] if inputs[2].shape.rank == 1 else None
    return [(dtypes.float32, TensorShape(None if rank is None else [None] * (rank - 1)))]


@define_op("EditDistance", infer=_infer)
def _edit_distance(h_indices, h_values, h_shape, t_indices, t_values, t_shape, normalize):
    if len(h_shape) != len(t_shape):
        raise InvalidArgumentError(f"EditDistance: hypothesis and truth must have the same "
                                   f"rank, got {len(h_shape)} and {len(t_shape)}")
    out_shape = np.maximum(np.asarray(h_shape[:-1]), np.asarray(t_shape[:-1])).astype(int)
    hyp, truth = _sequences(h_indices, h_values), _sequences(t_indices, t_values)
    out = np.zeros(out_shape, np.float32)
    for key in set(hyp) | set(truth):
        a, b = hyp.get(key, []), truth.get(key, [])
        d = float(_levenshtein(a, b))
        if normalize:
            d = d / len(b) if b else (np.inf if a else 0.0)
        out[key] = d
    return out


not_differentiable("EditDistance")


def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    """The edit distance of each pair of sequences (dense, shape the larger
    of the two dense shapes without the last dimension), float32."""
    h = check_sparse(hypothesis, "edit_distance", "hypothesis")
    t = check_sparse(truth, "edit_distance", "truth")
    if h.values.dtype != t.values.dtype:
        raise TypeError(f"edit_distance: hypothesis and truth must have the same dtype, got "
                        f"{h.values.dtype.name} and {t.values.dtype.name}")
    return apply("EditDistance", (h.indices, h.values, h.dense_shape, t.indices, t.values,
                                  t.dense_shape), {"normalize": bool(normalize)})
