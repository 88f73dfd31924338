"""`tf.keras.preprocessing.sequence`'s Keras 2 tools (Keras 3.15's legacy).

    TimeseriesGenerator(data, targets, length, sampling_rate=1, stride=1,
                        start_index=0, end_index=None, shuffle=False,
                        reverse=False, batch_size=128)
        a PyDataset of (samples, targets) batches: the sample ending before
        row r is data[r - length:r:sampling_rate], its target targets[r], for
        r from start_index + length to end_index by stride (shuffle: rows drawn
        with numpy's global RNG)
    make_sampling_table(size, sampling_factor=1e-5)
        word2vec's keep probability of the word of each frequency rank (Zipf)
    skipgrams(sequence, vocabulary_size, window_size=4, negative_samples=1.0,
              shuffle=True, categorical=False, sampling_table=None, seed=None)
        (couples, labels): every in-window pair labelled 1, then random
        negative pairs labelled 0, drawn and shuffled with Python's `random`
"""

import json
import random

import numpy as np

from runtime._src.keras.trainers.data_adapters.py_dataset import PyDataset

__all__ = ["TimeseriesGenerator", "make_sampling_table", "skipgrams"]


class TimeseriesGenerator(PyDataset):
    """`tf.keras.preprocessing.sequence.TimeseriesGenerator`."""

    def __init__(self, data, targets, length, sampling_rate=1, stride=1, start_index=0,
                 end_index=None, shuffle=False, reverse=False, batch_size=128, **kwargs):
        super().__init__(**kwargs)
        if len(data) != len(targets):
            raise ValueError(f"Data and targets have to be of same length. Data length is "
                             f"{len(data)} while target length is {len(targets)}")
        self.data, self.targets, self.length = data, targets, length
        self.sampling_rate, self.stride = sampling_rate, stride
        self.start_index = start_index + length
        self.end_index = len(data) - 1 if end_index is None else end_index
        self.shuffle, self.reverse, self.batch_size = shuffle, reverse, batch_size
        if self.start_index > self.end_index:
            raise ValueError(f"`start_index+length={self.start_index} > end_index="
                             f"{self.end_index}` is disallowed, as no part of the sequence "
                             "would be left to be used as current step.")

    def __len__(self):
        step = self.batch_size * self.stride
        return (self.end_index - self.start_index + step) // step

    def _rows(self, index):
        if self.shuffle:
            return np.random.randint(self.start_index, self.end_index + 1,
                                     size=self.batch_size)
        first = self.start_index + self.batch_size * self.stride * index
        last = min(first + self.batch_size * self.stride, self.end_index + 1)
        return np.arange(first, last, self.stride)

    def __getitem__(self, index):
        rows = self._rows(index)
        samples = np.array([self.data[r - self.length:r:self.sampling_rate] for r in rows])
        targets = np.array([self.targets[r] for r in rows])
        return (samples[:, ::-1, ...] if self.reverse else samples), targets

    def get_config(self):
        """The arguments, data and targets as JSON strings (Keras 3.15's raises
        AttributeError: its PyDataset base has no get_config)."""
        config = {}
        for key in ("data", "targets"):
            value = getattr(self, key)
            if type(value).__module__ == np.__name__:
                value = value.tolist()
            try:
                config[key] = json.dumps(value)
            except TypeError as e:
                raise TypeError(f"{key.capitalize()} not JSON Serializable: {value}") from e
        for key in ("length", "sampling_rate", "stride", "start_index", "end_index",
                    "shuffle", "reverse", "batch_size"):
            config[key] = getattr(self, key)
        return config

    def to_json(self, **kwargs):
        """{"class_name": "TimeseriesGenerator", "config": get_config()} as JSON."""
        return json.dumps({"class_name": type(self).__name__, "config": self.get_config()},
                          **kwargs)


def make_sampling_table(size, sampling_factor=1e-5):
    """Keep probabilities min(1, sqrt(sampling_factor * inverse frequency)),
    the frequency of rank r from Zipf's law (r * (log r + gamma) + 1/2 - 1/(12 r))."""
    rank = np.arange(size)
    rank[0] = 1
    inverse_freq = rank * (np.log(rank) + 0.577) + 0.5 - 1.0 / (12.0 * rank)
    f = sampling_factor * inverse_freq
    return np.minimum(1.0, f / np.sqrt(f))


def _positive_pairs(sequence, window_size, sampling_table):
    pairs = []
    for i, wi in enumerate(sequence):
        if not wi or (sampling_table is not None and sampling_table[wi] < random.random()):
            continue
        for j in range(max(0, i - window_size), min(len(sequence), i + window_size + 1)):
            if j != i and sequence[j]:
                pairs.append([wi, sequence[j]])
    return pairs


def skipgrams(sequence, vocabulary_size, window_size=4, negative_samples=1.0, shuffle=True,
              categorical=False, sampling_table=None, seed=None):
    """Word2vec's (word, context) couples of `sequence` and their labels."""
    couples = _positive_pairs(sequence, window_size, sampling_table)
    positive, negative = ([0, 1], [1, 0]) if categorical else (1, 0)
    labels = [list(positive) if categorical else positive for _ in couples]
    if negative_samples > 0:
        count = int(len(labels) * negative_samples)
        words = [c[0] for c in couples]
        random.shuffle(words)
        couples += [[words[i % len(words)], random.randint(1, vocabulary_size - 1)]
                    for i in range(count)]
        labels += [list(negative) if categorical else negative for _ in range(count)]
    if shuffle:
        if seed is None:
            seed = random.randint(0, 10_000_000)
        for items in (couples, labels):
            random.seed(seed)
            random.shuffle(items)
    return couples, labels
