"""prefetch(AUTOTUNE) makes the first elements on the consumer's thread,
timing both sides, and starts its producer thread only when the consumer
spends time between elements (a step to overlap): a consumer that only
iterates would take turns with the thread at the GIL."""

import threading
import time

import runtime as tf


def _prefetch_threads():
    return [t for t in threading.enumerate() if t.name == "tf.data prefetch"]


def test_a_consumer_that_only_iterates_gets_no_thread():
    seen = []
    for _ in tf.data.Dataset.range(200).map(lambda x: x * 2).prefetch(tf.data.AUTOTUNE):
        seen.append(len(_prefetch_threads()))
    assert max(seen) == 0


def test_a_slow_consumer_overlaps_with_a_producer_thread():
    seen, values = [], []
    for v in tf.data.Dataset.range(40).map(lambda x: x + 1).prefetch(tf.data.AUTOTUNE):
        time.sleep(0.002)                     # the training step
        seen.append(len(_prefetch_threads()))
        values.append(int(v))
    assert values == list(range(1, 41))       # same elements, same order
    assert max(seen) == 1
