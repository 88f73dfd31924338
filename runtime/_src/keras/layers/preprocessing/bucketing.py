"""Layers that map values to bin indices: `Discretization` and `Hashing`.

    Discretization(bin_boundaries=[0.0, 1.0, 2.5])
        x < 0 -> 0, 0 <= x < 1 -> 1, 1 <= x < 2.5 -> 2, x >= 2.5 -> 3 (int32)
    Hashing(num_bins, mask_value=None)
        FarmHash Fingerprint64 of each value (numbers as their decimal text,
        floats cast to int64 first) modulo num_bins (tf.strings.to_hash_bucket_fast);
        with mask_value, that value is bin 0 and the others 1 + hash % (num_bins - 1)

`output_mode` "one_hot", "multi_hot" or "count" encode the indices as
`CategoryEncoding` does (float32). Discretization takes `bin_boundaries`, or
`num_bins` and learns them with `adapt`; Hashing with a `salt` (an int s, as
[s, s], or a pair) hashes with tf.strings.to_hash_bucket_strong (SipHash-2-4).
"""

from runtime._src.core import dtypes
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.keras.layers.preprocessing import quantile_summary
from runtime._src.keras.layers.preprocessing.category_encoding import (as_sparse,
                                                                       check_sparse, encode)
from runtime._src.ops import array_ops, math_ops, reduction_ops, string_more_ops, text_ops

__all__ = ["Discretization", "Hashing"]

_MODES = ("int", "one_hot", "multi_hot", "count")


def salt_pair(salt, who, what="2 integers"):
    """Keras's `salt`: None, or [s, s] for an int s, or a list of a pair."""
    if salt is None:
        return None
    if isinstance(salt, (tuple, list)) and len(salt) == 2:
        return list(salt)
    if isinstance(salt, int):
        return [salt, salt]
    raise ValueError(f"The `salt` argument for `{who}` can only be a tuple of {what}, or a "
                     f"single integer. Received: salt={salt}.")


def _check_mode(layer, mode):
    if mode not in _MODES:
        raise ValueError(f"Invalid value for argument `output_mode`. Expected one of "
                         f"{list(_MODES)}. Received: output_mode={mode}")
    return mode


class Discretization(ConfigurableLayer):
    """`keras.layers.Discretization(bin_boundaries=None, num_bins=None,
    epsilon=0.01, output_mode="int")`: with `num_bins`, `adapt(data)` learns
    the boundaries (quantile_summary.py, Keras 3's approximate quantiles)."""

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int",
                 sparse=False, dtype=None, name=None, **kwargs):
        kwargs.pop("trainable", None)
        super().__init__(name=name, **kwargs)
        self.output_mode = _check_mode(self, output_mode)
        sparse = check_sparse(sparse, output_mode)
        if num_bins is not None and num_bins < 0:
            raise ValueError("`num_bins` must be greater than or equal to 0. "
                             f"Received: `num_bins={num_bins}`")
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError("Both `num_bins` and `bin_boundaries` should not be set. "
                             f"Received: `num_bins={num_bins}` and "
                             f"`bin_boundaries={bin_boundaries}`")
        if num_bins is None and bin_boundaries is None:
            raise ValueError("You need to set either `num_bins` or `bin_boundaries`.")
        self.bin_boundaries = None
        if bin_boundaries is not None:
            self.bin_boundaries = [float(b) for b in bin_boundaries]
            if sorted(self.bin_boundaries) != self.bin_boundaries:
                raise ValueError("`bin_boundaries` must be sorted. Received: "
                                 f"bin_boundaries={self.bin_boundaries}")
        self.num_bins, self.epsilon, self.sparse = num_bins, epsilon, sparse
        self._summary = quantile_summary.empty()

    def adapt(self, data, steps=None):
        """Learn `num_bins` - 1 boundaries from `data` (an array, a tensor, a
        tf.data.Dataset or an iterable of batches, summarized batch by batch)."""
        if self.num_bins is None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized "
                             "with `bin_boundaries`, use `num_bins` instead.")
        self._summary = quantile_summary.empty()
        for i, batch in enumerate(quantile_summary.batches(data)):
            if steps is not None and i >= steps:
                break
            self._summary = quantile_summary.merge(
                self._summary, quantile_summary.summarize(batch, self.epsilon), self.epsilon)
        self.bin_boundaries = quantile_summary.boundaries(self._summary, self.num_bins).tolist()

    def get_config(self):
        # Keras 3's keys and order (its dtype is the input's, a string)
        return {"bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins,
                "epsilon": self.epsilon, "output_mode": self.output_mode,
                "sparse": self.sparse, "name": self.name, "dtype": "float32"}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        if config.get("bin_boundaries") is not None and config.get("num_bins") is not None:
            boundaries = config.pop("bin_boundaries")
            layer = cls(**config)
            layer.bin_boundaries = boundaries
            return layer
        return cls(**config)

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError("You need to either pass the `bin_boundaries` argument at "
                             "construction time or call `adapt(dataset)` before you can start "
                             "using the `Discretization` layer.")
        x = math_ops.cast(inputs, dtypes.float32)
        bounds = array_ops.constant(self.bin_boundaries, dtypes.float32)
        above = math_ops.greater_equal(array_ops.expand_dims(x, -1), bounds)
        ids = reduction_ops.reduce_sum(math_ops.cast(above, dtypes.int32), -1)
        if self.output_mode == "int":
            return ids
        return as_sparse(encode(ids, len(self.bin_boundaries) + 1, self.output_mode,
                                dtypes.float32), self.sparse)


class Hashing(ConfigurableLayer):
    """`keras.layers.Hashing(num_bins, mask_value=None, output_mode="int")`."""

    _config_keys = ("num_bins", "salt", "mask_value", "output_mode", "sparse")

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False,
                 **kwargs):
        kwargs.pop("dtype", None)
        super().__init__(**kwargs)
        if not isinstance(num_bins, int) or num_bins <= 0:
            raise ValueError("The `num_bins` for `Hashing` cannot be `None` or non-positive "
                             f"values. Received: num_bins={num_bins}.")
        salt = salt_pair(salt, "Hashing", "size 2 integers")
        self.num_bins, self.salt, self.mask_value = num_bins, salt, mask_value
        self.output_mode = _check_mode(self, output_mode)
        self.sparse = check_sparse(sparse, output_mode, (
            '`sparse` may only be true if `output_mode` is `"one_hot"`, `"multi_hot"`, or '
            f'`"count"`. Received: sparse={sparse} and output_mode={output_mode}'))

    def get_config(self):
        config = super().get_config()
        if isinstance(config.get("dtype"), dict):       # Keras 3's Hashing policy is int64
            config["dtype"] = {**config["dtype"], "config": {"name": "int64"}}
        return config

    def call(self, inputs):
        values = inputs
        bins = self.num_bins
        mask = None
        if self.mask_value is not None and bins > 1:
            bins -= 1
            mask = math_ops.equal(values, self.mask_value)
        if values.dtype.is_floating:
            values = math_ops.cast(values, dtypes.int64)
        if values.dtype != dtypes.string:
            values = text_ops.as_string(values)
        ids = text_ops.to_hash_bucket_fast(values, bins) if self.salt is None else \
            string_more_ops.to_hash_bucket_strong(values, bins, self.salt)
        if mask is not None:
            ids = math_ops.where(mask, array_ops.zeros_like(ids), ids + 1)
        if self.output_mode == "int":
            return ids
        return as_sparse(encode(ids, self.num_bins, self.output_mode, dtypes.float32),
                         self.sparse)
