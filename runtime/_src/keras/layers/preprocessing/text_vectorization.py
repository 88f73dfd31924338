"""`keras.layers.TextVectorization`: strings to token indices or token counts.

    TextVectorization(max_tokens=None, standardize="lower_and_strip_punctuation",
                      split="whitespace", ngrams=None, output_mode="int",
                      output_sequence_length=None, pad_to_max_tokens=False,
                      vocabulary=None, idf_weights=None)

Each string is standardized (lower-cased and/or ASCII punctuation removed, or
a callable), split (on whitespace, into characters, not at all, or a
callable returning a RaggedTensor) and extended with its n-grams (tokens
joined by spaces; `ngrams=n` means sizes 1..n, a tuple the sizes listed).
Then, as Keras 3.15:
- "int": the index of each token, 0 for the padding, 1 for an unknown
  token ("[UNK]"), 2.. for the vocabulary; rows padded with 0 to the longest
  row, or padded/cut to `output_sequence_length`;
- "multi_hot" / "count" / "tf_idf": one row of vocabulary_size() entries per
  string (index 0 for unknown tokens): 1 where a token occurs, its count,
  or count * idf (int64, int64, float32).

`adapt(data)` takes the vocabulary by decreasing count (ties: the larger
token first), at most max_tokens entries with the special ones; for tf_idf
the idf of a token is log(1 + documents / (1 + documents holding it)), and
the unknown token's is the mean of the vocabulary's.
"""

import math
import re

import os

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.context import init_scope
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.keras.layers.layer import ConfigurableLayer
from runtime._src.ops import (array_ops, manipulation_ops, math_ops, meshgrid_ops, reduction_ops,
                              shape_ops, sort_ops, text_ops)
from runtime._src.ops.lookup_tables import KeyValueTensorInitializer, StaticHashTable
from runtime._src.ragged import ragged_string_ops
from runtime._src.ragged.ragged_tensor import RaggedTensor

__all__ = ["TextVectorization"]

_PUNCTUATION = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'
_STANDARDIZE = (None, "lower_and_strip_punctuation", "lower", "strip_punctuation")
_SPLIT = (None, "whitespace", "character")
_MODES = ("int", "multi_hot", "count", "tf_idf")


def _texts(data):
    """Python strings of `data` (a list, array, tensor or dataset of strings)."""
    if hasattr(data, "as_numpy_iterator"):
        data = np.concatenate([np.reshape(np.asarray(b, dtype=object), -1)
                               for b in data.as_numpy_iterator()])
    elif isinstance(data, Tensor):
        data = data.numpy()
    flat = np.reshape(np.asarray(data, dtype=object), -1)
    return [t.decode() if isinstance(t, bytes) else str(t) for t in flat]


def _ngram_sizes(ngrams):
    if ngrams is None:
        return None
    if isinstance(ngrams, int):
        if ngrams < 1:
            raise ValueError(f"`ngrams` must be a positive integer or a tuple of them. "
                             f"Received: ngrams={ngrams}")
        return tuple(range(1, ngrams + 1))
    if not isinstance(ngrams, tuple) or not all(isinstance(n, int) for n in ngrams):
        raise ValueError("`ngrams` must be None, an integer, or a tuple of integers. "
                         f"Received: ngrams={ngrams}")
    return ngrams


