"""Transformations that reorder, cut or annotate elements without calling
user functions: repeat, take, skip, enumerate, cache, prefetch, options.

    ds.repeat(2)       # the elements twice (repeat() forever)
    ds.take(3)         # the first 3 (take(-1): all)
    ds.skip(3)         # all but the first 3
    ds.enumerate(1)    # (1, e0), (2, e1), ...
    ds.prefetch(2)     # the same elements, produced ahead on a thread
"""

import itertools
import queue
import threading
import time

import numpy as np

from runtime._src.core.tensor import TensorSpec
from runtime._src.data.batching import Plan
from runtime._src.data.env import DEBUG_MODE
from runtime._src.data.node import (
    AUTOTUNE,
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
    DatasetNode,
    static_int,
)

__all__ = ["Cache", "Enumerate", "Prefetch", "Repeat", "Skip", "Take", "WithOptions"]


class _Unary(DatasetNode):
    def __init__(self, source, spec=None):
        self._inputs = (source,)
        self._source = source
        super().__init__(source.element_spec if spec is None else spec)


class Repeat(_Unary):
    def __init__(self, source, count):
        super().__init__(source)
        self._count = -1 if count is None else static_int(count, "count", "Dataset.repeat")

    def _cardinality(self):
        n = self._source._cardinality()
        if self._count == 0 or n == 0:
            return 0
        if self._count < 0:
            return INFINITE_CARDINALITY if n != UNKNOWN_CARDINALITY else UNKNOWN_CARDINALITY
        return n if n < 0 else n * self._count

    def _iterate(self, env):
        epochs = itertools.count() if self._count < 0 else range(self._count)
        for _ in epochs:
            produced = False
            for e in self._source._iterate(env):
                produced = True
                yield e
            if not produced:
                return           # repeat() of an empty dataset ends, as in TF

    def _plan(self, env):
        plan = self._source._plan(env)
        if plan is None:
            return None
        count, order = self._count, plan.order
        return Plan(plan.arrays, plan.spec, lambda: _repeated(order, count), plan.maps)


def _repeated(order, count):
    """The row orders of `count` epochs (forever when negative), each drawn
    anew (a shuffle reshuffles); stops if an epoch is empty."""
    for _ in itertools.count() if count < 0 else range(count):
        rows = order()
        if isinstance(rows, np.ndarray):
            if not len(rows):
                return
            yield from rows.tolist()
            continue
        empty = True
        for row in rows:
            empty = False
            yield row
        if empty:
            return


class Take(_Unary):
    def __init__(self, source, count):
        super().__init__(source)
        self._count = static_int(count, "count", "Dataset.take")

    def _cardinality(self):
        n = self._source._cardinality()
        if self._count < 0 or n == UNKNOWN_CARDINALITY:
            return n
        return self._count if n == INFINITE_CARDINALITY else min(n, self._count)

    def _iterate(self, env):
        if self._count < 0:
            yield from self._source._iterate(env)
        else:
            yield from itertools.islice(self._source._iterate(env), self._count)

    def _plan(self, env):
        plan = self._source._plan(env)
        if plan is None or self._count < 0:
            return plan
        return plan.with_order(lambda order: itertools.islice(iter(order), self._count))


class Skip(_Unary):
    def __init__(self, source, count):
        super().__init__(source)
        self._count = static_int(count, "count", "Dataset.skip")

    def _cardinality(self):
        n = self._source._cardinality()
        if n < 0:
            return n
        return 0 if self._count < 0 else max(0, n - self._count)

    def _iterate(self, env):
        it = self._source._iterate(env)
        if self._count < 0:
            for _ in it:
                pass
            return
        yield from itertools.islice(it, self._count, None)

    def _plan(self, env):
        plan = self._source._plan(env)
        if plan is None or self._count < 0:
            return None
        return plan.with_order(lambda order: itertools.islice(iter(order), self._count, None))


class Enumerate(_Unary):
    _tf_class = "_ZipDataset"   # TensorFlow's repr
    def __init__(self, source, start):
        self._start = static_int(start, "start", "Dataset.enumerate")
        super().__init__(source, (TensorSpec([], "int64"), source.element_spec))

    def _cardinality(self):
        return self._source._cardinality()

    def _iterate(self, env):
        for i, e in enumerate(self._source._iterate(env), self._start):
            yield (np.int64(i), e)


class Cache(_Unary):
    """The elements of the first complete iteration, kept in memory for the
    next ones (a `filename` is accepted; the cache stays in memory)."""
    _tf_class = "CacheDataset"   # TensorFlow's repr

    def __init__(self, source, filename):
        super().__init__(source)
        self._cached = None

    def _cardinality(self):
        return self._source._cardinality()

    def _iterate(self, env):
        if self._cached is not None and env.values == {}:
            yield from self._cached
            return
        seen = []
        for e in self._source._iterate(env):
            seen.append(e)
            yield e
        if env.values == {}:
            self._cached = seen

    def _plan(self, env):
        return self._source._plan(env) if self._cached is None else None


