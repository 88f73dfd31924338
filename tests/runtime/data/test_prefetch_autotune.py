"""prefetch(AUTOTUNE) makes the first elements on the consumer's thread,
timing both sides, and starts its producer thread only when the consumer
spends time between elements (a step to overlap): a consumer that only
iterates would take turns with the thread at the GIL.

The timing runs on a fake clock that the test advances (the producer's
cost per element in the generator, the consumer's in the loop), so the
decision is the rule's, not the machine's load."""

import threading
import types

import pytest

import runtime as tf
from runtime._src.data import transforms

PRODUCE = 1.0        # fake seconds the pipeline spends per element


class FakeClock:
    """Stands in for the `time` module of the prefetch code: it moves only
    when the test moves it."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(transforms, "time", types.SimpleNamespace(perf_counter=fake.perf_counter))
    return fake


def _prefetch_threads(before):
    """Prefetch threads started since `before` (other tests may leave theirs)."""
    return [t for t in threading.enumerate()
            if t.name == "tf.data prefetch" and t not in before]


def _pipeline(clock, n):
    def elements():
        for k in range(n):
            clock.now += PRODUCE
            yield k + 1
    spec = tf.TensorSpec((), tf.int64)
    return tf.data.Dataset.from_generator(elements, output_signature=spec).prefetch(
        tf.data.AUTOTUNE)


# consumer time per element -> a thread? (the rule: consumer >= 0.25 x producer)
@pytest.mark.parametrize("consume, threads", [(0.0, 0), (0.2, 0), (0.25, 1), (1.0, 1)])
def test_a_thread_only_for_a_consumer_that_spends_time(clock, consume, threads):
    before, seen, values = set(threading.enumerate()), [], []
    for v in _pipeline(clock, 40):
        clock.now += consume                  # the training step
        seen.append(len(_prefetch_threads(before)))
        values.append(int(v))
    assert values == list(range(1, 41))       # same elements, same order
    assert seen[:transforms._PROBE] == [0] * transforms._PROBE   # probed on this thread
    # the queue holds two chunks of 8: a started thread still runs at element 9
    assert seen[transforms._PROBE] == threads


def test_fewer_elements_than_the_probe_stay_on_this_thread(clock):
    before = set(threading.enumerate())
    values = [int(v) for v in _pipeline(clock, 5)]
    assert values == [1, 2, 3, 4, 5]
    assert _prefetch_threads(before) == []


def test_a_real_pipeline_keeps_its_elements_and_order():
    ds = tf.data.Dataset.range(40).map(lambda x: x + 1).prefetch(tf.data.AUTOTUNE)
    assert [int(v) for v in ds] == list(range(1, 41))
