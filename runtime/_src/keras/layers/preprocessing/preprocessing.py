"""Preprocessing layers: `Rescaling`, `Normalization`, `CategoryEncoding`,
`StringLookup`, `IntegerLookup`.

    Rescaling(scale, offset=0.0)        x * scale + offset
    Normalization(axis=-1, mean=None, variance=None)
        (x - mean) / max(sqrt(variance), 1e-7); `adapt(data)` sets mean and
        variance (population) per index of `axis`, over every other axis
    CategoryEncoding(num_tokens, output_mode="multi_hot")
        ids -> (batch, num_tokens): "one_hot", "multi_hot" or "count"
    StringLookup(vocabulary=None, mask_token=None, oov_token="[UNK]",
                 output_mode="int", invert=False)
    IntegerLookup(vocabulary=None, mask_token=None, oov_token=-1, ...)
        token -> index: the mask token (when given) is 0, then one
        out-of-vocabulary index, then the vocabulary in order; `adapt(data)`
        takes the vocabulary by decreasing count (ties: larger token first),
        as Keras; invert=True maps indices back to tokens.

Lookups compare each token with the vocabulary (a [..., vocabulary]
comparison), so they run in graphs too; they suit the small vocabularies
of tests and examples.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["CategoryEncoding", "IntegerLookup", "Normalization", "Rescaling", "StringLookup"]

_EPSILON = 1e-7


def _as_numpy(data):
    if isinstance(data, Tensor):
        return data.numpy()
    if hasattr(data, "as_numpy_iterator"):
        return np.concatenate([np.asarray(b) for b in data.as_numpy_iterator()])
    return np.asarray(data)


class Rescaling(ConfigurableLayer):
    """`keras.layers.Rescaling(scale, offset=0.0)`."""

    _config_keys = ("scale", "offset")

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset
        self.supports_masking = True

    def call(self, inputs):
        dtype = inputs.dtype if inputs.dtype.is_floating else dtypes.float32
        x = math_ops.cast(inputs, dtype)
        return math_ops.add(math_ops.multiply(x, array_ops.constant(self.scale, dtype)),
                            array_ops.constant(self.offset, dtype))


class Normalization(ConfigurableLayer):
    """`keras.layers.Normalization(axis=-1, mean=None, variance=None, invert=False)`."""

    _config_keys = ("axis", "invert")

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        if axis is None:
            axis = ()
        self.axis = tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
        if (mean is None) != (variance is None):
            raise ValueError("When setting values directly, both `mean` and `variance` must "
                             f"be set. Received: mean={mean} and variance={variance}")
        self.input_mean, self.input_variance = mean, variance
        self.invert = bool(invert)
        self.adapt_mean = self.adapt_variance = None

    def _kept(self, rank):
        return sorted(a % rank for a in self.axis)

    def build(self, input_shape):
        if self.input_mean is None:
            shape = tuple(input_shape[a] for a in self._kept(len(input_shape)))
            self.adapt_mean = self.add_weight(shape=shape, initializer="zeros", name="mean",
                                              trainable=False)
            self.adapt_variance = self.add_weight(shape=shape, initializer="ones",
                                                  name="variance", trainable=False)
            self.count = self.add_weight(shape=(), initializer="zeros", name="count",
                                         dtype="int64", trainable=False)
        self.built = True

    def adapt(self, data):
        """Set mean and variance from `data` (an array, tensor or dataset)."""
        data = _as_numpy(data).astype("float64")
        if not self.built:
            self._build_for(convert_to_tensor(data[:1].astype("float32")))
        kept = self._kept(data.ndim)
        reduce = tuple(a for a in range(data.ndim) if a not in kept)
        self.adapt_mean.assign(data.mean(axis=reduce).astype("float32"))
        self.adapt_variance.assign(data.var(axis=reduce).astype("float32"))
        self.count.assign(np.int64(np.prod([data.shape[a] for a in reduce])))

    def _broadcast(self, value, rank):
        kept = self._kept(rank)
        shape = [1] * rank
        value = convert_to_tensor(np.asarray(value, "float32")) if not isinstance(
            value, Tensor) and not hasattr(value, "read_value") else value
        dims = list(value.shape.dims) if hasattr(value.shape, "dims") else list(value.shape)
        if len(dims) == len(kept):
            for a, d in zip(kept, dims):
                shape[a] = d
            return array_ops.reshape(value, shape)
        return value

    def call(self, inputs):
        rank = inputs.shape.rank
        mean = self.input_mean if self.adapt_mean is None else self.adapt_mean
        var = self.input_variance if self.adapt_variance is None else self.adapt_variance
        mean = math_ops.cast(self._broadcast(mean, rank), inputs.dtype)
        var = math_ops.cast(self._broadcast(var, rank), inputs.dtype)
        std = math_ops.maximum(math_ops.sqrt(var), array_ops.constant(_EPSILON, inputs.dtype))
        if self.invert:
            return math_ops.add(mean, math_ops.multiply(inputs, std))
        return math_ops.divide(math_ops.subtract(inputs, mean), std)

    def get_config(self):
        config = super().get_config()
        mean, var = self.input_mean, self.input_variance
        config["mean"] = None if mean is None else np.asarray(mean).tolist()
        config["variance"] = None if var is None else np.asarray(var).tolist()
        return config


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


class _Lookup(ConfigurableLayer):
    _token_dtype = None
    _config_keys = ("num_oov_indices", "mask_token", "oov_token", "output_mode", "invert")

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=None,
                 vocabulary=None, output_mode="int", invert=False, **kwargs):
        kwargs.pop("dtype", None)
        super().__init__(**kwargs)
        if num_oov_indices != 1:
            raise NotImplementedError(f"{type(self).__name__}: only num_oov_indices=1 is "
                                      f"supported, got {num_oov_indices}")
        if output_mode not in ("int", "one_hot", "multi_hot", "count"):
            raise ValueError(f"Unknown arg for output_mode: {output_mode!r}")
        self.max_tokens, self.num_oov_indices = max_tokens, num_oov_indices
        self.mask_token, self.oov_token = mask_token, oov_token
        self.output_mode, self.invert = output_mode, bool(invert)
        self._vocabulary = []
        if vocabulary is not None:
            self.set_vocabulary(vocabulary)

    def set_vocabulary(self, vocabulary):
        self._vocabulary = [self._token(v) for v in _as_numpy(vocabulary).reshape(-1)]

    def _token(self, value):
        return value.decode() if isinstance(value, bytes) else value

    def adapt(self, data):
        """The vocabulary: `data`'s tokens by decreasing count (ties: larger first)."""
        tokens, counts = np.unique(_as_numpy(data).reshape(-1), return_counts=True)
        tokens = [self._token(t.item() if hasattr(t, "item") else t) for t in tokens]
        keep = [(c, t) for t, c in zip(tokens, counts)
                if t != self.mask_token and t != self.oov_token]
        keep.sort(reverse=True)
        if self.max_tokens is not None:
            keep = keep[:self.max_tokens - self.num_oov_indices - (self.mask_token is not None)]
        self._vocabulary = [t for _, t in keep]

    def get_vocabulary(self):
        head = [] if self.mask_token is None else [self.mask_token]
        return head + [self.oov_token] * self.num_oov_indices + list(self._vocabulary)

    def vocabulary_size(self):
        return len(self.get_vocabulary())

    def call(self, inputs):
        full = self.get_vocabulary()
        if self.invert:
            table = array_ops.constant(np.array(full, dtype=object if isinstance(
                full[0], str) else "int64"))
            return array_ops.gather(table, math_ops.cast(inputs, dtypes.int64))
        first = len(full) - len(self._vocabulary)
        x = convert_to_tensor(inputs)
        if self._token_dtype is dtypes.int64:
            x = math_ops.cast(x, dtypes.int64)
        index = self._lookup(x, first)
        if self.output_mode == "int":
            return index
        return encode(index, len(full), self.output_mode, dtypes.int64
                      if self.output_mode != "count" else dtypes.int64)

    def _lookup(self, x, first):
        oov = array_ops.constant(first - 1, dtypes.int64)
        if not self._vocabulary:
            index = array_ops.fill(array_ops.shape(x), oov)
        else:
            hits = _matches(array_ops.expand_dims(x, -1), self._vocabulary)
            found = reduction_ops.reduce_any(hits, axis=-1)
            pos = math_ops.add(reduction_ops.argmax(math_ops.cast(hits, dtypes.int32), axis=-1),
                               array_ops.constant(first, dtypes.int64))
            index = math_ops.where(found, pos, array_ops.fill(array_ops.shape(x), oov))
        if self.mask_token is not None:
            mask = _matches(x, self.mask_token)
            index = math_ops.where(mask, array_ops.zeros_like(index), index)
        return index

    def get_config(self):
        config = super().get_config()
        config.update({"max_tokens": self.max_tokens, "vocabulary": list(self._vocabulary)})
        return config


