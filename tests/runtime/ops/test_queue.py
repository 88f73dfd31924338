"""tf.queue: the four queues' values and errors as TF 2.21's (recorded by
hand from TF), eagerly, inside tf.function, and across threads."""

import threading

import numpy as np
import pytest

import runtime as tf


def test_fifo_queue_with_names_as_tf():
    q = tf.queue.FIFOQueue(3, [tf.int32, tf.float32], shapes=[[], [2]], names=["a", "b"])
    assert q.dtypes == [tf.int32, tf.float32] and q.names == ["a", "b"]
    assert [s.as_list() for s in q.shapes] == [[], [2]]
    q.enqueue({"a": 1, "b": [1.0, 2.0]})
    q.enqueue_many({"a": [2, 3], "b": [[3.0, 4.0], [5.0, 6.0]]})
    assert int(q.size()) == 3 and q.size().dtype == tf.int32
    first = q.dequeue()
    assert int(first["a"]) == 1 and first["b"].numpy().tolist() == [1.0, 2.0]
    batch = q.dequeue_many(2)
    assert batch["a"].numpy().tolist() == [2, 3] and batch["b"].shape == (2, 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Shape mismatch in tuple component 1"):
        q.enqueue({"a": 1, "b": [1.0, 2.0, 3.0]})
    with pytest.raises(ValueError, match="do not match the names"):
        q.enqueue({"a": 1, "c": [1.0, 2.0]})
    q.close()
    assert bool(q.is_closed())
    with pytest.raises(tf.errors.CancelledError, match="is closed."):
        q.enqueue({"a": 1, "b": [1.0, 2.0]})
    with pytest.raises(tf.errors.OutOfRangeError,
                       match=r"closed and has insufficient elements \(requested 1, current size 0\)"):
        q.dequeue()


def test_dequeue_up_to_many_and_unknown_shapes():
    q = tf.queue.FIFOQueue(10, tf.int32, shapes=[[]])
    q.enqueue(5)
    q.enqueue([6])                       # a list is the list of components, as TF
    assert [int(q.dequeue()), int(q.dequeue())] == [5, 6]
    q.enqueue_many([[1, 2, 3]])
    q.close()
    assert q.dequeue_up_to(5).numpy().tolist() == [1, 2, 3]
    with pytest.raises(tf.errors.OutOfRangeError, match=r"requested 5, current size 0"):
        q.dequeue_up_to(5)
    closed = tf.queue.FIFOQueue(10, tf.int32, shapes=[[]])
    closed.enqueue_many([[1, 2]])
    closed.close()
    with pytest.raises(tf.errors.OutOfRangeError, match=r"requested 3, current size 2"):
        closed.dequeue_many(3)
    assert int(closed.size()) == 2
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="DequeueMany and DequeueUpTo require the components to have "
                             "specified shapes"):
        tf.queue.FIFOQueue(2, tf.int32).dequeue_many(1)
    pair = tf.queue.FIFOQueue(2, [tf.int32, tf.int32])
    pair.enqueue((1, 2))
    assert [int(t) for t in pair.dequeue()] == [1, 2]


def test_padding_priority_and_random_shuffle_queues():
    padding = tf.queue.PaddingFIFOQueue(10, [tf.int32], shapes=[[None]])
    padding.enqueue([[1]])
    padding.enqueue([[1, 2, 3]])
    assert padding.dequeue_many(2).numpy().tolist() == [[1, 0, 0], [1, 2, 3]]   # TF 2.21
    priority = tf.queue.PriorityQueue(10, [tf.string], shapes=[[]])
    for p, s in ((3, "c"), (1, "a"), (2, "b")):
        priority.enqueue((tf.constant(p, tf.int64), s))
    assert priority.dtypes == [tf.int64, tf.string]
    top = priority.dequeue()
    assert int(top[0]) == 1 and top[1].numpy() == b"a"
    rest = priority.dequeue_many(2)
    assert rest[0].numpy().tolist() == [2, 3] and rest[1].numpy().tolist() == [b"b", b"c"]
    shuffle = tf.queue.RandomShuffleQueue(10, 2, [tf.int32], shapes=[[]], seed=1)
    shuffle.enqueue_many([[1, 2, 3, 4]])
    taken = [int(shuffle.dequeue())]
    assert int(shuffle.size()) == 3
    shuffle.close()                       # now min_after_dequeue no longer holds back
    taken += shuffle.dequeue_many(3).numpy().tolist()
    assert sorted(taken) == [1, 2, 3, 4]


def test_queue_ops_run_on_every_call_of_a_function():
    q = tf.queue.FIFOQueue(4, tf.int32, shapes=[[]])

    @tf.function
    def push_pop(x):
        q.enqueue(x)
        q.enqueue(x + 1)
        return q.dequeue()

    assert [int(push_pop(tf.constant(1))), int(push_pop(tf.constant(10)))] == [1, 2]
    assert int(q.size()) == 2
    assert q.dequeue_many(2).numpy().tolist() == [10, 11]


def test_dequeue_waits_for_another_thread():
    q = tf.queue.FIFOQueue(1, tf.float32, shapes=[[]])
    got = []
    reader = threading.Thread(target=lambda: got.append(float(q.dequeue())))
    reader.start()
    q.enqueue(2.5)
    reader.join(timeout=10)
    assert got == [2.5]
    q.enqueue(1.0)                                   # full now: a writer waits
    writer = threading.Thread(target=lambda: q.enqueue(3.0))
    writer.start()
    assert float(q.dequeue()) == 1.0
    writer.join(timeout=10)
    assert np.isclose(float(q.dequeue()), 3.0)
