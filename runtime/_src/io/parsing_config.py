"""The feature configurations of `tf.io.parse_example`: what to read from
each Example and what tensor to make of it.

    FixedLenFeature([2], tf.int64, default_value=[0, 0])   # a [2] tensor per example
    FixedLenSequenceFeature([], tf.float32, allow_missing=True)   # [n] per example,
                                                                   # padded in a batch
    RaggedFeature(tf.string)                                # a ragged row per example
    RaggedFeature(tf.int64, value_key="v",
                  partitions=[RaggedFeature.RowLengths("lens")])   # nested rows

`check(features)` validates a features dict as TensorFlow does and returns
its entries in key order. A `VarLenFeature` is read as a one-level
RaggedFeature and handed back as a SparseTensor (parsing_ops.py).
"""

import collections

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError

__all__ = ["FixedLenFeature", "FixedLenSequenceFeature", "RaggedFeature", "SparseFeature",
           "VarLenFeature",
           "check", "feature_dtype", "feature_shape"]


class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
    """`tf.io.FixedLenFeature(shape, dtype, default_value=None)`: exactly
    prod(shape) values, or the default when the feature is missing."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """`tf.io.VarLenFeature(dtype)`: all of a feature's values, as a
    SparseTensor ([batch, longest] indices for a batch, [n] for one example)."""

    def __repr__(self):
        return f"VarLenFeature(dtype={dtypes.as_dtype(self.dtype)!r})"


class SparseFeature(collections.namedtuple(
        "SparseFeature", ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """`tf.io.SparseFeature(index_key, value_key, dtype, size,
    already_sorted=False)`: a SparseTensor of dense shape `size` (a list for
    several index keys) whose indices are the int64 values of `index_key`
    and whose values are those of `value_key`; [batch] + size in a batch.
    Unless `already_sorted`, each example's entries are sorted by index."""

    def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
        return super().__new__(cls, index_key, value_key, dtypes.as_dtype(dtype), size,
                               already_sorted)

    @property
    def index_keys(self):
        return [self.index_key] if isinstance(self.index_key, str) else list(self.index_key)

    @property
    def sizes(self):
        return [self.size] if isinstance(self.size, int) else [int(d) for d in self.size]


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """`tf.io.FixedLenSequenceFeature(shape, dtype, allow_missing=False,
    default_value=None)`: any multiple of prod(shape) values, as [n] + shape;
    in a batch, padded to the longest with `default_value` (a scalar)."""

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


_RowSplits = collections.namedtuple("RowSplits", ["key"])
_RowLengths = collections.namedtuple("RowLengths", ["key"])
_RowStarts = collections.namedtuple("RowStarts", ["key"])
_RowLimits = collections.namedtuple("RowLimits", ["key"])
_ValueRowIds = collections.namedtuple("ValueRowIds", ["key"])
_UniformRowLength = collections.namedtuple("UniformRowLength", ["length"])


class RaggedFeature(collections.namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype",
                          "validate"])):
    """`tf.io.RaggedFeature(dtype, value_key=None, partitions=(),
    row_splits_dtype=tf.int32, validate=False)`: the values of feature
    `value_key` (default: the dict key) as a ragged row, cut further by
    `partitions` (outermost first), each read from an int64 feature of the
    same example (`RowSplits`, `RowLengths`, `RowStarts`, `RowLimits`,
    `ValueRowIds`) or fixed (`UniformRowLength`)."""

    RowSplits = _RowSplits
    RowLengths = _RowLengths
    RowStarts = _RowStarts
    RowLimits = _RowLimits
    ValueRowIds = _ValueRowIds
    UniformRowLength = _UniformRowLength

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype=dtypes.int32,
                validate=False):
        if value_key is not None and (not isinstance(value_key, str) or not value_key):
            raise ValueError(f"Argument `value_key` must be a non-empty string, got "
                             f"{value_key!r}")
        partitions = tuple(partitions)
        for p in partitions:
            if not isinstance(p, _PARTITIONS):
                raise TypeError(f"Argument `partitions` must be a list of partition objects "
                                f"{[t.__name__ for t in _PARTITIONS]}; got: {p!r}")
        row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if row_splits_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"Argument `row_splits_dtype` must be int32 or int64, got "
                             f"{row_splits_dtype!r}")
        return super().__new__(cls, dtypes.as_dtype(dtype), value_key, partitions,
                               row_splits_dtype, validate)


_PARTITIONS = (_RowSplits, _RowLengths, _RowStarts, _RowLimits, _ValueRowIds,
               _UniformRowLength)
_ALLOWED = (dtypes.float32, dtypes.int64, dtypes.string)


def feature_shape(key, feature):
    if feature.shape is None:
        raise ValueError(f"Missing shape for feature {key}. Received feature={feature!r}.")
    dims = [int(d) for d in (feature.shape.as_list() if hasattr(feature.shape, "as_list")
                             else feature.shape)]
    for d in dims:
        if d < 0:
            raise ValueError(f"Dimension {d} must be >= 0")
    return tuple(dims)


def feature_dtype(feature):
    dtype = dtypes.as_dtype(feature.dtype)
    if dtype not in _ALLOWED:
        raise InvalidArgumentError(f"Value for attr 'Tdense' of {dtype.name} is not in the "
                                   "list of allowed values: float, int64, string")
    return dtype


def check(features):
    """[(key, feature, dtype, shape)] of a features dict, by key; shape is None
    for a RaggedFeature."""
    if not isinstance(features, dict):
        raise TypeError(f"features must be a dict of feature configurations, got "
                        f"{type(features).__name__}")
    if not features:
        raise ValueError("Invalid argument: features cannot be empty.")
    out = []
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, RaggedFeature):
            out.append((key, feature, feature_dtype(feature), None))
        elif isinstance(feature, (FixedLenFeature, FixedLenSequenceFeature)):
            if isinstance(feature, FixedLenSequenceFeature) and not feature.allow_missing:
                raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing "
                                 "to be True.")
            out.append((key, feature, feature_dtype(feature), feature_shape(key, feature)))
        else:
            raise ValueError(f"Unsupported feature type for {key!r}: "
                             f"{type(feature).__name__} (VarLenFeature and SparseFeature, "
                             "which give SparseTensors, are not available)")
    return out
