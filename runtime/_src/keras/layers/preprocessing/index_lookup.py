"""The lookup layers: `StringLookup` and `IntegerLookup` (Keras 3's index_lookup).

    StringLookup(vocabulary=None, mask_token=None, oov_token="[UNK]",
                 output_mode="int", invert=False)
    IntegerLookup(vocabulary=None, mask_token=None, oov_token=-1, ...)
        token -> index: the mask token (when given, with output_mode="int")
        is 0, then `num_oov_indices` out-of-vocabulary indices, then the
        vocabulary in order; `adapt(data)` takes the vocabulary by decreasing
        count (ties: larger token first), as Keras; invert=True maps indices
        back to tokens.

An unknown token takes the one OOV index; with several, the
`to_hash_bucket_fast` bucket of the string (of an integer's decimal text with
IntegerLookup's oov_method="farmhash"), or the integer modulo their number
(oov_method="floormod"); with a `salt`, the SipHash bucket
(`to_hash_bucket_strong`); with none it is an InvalidArgumentError, as Keras 3.

Lookups compare each token with the vocabulary (a [..., vocabulary]
comparison), so they run in graphs too; they suit the small vocabularies
of tests and examples.
"""

import os

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.keras.layers.preprocessing.bucketing import salt_pair
from runtime._src.ops import (array_ops, check_ops, math_ops, reduction_ops, scatter_ops,
                              string_more_ops, text_ops)
from runtime._src.keras.layers.preprocessing.category_encoding import encode

__all__ = ["IntegerLookup", "StringLookup"]


def _as_numpy(data):
    if isinstance(data, Tensor):
        return data.numpy()
    if hasattr(data, "as_numpy_iterator"):
        return np.concatenate([np.asarray(b) for b in data.as_numpy_iterator()])
    return np.asarray(data)


