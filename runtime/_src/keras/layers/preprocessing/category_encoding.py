"""`keras.layers.CategoryEncoding(num_tokens, output_mode="multi_hot",
sparse=False)`: ids -> (batch, num_tokens), "one_hot", "multi_hot" or "count"
(weighted by `count_weights=` in call), a SparseTensor of the nonzero entries
with sparse=True (`encode` and `as_sparse` also serve the lookups,
Discretization, Hashing and HashedCrossing)."""

from runtime._src.core import dtypes
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.ops import array_ops, math_ops, reduction_ops
from runtime._src.sparse import sparse_ops

__all__ = ["CategoryEncoding", "encode", "as_sparse", "check_sparse"]


class CategoryEncoding(ConfigurableLayer):
    """`keras.layers.CategoryEncoding(num_tokens, output_mode="multi_hot")`."""

    _config_keys = ("num_tokens", "output_mode")          # Keras 3 leaves sparse out

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if output_mode not in ("one_hot", "multi_hot", "count"):
            raise ValueError("Unknown arg for output_mode: " + repr(output_mode))
        if num_tokens is None or num_tokens < 1:
            raise ValueError("`num_tokens` for CategoryEncoding must be at least 1. "
                             f"Received: num_tokens={num_tokens}.")
        self.num_tokens, self.output_mode, self.sparse = int(num_tokens), output_mode, sparse

    def call(self, inputs, count_weights=None):
        if count_weights is not None and self.output_mode != "count":
            raise ValueError("`count_weights` is not used when `output_mode` is not "
                             f"`'count'`. Received `count_weights={count_weights}`.")
        return as_sparse(encode(inputs, self.num_tokens, self.output_mode, dtypes.float32,
                                count_weights), self.sparse)


def as_sparse(dense, sparse):
    """`dense` as a SparseTensor of its nonzero entries when `sparse` (Keras 3's
    sparse outputs on TensorFlow), else as it is."""
    return sparse_ops.from_dense(dense) if sparse else dense


def check_sparse(sparse, output_mode, message=None):
    """Keras's rule: sparse outputs only for the one-hot, multi-hot and count modes."""
    if sparse and output_mode == "int":
        raise ValueError(message or "`sparse=True` may only be used if `output_mode` is "
                         "`'one_hot'`, `'multi_hot'`, or `'count'`. Received: sparse=True "
                         "and output_mode=int")
    return bool(sparse)


def encode(ids, depth, mode, dtype, count_weights=None):
    """ids (batch,) or (batch, k) -> (batch, depth) in `mode` ("count" sums
    `count_weights`, one per id, when given)."""
    ids = math_ops.cast(ids, dtypes.int32)
    if mode == "one_hot":
        if ids.shape.rank is not None and ids.shape.rank > 1 and ids.shape.dims[-1] == 1:
            ids = array_ops.squeeze(ids, [-1])
        return array_ops.one_hot(ids, depth, dtype=dtype)
    if ids.shape.rank == 1:
        ids = array_ops.expand_dims(ids, -1)
    hot = array_ops.one_hot(ids, depth, dtype=dtype)
    if mode == "count":
        if count_weights is not None:
            weights = math_ops.cast(count_weights, dtype)
            if weights.shape.rank == 1:
                weights = array_ops.expand_dims(weights, -1)
            hot = hot * array_ops.expand_dims(weights, -1)
        return reduction_ops.reduce_sum(hot, axis=-2)
    return reduction_ops.reduce_max(hot, axis=-2)
