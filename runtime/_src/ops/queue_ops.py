"""Queues' state and ops: what `tf.queue` (runtime/_src/ops/queues.py) runs
eagerly or stages in graphs.

A queue's elements live in a Python object, a `QueueStorage` (tuples of numpy
arrays, one per component, a lock and a condition). Ops name the storage in
their `queue` attr, as the lookup ops name their table: a graph captures the
queue by reference, and every op is a side-effecting node that runs in
program order on every call.

    components -> QueueEnqueueV2 / QueueEnqueueManyV2
                  QueueDequeueV2 / QueueDequeueManyV2 / QueueDequeueUpToV2 -> components
                  QueueSizeV2 (int32), QueueCloseV2, QueueIsClosedV2 (bool)

As in TF, a dequeue from an empty open queue and an enqueue into a full one
wait (for another thread); on a closed queue they raise OutOfRangeError and
CancelledError with TF's messages. The four kinds differ in `_take`: FIFO,
padding FIFO (dequeue_many pads each unknown dimension to the batch's
longest with zeros), random shuffle (a seeded random element, keeping
min_after_dequeue until closed) and priority (the lowest int64 first
component first, ties in insertion order).
"""

import threading

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import CancelledError, InvalidArgumentError, OutOfRangeError
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import define_op, not_differentiable

__all__ = ["QueueStorage"]


class QueueStorage:
    """The elements and state of one queue (see the module docstring)."""

    def __init__(self, kind, name, capacity, component_dtypes, shapes, min_after_dequeue=0,
                 seed=None):
        self.kind, self.name, self.capacity = kind, name, capacity
        self.dtypes, self.shapes = component_dtypes, shapes
        self.min_after_dequeue = min_after_dequeue
        self.rng = np.random.default_rng(seed)
        self.items, self.closed, self.cancelled = [], False, False
        self.condition = threading.Condition()

    def label(self):
        kinds = {"fifo": "FIFOQueue", "padding": "PaddingFIFOQueue",
                 "random": "RandomShuffleQueue", "priority": "PriorityQueue"}
        return f"{kinds[self.kind]} '{self.name}'"

    # --- enqueue -----------------------------------------------------------------

    def _element(self, components):
        out = []
        for i, (value, dtype, shape) in enumerate(zip(components, self.dtypes, self.shapes)):
            value = np.asarray(value, dtype.np_dtype if dtype is not dtypes.string else object)
            if shape is not None and not shape.is_compatible_with(TensorShape(value.shape)):
                raise InvalidArgumentError(f"Shape mismatch in tuple component {i}. Expected "
                                           f"{shape.as_list()}, got {list(value.shape)}",
                                           "QueueEnqueueV2")
            out.append(value)
        return tuple(out)

    def enqueue(self, elements):
        with self.condition:
            for element in elements:
                while not self.closed and self.capacity >= 0 and \
                        len(self.items) >= self.capacity:
                    self.condition.wait()
                if self.closed:
                    raise CancelledError(f"{self.label()} is closed.", "QueueEnqueueV2")
                self.items.append(element)
                self.condition.notify_all()

    # --- dequeue -----------------------------------------------------------------

    def _take(self):
        if self.kind == "random":
            return self.items.pop(int(self.rng.integers(len(self.items))))
        if self.kind == "priority":
            index = min(range(len(self.items)), key=lambda i: int(self.items[i][0]))
            return self.items.pop(index)
        return self.items.pop(0)

    def dequeue(self, n, up_to=False, op_name="QueueDequeueV2"):
        """n elements (None: one, unbatched); with up_to, fewer once closed."""
        wanted = 1 if n is None else n
        keep = self.min_after_dequeue if self.kind == "random" else 0
        with self.condition:
            while not self.closed and len(self.items) < wanted + keep:
                self.condition.wait()
            available = len(self.items)
            if self.closed and (available < wanted and not (up_to and available > 0)):
                raise OutOfRangeError(f"{self.label()} is closed and has insufficient elements "
                                      f"(requested {wanted}, current size {available})",
                                      op_name)
            count = min(wanted, available)
            taken = [self._take() for _ in range(count)]
            self.condition.notify_all()
        if n is None:
            return taken[0]
        return tuple(self._batch([t[i] for t in taken], i) for i in range(len(self.dtypes)))

    def _batch(self, values, component):
        if self.kind != "padding" or not values:
            if not values:
                shape = self.shapes[component]
                return np.zeros([0] + shape.as_list(), self.dtypes[component].np_dtype)
            return np.stack(values)
        longest = np.max([v.shape for v in values], axis=0)
        fill = b"" if self.dtypes[component] is dtypes.string else 0
        out = np.full([len(values)] + list(longest), fill,
                      object if fill == b"" else values[0].dtype)
        for i, v in enumerate(values):
            out[(i,) + tuple(slice(0, d) for d in v.shape)] = v
        return out

    def close(self, cancel_pending_enqueues):
        with self.condition:
            self.closed, self.cancelled = True, bool(cancel_pending_enqueues)
            self.condition.notify_all()


