"""`tf.queue`: FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue, PriorityQueue
(and their base QueueBase), eagerly and inside `tf.function`.

    q = FIFOQueue(3, [tf.int32, tf.float32], shapes=[[], [2]], names=["a", "b"])
    q.enqueue({"a": 1, "b": [1.0, 2.0]})
    q.dequeue()            # {"a": 1, "b": [1.0, 2.0]}

A queue holds a `QueueStorage` (queue_ops.py); each method applies one op
naming it, so a traced function enqueues and dequeues on every call, as TF's
graph ops do. Components are a single value, a list/tuple, or (with `names`)
a dict; dequeues give back the same form.
"""

import itertools

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply
from runtime._src.ops.queue_ops import QueueStorage

__all__ = ["QueueBase", "FIFOQueue", "PaddingFIFOQueue", "RandomShuffleQueue",
           "PriorityQueue"]

_ids = itertools.count()


def _as_list(value):
    return list(value) if isinstance(value, (list, tuple)) else [value]


class QueueBase:
    """`tf.queue.QueueBase`: what every queue does (see the module docstring)."""

    _kind = "fifo"

    def __init__(self, dtypes_, shapes, names, capacity, name, min_after_dequeue=0, seed=None):
        self._dtypes = [dtypes.as_dtype(d) for d in _as_list(dtypes_)]
        if shapes is None:
            self._shapes = [TensorShape(None)] * len(self._dtypes)
        else:
            if isinstance(shapes, TensorShape) or not isinstance(shapes, (list, tuple)) or \
                    all(d is None or isinstance(d, int) for d in shapes) and shapes:
                shapes = [shapes]                        # one shape for one component
            self._shapes = [TensorShape(s) for s in shapes]
            if len(self._shapes) != len(self._dtypes):
                raise ValueError(f"Queue shapes must have the same length as dtypes: "
                                 f"{len(self._shapes)} shapes for {len(self._dtypes)} dtypes")
        if names is not None:
            names = _as_list(names)
            if len(names) != len(self._dtypes):
                raise ValueError("Queue names must have the same length as dtypes")
        self._names = names
        self._name = name
        known = [s if s.rank is not None else None for s in self._shapes]
        self._storage = QueueStorage(self._kind, str(next(_ids)), int(capacity), self._dtypes,
                                     known, min_after_dequeue, seed)

    # --- properties ------------------------------------------------------------

    @property
    def name(self):
        return self._name

    @property
    def dtypes(self):
        return list(self._dtypes)

    @property
    def shapes(self):
        return list(self._shapes)

    @property
    def names(self):
        return self._names

    @property
    def queue_ref(self):
        return self._storage

    @staticmethod
    def from_list(index, queues):
        """`QueueBase.from_list`: the queue at `index` (a Python int here)."""
        return queues[int(index)]

    # --- components ------------------------------------------------------------

    def _components(self, vals, what):
        if isinstance(vals, dict):
            if self._names is None:
                raise ValueError(f"Queue must have names to {what} a dictionary")
            if sorted(vals) != sorted(self._names):
                raise ValueError(f"Keys in dictionary to {what}: {sorted(vals)} do not match "
                                 f"the names of the queue: {sorted(self._names)}")
            vals = [vals[n] for n in self._names]
        else:
            vals = _as_list(vals)          # a list or tuple is the components (TF's rule)
        if len(vals) != len(self._dtypes):
            raise ValueError(f"Expected {len(self._dtypes)} components to {what}, got "
                             f"{len(vals)}")
        return [convert_to_tensor(v, d) for v, d in zip(vals, self._dtypes)]

    def _structure(self, outputs):
        outputs = list(outputs)
        if self._names is not None:
            return dict(zip(self._names, outputs))
        return outputs[0] if len(outputs) == 1 else outputs

    # --- operations ------------------------------------------------------------

    def enqueue(self, vals, name=None):
        """Add one element (waits while the queue is full)."""
        apply("QueueEnqueueV2", self._components(vals, "enqueue"), {"queue": self._storage})

    def enqueue_many(self, vals, name=None):
        """Add the elements along the first dimension of each component."""
        apply("QueueEnqueueManyV2", self._components(vals, "enqueue"),
              {"queue": self._storage})

    def dequeue(self, name=None):
        """Remove one element (waits while the queue is empty)."""
        return self._structure(apply("QueueDequeueV2", (), {"queue": self._storage}))

    def dequeue_many(self, n, name=None):
        """Remove n elements, batched along a new first dimension."""
        n = convert_to_tensor(n, dtypes.int32)
        return self._structure(apply("QueueDequeueManyV2", (n,), {"queue": self._storage}))

    def dequeue_up_to(self, n, name=None):
        """As dequeue_many, or fewer (at least one) once the queue is closed."""
        n = convert_to_tensor(n, dtypes.int32)
        return self._structure(apply("QueueDequeueUpToV2", (n,), {"queue": self._storage}))

    def size(self, name=None):
        """The number of elements, an int32 scalar."""
        return apply("QueueSizeV2", (), {"queue": self._storage})

    def close(self, cancel_pending_enqueues=False, name=None):
        """No more enqueues; dequeues drain what is left, then raise OutOfRangeError."""
        apply("QueueCloseV2", (), {"queue": self._storage,
                                   "cancel_pending_enqueues": bool(cancel_pending_enqueues)})

    def is_closed(self, name=None):
        return apply("QueueIsClosedV2", (), {"queue": self._storage})


class FIFOQueue(QueueBase):
    """`tf.queue.FIFOQueue`: first in, first out."""

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None,
                 name="fifo_queue"):
        super().__init__(dtypes, shapes, names, capacity, name)


class PaddingFIFOQueue(QueueBase):
    """`tf.queue.PaddingFIFOQueue`: FIFO whose dequeue_many pads each unknown
    dimension (None in `shapes`) to the batch's longest, with zeros."""

    _kind = "padding"

    def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None,
                 name="padding_fifo_queue"):
        super().__init__(dtypes, shapes, names, capacity, name)


class RandomShuffleQueue(QueueBase):
    """`tf.queue.RandomShuffleQueue`: dequeues a random element, keeping at
    least `min_after_dequeue` until the queue is closed."""

    _kind = "random"

    def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None, seed=None,
                 shared_name=None, name="random_shuffle_queue"):
        super().__init__(dtypes, shapes, names, capacity, name, int(min_after_dequeue), seed)


class PriorityQueue(QueueBase):
    """`tf.queue.PriorityQueue`: elements are (int64 priority, *components);
    the lowest priority leaves first."""

    _kind = "priority"

    def __init__(self, capacity, types, shapes=None, names=None, shared_name=None,
                 name="priority_queue"):
        types = [dtypes.int64] + _as_list(types)
        shapes = None if shapes is None else [[]] + list(shapes)
        names = None if names is None else ["priority"] + _as_list(names)
        super().__init__(types, shapes, names, capacity, name)