def _matches(x, tokens):
    """x == tokens (a token or a list), elementwise. A string tensor made from
    a numpy str array holds str where one from Python strings holds bytes and
    the two never compare equal here, so strings are compared in both forms."""
    if isinstance(tokens, list) and tokens and not isinstance(tokens[0], str) or \
            isinstance(tokens, int):
        return math_ops.equal(x, array_ops.constant(np.array(tokens, "int64")))
    texts = np.array(tokens, dtype=object)
    raw = np.array([t.encode() for t in np.reshape(texts, -1)], dtype=object).reshape(
        texts.shape)
    return math_ops.logical_or(math_ops.equal(x, array_ops.constant(texts)),
                               math_ops.equal(x, array_ops.constant(raw)))


class StringLookup(_Lookup):
    """`keras.layers.StringLookup(max_tokens=None, num_oov_indices=1,
    mask_token=None, oov_token="[UNK]", vocabulary=None, output_mode="int",
    invert=False)`."""

    _token_dtype = dtypes.string

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None,
                 oov_token="[UNK]", vocabulary=None, **kwargs):
        super().__init__(max_tokens, num_oov_indices, mask_token, oov_token, vocabulary,
                         **kwargs)


class IntegerLookup(_Lookup):
    """`keras.layers.IntegerLookup(max_tokens=None, num_oov_indices=1,
    mask_token=None, oov_token=-1, vocabulary=None, output_mode="int",
    invert=False)`."""

    _token_dtype = dtypes.int64

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1,
                 vocabulary=None, **kwargs):
        super().__init__(max_tokens, num_oov_indices, mask_token, oov_token, vocabulary,
                         **kwargs)

    def _token(self, value):
        return int(value)