# --- ops -------------------------------------------------------------------------

def _infer_none(inputs, attrs):
    return []


def _infer_dequeue(batched):
    def infer(inputs, attrs):
        q = attrs["queue"]
        outs = []
        for dtype, shape in zip(q.dtypes, q.shapes):
            dims = None if shape is None else shape.as_list()
            if batched:
                dims = None if dims is None else [None] + dims
            outs.append((dtype, TensorShape(dims)))
        return outs
    return infer


def _check_many(q, op_name):
    if q.kind != "padding" and any(s is None or not s.is_fully_defined() for s in q.shapes):
        raise InvalidArgumentError(f"{q.label().split(' ')[0]}'s DequeueMany and DequeueUpTo "
                                   "require the components to have specified shapes.", op_name)


@define_op("QueueEnqueueV2", infer=_infer_none, side_effect=True, num_outputs=0)
def _enqueue(*components, queue):
    queue.enqueue([queue._element(components)])
    return ()


@define_op("QueueEnqueueManyV2", infer=_infer_none, side_effect=True, num_outputs=0)
def _enqueue_many(*components, queue):
    sizes = {np.shape(c)[0] if np.ndim(c) else None for c in components}
    if len(sizes) != 1 or None in sizes:
        raise InvalidArgumentError("enqueue_many: every component needs the same first "
                                   f"dimension, got {sorted(map(str, sizes))}",
                                   "QueueEnqueueManyV2")
    count = sizes.pop()
    queue.enqueue([queue._element([c[i] for c in components]) for i in range(count)])
    return ()


@define_op("QueueDequeueV2", infer=_infer_dequeue(False), side_effect=True, num_outputs=None)
def _dequeue(*, queue):
    return queue.dequeue(None)


@define_op("QueueDequeueManyV2", infer=_infer_dequeue(True), side_effect=True, num_outputs=None)
def _dequeue_many(n, *, queue):
    _check_many(queue, "QueueDequeueManyV2")
    return queue.dequeue(int(n), op_name="QueueDequeueManyV2")


@define_op("QueueDequeueUpToV2", infer=_infer_dequeue(True), side_effect=True, num_outputs=None)
def _dequeue_up_to(n, *, queue):
    _check_many(queue, "QueueDequeueUpToV2")
    return queue.dequeue(int(n), up_to=True, op_name="QueueDequeueUpToV2")


@define_op("QueueSizeV2", infer=lambda i, a: [(dtypes.int32, TensorShape([]))], side_effect=True)
def _size(*, queue):
    with queue.condition:
        return np.int32(len(queue.items))


@define_op("QueueCloseV2", infer=_infer_none, side_effect=True, num_outputs=0)
def _close(*, queue, cancel_pending_enqueues):
    queue.close(cancel_pending_enqueues)
    return ()


@define_op("QueueIsClosedV2", infer=lambda i, a: [(dtypes.bool, TensorShape([]))],
           side_effect=True)
def _is_closed(*, queue):
    return np.bool_(queue.closed)


not_differentiable("QueueEnqueueV2", "QueueEnqueueManyV2", "QueueDequeueV2",
                   "QueueDequeueManyV2", "QueueDequeueUpToV2", "QueueSizeV2", "QueueCloseV2",
                   "QueueIsClosedV2")
