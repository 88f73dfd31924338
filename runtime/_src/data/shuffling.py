"""`shuffle` with TensorFlow's buffer semantics.

    ds.shuffle(3, seed=1)

fills a buffer with the first 3 elements; each output is a uniformly chosen
buffer slot, refilled from the input (so an element can move at most
`buffer_size - 1` places earlier). Not a full permutation unless the buffer
holds the whole dataset. With a seed the orders are repeatable from run to
run (so are they after `tf.random.set_seed`, each shuffle with its own seed
from the global one, as TF's op seeds); `reshuffle_each_iteration` gives
each new iteration another order.
The same code reorders row indices on the fused batch path, so both paths
give the same order for the same seed.
"""

import itertools
import threading

import numpy as np

from runtime._src.data.node import DatasetNode, static_int
from runtime._src.ops import random_ops

__all__ = ["Shuffle", "buffered_shuffle"]


def buffered_shuffle(iterator, size, rng):
    """The elements of `iterator` in TensorFlow's shuffle-buffer order."""
    buffer = list(itertools.islice(iterator, size))
    draws, k = (), 0
    for item in iterator:
        if k == len(draws):
            draws, k = rng.random(1024), 0
        j = int(draws[k] * len(buffer))
        k += 1
        yield buffer[j]
        buffer[j] = item
    for i in rng.permutation(len(buffer)):    # the input ended: the rest in random order
        yield buffer[i]


def shuffled_order(n, size, rng):
    """`buffered_shuffle(iter(range(n)), size, rng)` as one numpy array,
    computed without a Python loop (the same draws, so the same order).

    While input remains, output t takes slot j[t], which holds the initial
    element j[t] if the slot was never taken before, else the element put
    there at the previous time p that took the slot: input index size + p.
    """
    size = min(size, n)
    steps = n - size
    draws = rng.random(-(-steps // 1024) * 1024)[:steps]     # drawn as in buffered_shuffle
    slots = (draws * size).astype(np.intp)
    by_slot = np.argsort(slots, kind="stable")                # each slot's times, in order
    previous = np.full(steps, -1, np.intp)
    same = slots[by_slot[1:]] == slots[by_slot[:-1]]
    previous[by_slot[1:][same]] = by_slot[:-1][same]
    out = np.where(previous >= 0, size + previous, slots)
    buffer = np.arange(size)                                # what the slots hold at the end
    last = np.full(size, -1, np.intp)
    last[slots[by_slot]] = by_slot                          # the last time each slot was taken
    buffer = np.where(last >= 0, size + last, buffer)
    return np.concatenate([out, buffer[rng.permutation(size)]])


class Shuffle(DatasetNode):
    def __init__(self, source, buffer_size, seed, reshuffle_each_iteration):
        size = static_int(buffer_size, "buffer_size", "Dataset.shuffle")
        if size <= 0 and size != -1:
            raise ValueError(f"Dataset.shuffle: buffer_size must be greater than zero, got "
                             f"{size}")
        self._size = size
        self._seed = None if seed is None else static_int(seed, "seed", "Dataset.shuffle")
        self._reshuffle = bool(reshuffle_each_iteration)
        base = random_ops.dataset_seed(self._seed)
        self._base = base if base is not None else int(np.random.SeedSequence().entropy % (2 ** 63))
        self._epoch = 0
        self._lock = threading.Lock()
        self._inputs = (source,)
        self._source = source
        super().__init__(source.element_spec)

    def _cardinality(self):
        return self._source._cardinality()

    def _rng(self):
        with self._lock:
            epoch = self._epoch
            if self._reshuffle:
                self._epoch += 1
        return np.random.default_rng([self._base, epoch])

    def _buffer(self):
        return self._size if self._size > 0 else 1 << 62

    def _iterate(self, env):
        return buffered_shuffle(self._source._iterate(env), self._buffer(), self._rng())

    def _plan(self, env):
        plan = self._source._plan(env)
        if plan is None:
            return None
        if plan.size is not None:          # rows 0..n-1 in order: shuffle them with numpy
            return plan.with_order(lambda order: shuffled_order(plan.size, self._buffer(),
                                                                self._rng()))
        return plan.with_order(lambda order: buffered_shuffle(iter(order), self._buffer(),
                                                              self._rng()))
