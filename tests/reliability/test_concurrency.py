"""Concurrency: one `runtime.function` called from 8 threads at once.

Threads start together (a barrier) and call the same Function with a mix of
signatures (int32 / float32 scalars, an int32 vector, a float32 matrix, a
Python scalar keyed by value). Every result must be right, and each distinct
signature must be traced exactly once: the tracing count and a Python-side
counter incremented inside the traced function (which runs only while
tracing) both equal the number of distinct signatures.
"""

import collections
import threading

import numpy as np
import pytest

import runtime as tf

N_THREADS = 8
ROUNDS = 25


def _signature_cases():
    """(label, args builder, expected result) for f(x, k) = x * 2 + k."""
    return [
        ("int32 scalar", lambda i: (tf.constant(i), 1), lambda i: np.int32(i * 2 + 1)),
        ("float32 scalar", lambda i: (tf.constant(float(i)), 1),
         lambda i: np.float32(i * 2 + 1)),
        ("int32 vector", lambda i: (tf.constant([i, i + 1, i + 2]), 1),
         lambda i: np.array([i * 2 + 1, i * 2 + 3, i * 2 + 5], np.int32)),
        ("float32 matrix", lambda i: (tf.constant(np.full((2, 2), i, np.float32)), 1),
         lambda i: np.full((2, 2), i * 2 + 1, np.float32)),
        ("python k=5", lambda i: (tf.constant(i), 5), lambda i: np.int32(i * 2 + 5)),
    ]


def _run_threads(worker):
    errors = []

    def guarded(t):
        try:
            worker(t)
        except BaseException as e:  # noqa: BLE001 - reported by the main thread
            errors.append((t, e))

    threads = [threading.Thread(target=guarded, args=(t,)) for t in range(N_THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a worker thread hung"
    assert not errors, f"worker threads raised: {errors!r}"


@pytest.mark.filterwarnings("ignore::runtime._src.function.function.RetracingWarning")
def test_eight_threads_mixed_signatures_trace_each_once():
    cases = _signature_cases()
    counter = collections.Counter()
    counter_lock = threading.Lock()
    barrier = threading.Barrier(N_THREADS)

    @tf.function
    def f(x, k):
        with counter_lock:  # runs only while tracing
            counter[(x.dtype.name, tuple(x.shape.as_list()), k)] += 1
        return x * 2 + k

    results = []

    def worker(t):
        barrier.wait()
        for r in range(ROUNDS):
            label, build, expect = cases[(t + r) % len(cases)]
            i = t * 100 + r
            got = f(*build(i)).numpy()
            results.append((label, got, expect(i)))

    _run_threads(worker)
    assert len(results) == N_THREADS * ROUNDS
    for label, got, want in results:
        assert got.dtype == want.dtype, label
        np.testing.assert_array_equal(got, want, err_msg=label)
    assert f.experimental_get_tracing_count() == len(cases)
    assert len(counter) == len(cases)
    assert all(n == 1 for n in counter.values()), counter


def test_eight_threads_first_call_same_signature_traces_once():
    """All threads race on the very first call with one signature."""
    traces = []
    barrier = threading.Barrier(N_THREADS)

    @tf.function(autograph=False)
    def g(x):
        traces.append(x.shape.as_list())
        total = x
        for _ in range(3):  # a Python loop, unrolled while tracing
            total = total + x
        return total

    results = {}

    def worker(t):
        barrier.wait()
        results[t] = g(tf.constant([t, t])).numpy()

    _run_threads(worker)
    assert traces == [[2]]
    assert g.experimental_get_tracing_count() == 1
    for t in range(N_THREADS):
        np.testing.assert_array_equal(results[t], np.array([4 * t, 4 * t], np.int32))


def test_eight_threads_input_signature_traces_once():
    traces = []
    barrier = threading.Barrier(N_THREADS)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def h(v):
        traces.append(1)
        return tf.reduce_sum(v) * 3

    results = {}

    def worker(t):
        barrier.wait()
        results[t] = int(h(tf.constant(list(range(t + 1)))).numpy())

    _run_threads(worker)
    assert len(traces) == 1
    assert h.experimental_get_tracing_count() == 1
    assert results == {t: 3 * sum(range(t + 1)) for t in range(N_THREADS)}


def test_threads_with_variables_see_every_update():
    """Concurrent assign_add through one traced graph loses no update."""
    v = tf.Variable(0)
    lock = threading.Lock()

    @tf.function
    def bump(k):
        v.assign_add(k)
        return v.read_value()

    barrier = threading.Barrier(N_THREADS)

    def worker(t):
        barrier.wait()
        for _ in range(50):
            with lock:  # the graph is not atomic; the test checks values, not races
                bump(tf.constant(1))

    _run_threads(worker)
    assert int(v.numpy()) == N_THREADS * 50
    assert bump.experimental_get_tracing_count() == 1


@pytest.mark.parametrize("eager", [False, True])
def test_threads_agree_with_eager(eager):
    """The same mixed workload gives the same results with run_functions_eagerly."""
    @tf.function
    def f(x):
        return tf.reduce_sum(x * x)

    barrier = threading.Barrier(N_THREADS)
    results = {}
    tf.config.run_functions_eagerly(eager)
    try:
        def worker(t):
            barrier.wait()
            results[t] = int(f(tf.constant(list(range(t % 3 + 1)))).numpy())

        _run_threads(worker)
    finally:
        tf.config.run_functions_eagerly(False)
    assert results == {t: sum(i * i for i in range(t % 3 + 1)) for t in range(N_THREADS)}


def test_threads_with_converted_tensor_control_flow():
    """Autograph-converted code (a tensor `if` and `while`) traced under contention."""
    traces = []
    barrier = threading.Barrier(N_THREADS)

    @tf.function
    def collatz_steps(n):
        traces.append(n.dtype.name)
        steps = tf.constant(0)
        while n > 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps = steps + 1
        return steps

    def expected(n):
        steps = 0
        while n > 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        return steps

    results = {}

    def worker(t):
        barrier.wait()
        results[t] = int(collatz_steps(tf.constant(t + 1)).numpy())

    _run_threads(worker)
    assert traces == ["int32"]
    assert results == {t: expected(t + 1) for t in range(N_THREADS)}