class Prefetch(_Unary):
    """Produces up to `buffer_size` elements ahead of the consumer on a
    background thread, so the pipeline overlaps the step. Elements cross to
    the consumer in chunks of up to half the buffer: one thread handoff per
    chunk, not per element.

    AUTOTUNE: a buffer of 16, and a thread only while it helps. The first
    elements are made on the consumer's thread, timing both sides
    (`_autotuned`): a consumer that spends no time between elements gets no
    thread. Once a thread runs, if the consumer finds the buffer empty at
    most handoffs of the first ones (the pipeline, not the step, is the slow
    side), the two threads would only take turns at the GIL, so the
    consumer takes the pipeline back and produces elements itself."""

    def __init__(self, source, buffer_size):
        super().__init__(source)
        size = static_int(buffer_size, "buffer_size", "Dataset.prefetch")
        if size < 0 and size != AUTOTUNE:
            raise ValueError(f"Dataset.prefetch: buffer_size must be >= 0 or AUTOTUNE, got "
                             f"{size}")
        self._autotune = size == AUTOTUNE
        self._size = 16 if self._autotune else size

    def _cardinality(self):
        return self._source._cardinality()

    def _iterate(self, env):
        if self._size == 0 or DEBUG_MODE[0]:
            yield from self._source._iterate(env)
            return
        chunk = max(1, self._size // 2)
        if self._autotune:
            yield from _autotuned(self._source._iterate(env), self._size // chunk, chunk)
            return
        yield from _background(self._source._iterate(env), self._size // chunk, chunk, False)


_DONE = object()
_HANDOVER = object()
_PROBE = 8           # handoffs watched before AUTOTUNE decides


def _autotuned(iterator, chunks, chunk):
    """AUTOTUNE: the first `_PROBE` elements are made on this thread while
    timing both sides; a thread then produces ahead only when the consumer
    spends real time between elements (a training step to overlap). A
    consumer that only iterates would take turns with the thread at the
    GIL: there the pipeline stays on this thread."""
    produce = consume = 0.0
    for _ in range(_PROBE):
        start = time.perf_counter()
        try:
            item = next(iterator)
        except StopIteration:
            return
        made = time.perf_counter()
        produce += made - start
        yield item
        consume += time.perf_counter() - made
    if consume >= _OVERLAP * produce:
        yield from _background(iterator, chunks, chunk, True)
    else:
        yield from iterator


_OVERLAP = 0.25      # consumer time per element, as a share of producing it, that a thread pays for


def _background(iterator, chunks, chunk, adaptive):
    """Yield what `iterator` yields, produced on a daemon thread at most
    `chunks` lists of `chunk` items ahead; an exception there is raised here;
    closing this generator stops the thread. `adaptive`: see Prefetch."""
    items = queue.Queue(maxsize=chunks)
    stop, handover = threading.Event(), threading.Event()

    def put(value):
        while not stop.is_set():
            try:
                items.put(value, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce():
        try:
            batch = []
            for item in iterator:
                batch.append(item)
                if len(batch) == chunk:
                    if not put((batch, None)):
                        return
                    batch = []
                    if handover.is_set():
                        put(([_HANDOVER], None))
                        return
            put((batch + [_DONE], None))
        except BaseException as e:  # noqa: BLE001 - re-raised in the consumer
            put(([_DONE], e))

    thread = threading.Thread(target=produce, daemon=True, name="tf.data prefetch")
    thread.start()
    gets = starved = 0
    try:
        while True:
            if adaptive and gets <= _PROBE:
                gets += 1
                try:
                    batch, error = items.get_nowait()
                except queue.Empty:
                    starved += gets > 1          # the first wait is the start-up
                    batch, error = items.get()
                if gets == _PROBE and starved >= _PROBE // 2:
                    handover.set()
            else:
                batch, error = items.get()
            for item in batch:
                if item is _HANDOVER:
                    thread.join()
                    yield from iterator         # the pipeline runs on this thread now
                    return
                if item is _DONE:
                    if error is not None:
                        raise error
                    return
                yield item
    finally:
        stop.set()


class WithOptions(_Unary):
    _tf_class = "_OptionsDataset"   # TensorFlow's repr
    def __init__(self, source, options):
        super().__init__(source)
        self._options = source.options().merge(options)

    def _cardinality(self):
        return self._source._cardinality()

    def _iterate(self, env):
        return self._source._iterate(env)

    def _plan(self, env):
        return self._source._plan(env)