class _Lookup(ConfigurableLayer):
    _token_dtype = None
    _config_keys = ("num_oov_indices", "mask_token", "oov_token", "output_mode", "invert")

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=None,
                 vocabulary=None, output_mode="int", invert=False, salt=None,
                 pad_to_max_tokens=False, sparse=False, idf_weights=None, encoding="utf-8",
                 **kwargs):
        kwargs.pop("dtype", None)
        kwargs.pop("vocabulary_size", None)       # in Keras's config: derived, not an argument
        super().__init__(**kwargs)
        if idf_weights is not None:
            raise ValueError("`idf_weights` should only be set if `output_mode` is 'tf_idf' "
                             "(not supported here: see docs/tf_differences.md). Received: "
                             f"output_mode={output_mode}")
        if sparse:
            raise ValueError("The lookup layers here give dense outputs: sparse=True is not "
                             "supported")
        self.pad_to_max_tokens, self.sparse, self.encoding = bool(pad_to_max_tokens), False, \
            encoding
        if salt is not None and self._token_dtype is dtypes.int64 and \
                getattr(self, "oov_method", "farmhash") != "farmhash":
            raise ValueError("`salt` can only be used when `oov_method='farmhash'`. "
                             f"Received: oov_method={self.oov_method}")
        self.salt = salt_pair(salt, "IndexLookup", "2 integers")
        if num_oov_indices < 0:
            raise ValueError("`num_oov_indices` must be greater than or equal to 0. "
                             f"Received: num_oov_indices={num_oov_indices}")
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

    def _oov_start(self):
        return 1 if self.mask_token is not None and self.output_mode == "int" else 0

    def get_vocabulary(self):
        head = [self.mask_token] if self._oov_start() else []
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
        depth = self.max_tokens if self.pad_to_max_tokens and self.max_tokens else len(full)
        return encode(index, depth, self.output_mode, dtypes.int64)

    def _lookup(self, x, first):
        oov = self._oov_index(x)
        if not self._vocabulary:
            index, found = oov, array_ops.zeros_like(oov, dtype=dtypes.bool)
        else:
            hits = _matches(array_ops.expand_dims(x, -1), self._vocabulary)
            found = reduction_ops.reduce_any(hits, axis=-1)
            pos = math_ops.add(reduction_ops.argmax(math_ops.cast(hits, dtypes.int32), axis=-1),
                               array_ops.constant(first, dtypes.int64))
            index = math_ops.where(found, pos, oov)
        if self.mask_token is not None:
            mask = _matches(x, self.mask_token)
            found = math_ops.logical_or(found, mask)
            dropped = 0 if self.output_mode == "int" else -1   # no column in the encodings
            index = math_ops.where(mask, array_ops.fill(array_ops.shape(index), np.int64(
                dropped)), index)
        if self.num_oov_indices == 0:
            check_ops.Assert(reduction_ops.reduce_all(found), [
                "When `num_oov_indices=0` all inputs should be in vocabulary, found OOV "
                "values", scatter_ops.boolean_mask(x, math_ops.logical_not(found)),
                "consider setting `num_oov_indices=1`."], summarize=-1)
        return index

    def _oov_index(self, x):
        """The index of each token if it is out of the vocabulary."""
        n, start = self.num_oov_indices, np.int64(self._oov_start())
        if n <= 1:
            return array_ops.fill(array_ops.shape(x), np.int64(start if n else -1))
        if x.dtype.is_integer and getattr(self, "oov_method", "farmhash") == "floormod":
            return math_ops.floormod(math_ops.cast(x, dtypes.int64), np.int64(n)) + start
        text = x if x.dtype == dtypes.string else text_ops.as_string(x)
        if self.salt is not None:
            return string_more_ops.to_hash_bucket_strong(text, n, self.salt) + start
        return text_ops.to_hash_bucket_fast(text, n) + start

    def get_config(self):
        """Keras 3.15's keys, in its order."""
        config = self._base_config()
        config.update({"invert": self.invert, "max_tokens": self.max_tokens,
                       "num_oov_indices": self.num_oov_indices, "oov_token": self.oov_token,
                       "mask_token": self.mask_token, "output_mode": self.output_mode,
                       "sparse": self.sparse, "pad_to_max_tokens": self.pad_to_max_tokens})
        config.update(self._dtype_config())
        config.update({"idf_weights": None, "vocabulary": list(self._vocabulary),
                       "vocabulary_size": self.vocabulary_size(),
                       "oov_method": getattr(self, "oov_method", "floormod"),
                       "salt": self.salt})
        return config

    def _dtype_config(self):
        return {}

    def load_assets(self, dir_path):
        """The vocabulary Keras 3 saved in `vocabulary.txt` (the special
        tokens at its head dropped), unless the config gave one."""
        if self._vocabulary:
            return
        with open(os.path.join(dir_path, "vocabulary.txt"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        while lines and lines[-1] == "":
            lines.pop()
        tokens = [self._token(line) for line in lines]
        head = [self._token(t) for t in self.get_vocabulary()]
        if tokens[:len(head)] == head:
            tokens = tokens[len(head):]
        self._vocabulary = tokens


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
                 oov_token="[UNK]", vocabulary=None, oov_method="floormod", **kwargs):
        if oov_method not in ("floormod", "farmhash"):
            raise ValueError('`oov_method` must be one of "floormod", "farmhash". '
                             f"Received: oov_method={oov_method}")
        self.oov_method = oov_method
        super().__init__(max_tokens, num_oov_indices, mask_token, oov_token, vocabulary,
                         **kwargs)

    def get_config(self):
        return {**super().get_config(), "encoding": self.encoding}


class IntegerLookup(_Lookup):
    """`keras.layers.IntegerLookup(max_tokens=None, num_oov_indices=1,
    mask_token=None, oov_token=-1, vocabulary=None, output_mode="int",
    invert=False, oov_method="floormod")`."""

    _token_dtype = dtypes.int64

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1,
                 vocabulary=None, oov_method="floormod", salt=None, vocabulary_dtype="int64",
                 **kwargs):
        if oov_method not in ("floormod", "farmhash"):
            raise ValueError('`oov_method` must be one of "floormod", "farmhash". '
                             f"Received: oov_method={oov_method}")
        self.oov_method = oov_method
        super().__init__(max_tokens, num_oov_indices, mask_token, oov_token, vocabulary,
                         salt=salt, **kwargs)

    def _dtype_config(self):
        return {"vocabulary_dtype": "int64"}

    def _token(self, value):
        return int(value)
