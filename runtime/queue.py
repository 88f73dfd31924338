"""`tf.queue`: FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue, PriorityQueue
and QueueBase (runtime/_src/ops/queues.py; their ops in queue_ops.py).

    >>> import runtime as tf
    >>> q = tf.queue.FIFOQueue(2, tf.int32, shapes=[[]])
    >>> q.enqueue_many([[1, 2]])
    >>> q.dequeue().numpy(), int(q.size())
    (np.int32(1), 1)
"""

from runtime._src.ops.queues import (FIFOQueue, PaddingFIFOQueue, PriorityQueue, QueueBase,
                                     RandomShuffleQueue)

__all__ = ["FIFOQueue", "PaddingFIFOQueue", "PriorityQueue", "QueueBase", "RandomShuffleQueue"]
