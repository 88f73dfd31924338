"""tf.CriticalSection against TF 2.21's recorded behaviour: execute's outputs
as tensors (a variable incremented 1, 2, 3 eagerly and in tf.function), the
nested-execute ValueError, and two threads never inside at once."""

import threading
import time

import pytest

import runtime as tf


def test_execute_runs_fn_and_returns_tensors_as_tf():
    cs, v = tf.CriticalSection(), tf.Variable(0)

    def inc():
        v.assign_add(1)
        return v.read_value()
    assert int(cs.execute(inc)) == 1
    pair = cs.execute(lambda: (v + 1, v * 2))
    assert [int(t) for t in pair] == [2, 2]
    f = tf.function(lambda: cs.execute(inc))
    assert (int(f()), int(f())) == (2, 3)
    three = cs.execute(lambda: 3)
    assert isinstance(three, tf.Tensor) and int(three) == 3
    with pytest.raises(ValueError, match="in which we are already running. This is illegal"):
        cs.execute(lambda: cs.execute(inc))


def test_two_threads_never_run_inside_together():
    cs, inside, most = tf.CriticalSection(), [0], [0]

    def work():
        inside[0] += 1
        most[0] = max(most[0], inside[0])
        time.sleep(0.01)
        inside[0] -= 1
        return 0
    threads = [threading.Thread(target=lambda: [cs.execute(work) for _ in range(3)])
               for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most[0] == 1
