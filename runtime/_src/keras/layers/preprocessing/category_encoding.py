"""`keras.layers.CategoryEncoding(num_tokens, output_mode="multi_hot")`: ids ->
(batch, num_tokens), "one_hot", "multi_hot" or "count" (`encode` also serves the
lookups, Discretization and Hashing)."""

from runtime._src.core import dtypes
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["CategoryEncoding", "encode"]


class CategoryEncoding(ConfigurableLayer):
    """`keras.layers.CategoryEncoding(num_tokens, output_mode="multi_hot")`."""

    _config_keys = ("num_tokens", "output_mode")

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if output_mode not in ("one_hot", "multi_hot", "count"):
            raise ValueError("Unknown arg for output_mode: " + repr(output_mode))
        if num_tokens is None or num_tokens < 1:
            raise ValueError("`num_tokens` for CategoryEncoding must be at least 1. "
                             f"Received: num_tokens={num_tokens}.")
        if sparse:
            raise NotImplementedError("CategoryEncoding: sparse=True is not supported")
        self.num_tokens, self.output_mode = int(num_tokens), output_mode

    def call(self, inputs):
        return encode(inputs, self.num_tokens, self.output_mode, dtypes.float32)


def encode(ids, depth, mode, dtype):
    """ids (batch,) or (batch, k) -> (batch, depth) in `mode`."""
    ids = math_ops.cast(ids, dtypes.int32)
    if mode == "one_hot":
        if ids.shape.rank is not None and ids.shape.rank > 1 and ids.shape.dims[-1] == 1:
            ids = array_ops.squeeze(ids, [-1])
        return array_ops.one_hot(ids, depth, dtype=dtype)
    if ids.shape.rank == 1:
        ids = array_ops.expand_dims(ids, -1)
    hot = array_ops.one_hot(ids, depth, dtype=dtype)
    if mode == "count":
        return reduction_ops.reduce_sum(hot, axis=-2)
    return reduction_ops.reduce_max(hot, axis=-2)