class TextVectorization(ConfigurableLayer):
    """See the module docstring."""

    _config_keys = ("max_tokens", "standardize", "split", "ngrams", "output_mode",
                    "output_sequence_length", "pad_to_max_tokens", "sparse", "ragged",
                    "encoding")

    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation",
                 split="whitespace", ngrams=None, output_mode="int",
                 output_sequence_length=None, pad_to_max_tokens=False, vocabulary=None,
                 idf_weights=None, sparse=False, ragged=False, encoding="utf-8", **kwargs):
        kwargs.pop("vocabulary_size", None)
        super().__init__(**kwargs)
        if not (standardize in _STANDARDIZE or callable(standardize)):
            raise ValueError(f"Invalid value for argument `standardize`. Expected one of "
                             f"{list(_STANDARDIZE)} or a callable. Received: {standardize!r}")
        if not (split in _SPLIT or callable(split)):
            raise ValueError(f"Invalid value for argument `split`. Expected one of "
                             f"{list(_SPLIT)} or a callable. Received: {split!r}")
        if output_mode not in _MODES:
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of "
                             f"{list(_MODES)}. Received: output_mode={output_mode!r}")
        if output_sequence_length is not None and output_mode != "int":
            raise ValueError("`output_sequence_length` must not be set if `output_mode` is "
                             f"not 'int'. Received output_sequence_length="
                             f"{output_sequence_length}.")
        if sparse or (ragged and output_mode != "int"):
            raise ValueError("TextVectorization here gives dense outputs: sparse=True, and "
                             "ragged=True with an output_mode other than 'int', are not "
                             "supported")
        self.max_tokens, self.standardize, self.split = max_tokens, standardize, split
        self.ngrams, self._sizes = ngrams, _ngram_sizes(ngrams)
        self.output_mode, self.output_sequence_length = output_mode, output_sequence_length
        self.pad_to_max_tokens, self.sparse, self.ragged = pad_to_max_tokens, sparse, ragged
        self.encoding = encoding
        self._vocabulary, self._idf = [], None
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)

    # ----- vocabulary
    def _specials(self):
        return ["", "[UNK]"] if self.output_mode == "int" else ["[UNK]"]

    def set_vocabulary(self, vocabulary, idf_weights=None):
        """The vocabulary (without the special tokens), and for tf_idf its idf weights."""
        if isinstance(vocabulary, str):
            with open(vocabulary, encoding=self.encoding) as f:
                vocabulary = [line.rstrip("\n") for line in f]
        self._vocabulary = [v for v in _texts(vocabulary) if v not in ("", "[UNK]")]
        if self.output_mode == "tf_idf":
            if idf_weights is None:
                raise ValueError("`idf_weights` must be set if output_mode is 'tf_idf'.")
            idf = [float(w) for w in np.reshape(np.asarray(idf_weights), -1)]
            if len(idf) == len(self._vocabulary):
                idf = [float(np.mean(idf))] + idf
            self._idf = idf
        self._table = None

    def load_assets(self, dir_path):
        """The vocabulary Keras 3 saved in `vocabulary.txt` (an adapted one;
        a vocabulary given in the config is kept)."""
        if self._vocabulary:
            return
        with open(os.path.join(dir_path, "vocabulary.txt"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        self.set_vocabulary(lines)

    def get_vocabulary(self, include_special_tokens=True):
        head = self._specials() if include_special_tokens else []
        return head + list(self._vocabulary)

    def vocabulary_size(self):
        return len(self._specials()) + len(self._vocabulary)

    def adapt(self, data, batch_size=None, steps=None):
        docs = [self._python_tokens(t) for t in _texts(data)]
        counts, doc_counts = {}, {}
        for tokens in docs:
            for t in tokens:
                counts[t] = counts.get(t, 0) + 1
            for t in set(tokens):
                doc_counts[t] = doc_counts.get(t, 0) + 1
        ranked = sorted(((c, t) for t, c in counts.items() if t not in ("", "[UNK]")),
                        reverse=True)
        if self.max_tokens is not None:
            ranked = ranked[:self.max_tokens - len(self._specials())]
        self._vocabulary = [t for _, t in ranked]
        if self.output_mode == "tf_idf":
            idf = [math.log(1 + len(docs) / (1 + doc_counts[t])) for t in self._vocabulary]
            self._idf = [float(np.mean(idf)) if idf else 0.0] + idf
        self._table = None

    def _python_tokens(self, text):
        """The tokens of one string, computed in Python for adapt (the same rules
        as the graph ops of `call`)."""
        if callable(self.standardize) or callable(self.split):
            out = self._token_rows(array_ops.constant([text]))
            row = out[0].numpy()[0][out[1].numpy()[0]]
            return [t.decode() if isinstance(t, bytes) else str(t) for t in row]
        if self.standardize in ("lower", "lower_and_strip_punctuation"):
            text = text.lower()
        if self.standardize in ("strip_punctuation", "lower_and_strip_punctuation"):
            text = re.sub(_PUNCTUATION, "", text)
        words = text.split() if self.split == "whitespace" else \
            list(text) if self.split == "character" else [text]
        if self._sizes is None:
            return words
        return [" ".join(words[i:i + n]) for n in self._sizes for i in range(len(words) - n + 1)]

    # ----- the graph side
    def _standardized(self, x):
        if callable(self.standardize):
            return self.standardize(x)
        if self.standardize in ("lower", "lower_and_strip_punctuation"):
            x = text_ops.lower(x)
        if self.standardize in ("strip_punctuation", "lower_and_strip_punctuation"):
            x = text_ops.regex_replace(x, _PUNCTUATION, "")
        return x

    def _token_rows(self, x):
        """(tokens (batch, T) strings, valid (batch, T) bool) of a (batch,) string tensor."""
        x = self._standardized(x)
        if self.split is None:
            parts = array_ops.expand_dims(x, -1)
        elif callable(self.split):
            parts = self.split(x)
        elif self.split == "whitespace":
            parts = ragged_string_ops.split(x)
        else:
            parts = ragged_string_ops.unicode_split(x, "UTF-8")
        if isinstance(parts, RaggedTensor):
            tokens = parts.to_tensor(default_value="")
            valid = meshgrid_ops.sequence_mask(parts.row_lengths(), array_ops.shape(tokens)[1])
        else:
            tokens = parts
            valid = math_ops.not_equal(tokens, "")
        if self._sizes is None:
            return tokens, valid
        grams, masks = [], []
        for n in self._sizes:
            grams.append(text_ops.join([tokens[:, i:(i - (n - 1)) or None] for i in range(n)],
                                       separator=" ") if n > 1 else tokens)
            masks.append(valid[:, n - 1:] if n > 1 else valid)
        return array_ops.concat(grams, 1), array_ops.concat(masks, 1)

    def _lookup_table(self):
        if getattr(self, "_table", None) is None:
            first = len(self._specials())
            keys = self._vocabulary or ["[UNK]"]
            values = list(range(first, first + len(self._vocabulary))) or [first - 1]
            with init_scope():     # made once, outside any graph being traced
                self._table = StaticHashTable(KeyValueTensorInitializer(
                    array_ops.constant(np.array(keys, dtype=object)),
                    array_ops.constant(np.array(values, dtype=np.int64))), first - 1)
        return self._table

    def call(self, inputs):
        x = convert_to_tensor(inputs)
        if x.dtype != dtypes.string:
            raise ValueError("TextVectorization takes string inputs; received dtype "
                             f"{x.dtype.name}")
        rank = x.shape.rank
        if rank == 2 and x.shape.dims[-1] == 1:
            x = array_ops.squeeze(x, [1])
        single = rank == 0
        if single:
            x = array_ops.expand_dims(x, 0)
        if self.split is None and self._sizes is None and self.output_mode == "int" \
                and rank != 0:
            index = self._lookup_table().lookup(self._standardized(x))
            out = array_ops.expand_dims(index, -1) if rank == 2 else index
            return self._fit_length(out) if rank == 2 else out
        tokens, valid = self._token_rows(x)
        index = self._lookup_table().lookup(tokens)
        out = self._encode(index, valid) if self.output_mode != "int" else \
            self._compact(index, valid)
        return out[0] if single else out

    def _compact(self, index, valid):
        """The valid positions of each row first, in order, then zeros."""
        order = sort_ops.argsort(math_ops.cast(math_ops.logical_not(valid), dtypes.int32),
                                 axis=1, stable=True)
        index = math_ops.where(valid, index, array_ops.zeros_like(index))
        index = array_ops.gather(index, order, batch_dims=1)
        longest = reduction_ops.reduce_max(reduction_ops.reduce_sum(
            math_ops.cast(valid, dtypes.int32), axis=1))
        index = index[:, :longest]
        if self.ragged and self.output_sequence_length is None:
            return RaggedTensor.from_tensor(index, lengths=reduction_ops.reduce_sum(
                math_ops.cast(valid, dtypes.int64), axis=1))
        return self._fit_length(index)

    def _fit_length(self, index):
        n = self.output_sequence_length
        if n is None:
            return index
        index = index[:, :n]
        short = n - array_ops.shape(index)[1]
        return shape_ops.pad(index, array_ops.stack([array_ops.constant([0, 0]),
                                                     array_ops.stack([0, short])]))

    def _encode(self, index, valid):
        depth = self.vocabulary_size()
        if self.pad_to_max_tokens and self.max_tokens is not None:
            depth = max(depth, self.max_tokens)
        hot = manipulation_ops.one_hot(index, depth, dtype=dtypes.float32)
        hot = hot * array_ops.expand_dims(math_ops.cast(valid, dtypes.float32), -1)
        counts = reduction_ops.reduce_sum(hot, axis=1)
        if self.output_mode == "multi_hot":
            return math_ops.cast(math_ops.greater(counts, 0.0), dtypes.int64)
        if self.output_mode == "count":
            return math_ops.cast(counts, dtypes.int64)
        idf = np.zeros(depth, np.float32)
        idf[:len(self._idf or [])] = self._idf or []
        return counts * array_ops.constant(idf)

    def compute_output_shape(self, input_shape):
        batch = input_shape[0] if len(input_shape) else None
        if self.output_mode != "int":
            depth = self.vocabulary_size()
            if self.pad_to_max_tokens and self.max_tokens is not None:
                depth = max(depth, self.max_tokens)
            return (batch, depth) if len(input_shape) else (depth,)
        return (batch, self.output_sequence_length)

    def get_config(self):
        config = super().get_config()
        encoding = config.pop("encoding", self.encoding)        # Keras 3.15's order
        config.update({"vocabulary": list(self._vocabulary) or None,
                       "idf_weights": list(self._idf[1:]) if self._idf else None,
                       "encoding": encoding, "vocabulary_size": self.vocabulary_size()})
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config.pop("vocabulary_size", None)
        return cls(**config)
