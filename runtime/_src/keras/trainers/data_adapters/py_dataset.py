"""`keras.utils.PyDataset` (also `keras.utils.Sequence`): batches computed by
Python code, one `__getitem__(index)` per batch, that `fit`, `evaluate` and
`predict` take as `x`.

    class Batches(keras.utils.PyDataset):
        def __init__(self, x, y, batch_size, **kwargs):
            super().__init__(**kwargs)
            self.x, self.y, self.batch_size = x, y, batch_size
        def __len__(self):
            return -(-len(self.x) // self.batch_size)
        def __getitem__(self, index):
            s = slice(index * self.batch_size, (index + 1) * self.batch_size)
            return self.x[s], self.y[s]

    model.fit(Batches(x, y, 32), epochs=3)     # batch order shuffled each epoch

A batch is `x`, `(x,)`, `(x, y)` or `(x, y, sample_weight)`. `fit` visits the
batches in a new random order each epoch (Python's `random`, as Keras) unless
`shuffle=False`, and calls `on_epoch_begin()` / `on_epoch_end()` around each
epoch. `num_batches` (default: `len(self)`) may be None for an endless
dataset, which then needs `steps_per_epoch`. `workers`, `use_multiprocessing`
and `max_queue_size` are kept as Keras keeps them; batches are computed in the
calling thread.
"""

import itertools
import random
import warnings

__all__ = ["PyDataset", "Sequence", "standardize_batch"]

_DEFAULTS = {"_workers": 1, "_use_multiprocessing": False, "_max_queue_size": 10}


class PyDataset:
    """`keras.utils.PyDataset(workers=1, use_multiprocessing=False, max_queue_size=10)`."""

    def __init__(self, workers=1, use_multiprocessing=False, max_queue_size=10):
        self._workers = workers
        self._use_multiprocessing = use_multiprocessing
        self._max_queue_size = max_queue_size

    def _setting(self, name):
        if not all(hasattr(self, key) for key in _DEFAULTS):
            for key, value in _DEFAULTS.items():
                if not hasattr(self, key):
                    setattr(self, key, value)
            warnings.warn("Your `PyDataset` class should call `super().__init__(**kwargs)` in "
                          "its constructor. `**kwargs` can include `workers`, "
                          "`use_multiprocessing`, `max_queue_size`. Do not pass these "
                          "arguments to `fit()`, as they will be ignored.", stacklevel=3)
        return getattr(self, name)

    @property
    def workers(self):
        return self._setting("_workers")

    @workers.setter
    def workers(self, value):
        self._workers = value

    @property
    def use_multiprocessing(self):
        return self._setting("_use_multiprocessing")

    @use_multiprocessing.setter
    def use_multiprocessing(self, value):
        self._use_multiprocessing = value

    @property
    def max_queue_size(self):
        return self._setting("_max_queue_size")

    @max_queue_size.setter
    def max_queue_size(self, value):
        self._max_queue_size = value

    def __getitem__(self, index):
        """The batch at position `index` (subclasses define it)."""
        raise NotImplementedError

    def __iter__(self):
        try:
            count = self.num_batches
        except NotImplementedError:
            count = None
        for index in itertools.count() if count is None else range(count):
            yield self[index]

    @property
    def num_batches(self):
        """The number of batches (`len(self)`), or None for an endless dataset."""
        if hasattr(self, "__len__"):
            return len(self)
        raise NotImplementedError("You need to implement the `num_batches` property:\n\n"
                                  "@property\ndef num_batches(self):\n  return ...")

    def on_epoch_begin(self):
        """Called at the start of every epoch."""

    def on_epoch_end(self):
        """Called at the end of every epoch."""


Sequence = PyDataset


def standardize_batch(batch):
    """A PyDataset's batch as a tuple (x,), (x, y) or (x, y, sample_weight)."""
    if isinstance(batch, dict):
        return (batch,)
    if isinstance(batch, list):
        batch = tuple(batch)
    if not isinstance(batch, tuple):
        return (batch,)
    if len(batch) not in (1, 2, 3):
        raise ValueError("PyDataset.__getitem__() must return a tuple or a dict. If a tuple, "
                         "it must be ordered either (input,) or (inputs, targets) or (inputs, "
                         f"targets, sample_weights). Received: {str(batch)[:100]}... of type "
                         f"{type(batch)}")
    return batch


def epoch_batches(dataset, shuffle):
    """One epoch of `dataset`'s batches (endless when `num_batches` is None),
    in a random order when `shuffle`."""
    count = dataset.num_batches
    if count is None:
        return (standardize_batch(dataset[i]) for i in itertools.count())
    order = list(range(count))
    if shuffle:
        random.shuffle(order)
    return (standardize_batch(dataset[i]) for i in order)
