"""prefetch(AUTOTUNE) makes the first elements on the consumer's thread,
timing both sides, and starts its producer thread only when the consumer
spends time between elements (a step to overlap): a consumer that only
iterates would take turns with the thread at the GIL."""

import threading
import time

import runtime as tf


def _prefetch_threads(before):
    """Prefetch threads started since `before` (other tests may leave theirs)."""
    return [t for t in threading.enumerate()
            if t.name == "tf.data prefetch" and t not in before]


def _heavy(x):
    return tf.reduce_sum(tf.ones([20000]) * tf.cast(x, tf.float32))


def test_a_consumer_that_only_iterates_gets_no_thread():
    before, seen = set(threading.enumerate()), []
    for k, _ in enumerate(tf.data.Dataset.range(100).map(_heavy).prefetch(tf.data.AUTOTUNE)):
        if k % 25 == 24:                      # looks now and then: the loop stays idle
            seen.append(len(_prefetch_threads(before)))
    assert seen == [0, 0, 0, 0]


def test_a_slow_consumer_overlaps_with_a_producer_thread():
    before, seen, values = set(threading.enumerate()), [], []
    for v in tf.data.Dataset.range(40).map(lambda x: x + 1).prefetch(tf.data.AUTOTUNE):
        time.sleep(0.002)                     # the training step
        seen.append(len(_prefetch_threads(before)))
        values.append(int(v))
    assert values == list(range(1, 41))       # same elements, same order
    assert max(seen) == 1
