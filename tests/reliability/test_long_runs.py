"""Long runs: many calls and many retraces must not leak, nor warn repeatedly.

* 100,000 calls of a traced function with a cached signature allocate
  nothing that stays alive (tracemalloc, generous 2 MB limit).
* Retraces across distinct Python-scalar arguments keep one graph per value
  (as TensorFlow keeps one ConcreteFunction per signature), so memory grows
  linearly with the number of distinct graphs and nothing else: the test
  bounds the bytes kept per trace, checks that the second half of the
  retraces costs no more than the first (no super-linear growth), and that
  calling again with the same values allocates nothing and traces nothing.
  Under tracemalloc this uses 1,000 retraces (tracemalloc makes each trace
  several times slower); the 10,000-retrace run is measured without it.
* Excessive retracing produces exactly ONE `RetracingWarning`, which names
  the fix (`input_signature`, `reduce_retracing`).

The three long ones are marked `long`: a plain `python3 -m pytest` leaves them
out, `-m long` runs them (CI does, in a step of its own: .ci/run).
"""

import gc
import tracemalloc
import warnings

import numpy as np
import pytest

import runtime as tf
from runtime._src.function.function import RetracingWarning

CALLS = 100_000
RETRACES = 10_000
TRACED_RETRACES = 1_000
PER_TRACE_LIMIT = 40_000      # bytes kept per distinct graph (measured ~9 KB)


def _allocated():
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


@pytest.fixture
def traced_memory():
    tracemalloc.start()
    try:
        yield _allocated
    finally:
        tracemalloc.stop()


def _scaled(autograph=False):
    @tf.function(autograph=autograph)
    def f(x, k):
        return x * 2 + k
    return f


@pytest.mark.long
def test_100k_cached_calls_do_not_grow_memory(traced_memory):
    f = _scaled()
    x = tf.constant(np.arange(4, dtype=np.int32))
    for _ in range(1_000):            # warm up caches and the compiled graph
        f(x, 1)
    before = traced_memory()
    for _ in range(CALLS):
        out = f(x, 1)
    grown = traced_memory() - before
    np.testing.assert_array_equal(out.numpy(), np.array([1, 3, 5, 7], np.int32))
    assert f.experimental_get_tracing_count() == 1
    assert grown < 2_000_000, f"{CALLS} cached calls kept {grown} bytes alive"


@pytest.mark.long
def test_retraces_grow_memory_linearly_per_graph_only(traced_memory):
    f = _scaled()
    x = tf.constant(3)
    half = TRACED_RETRACES // 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RetracingWarning)
        # Each value is called twice: a graph's first run is interpreted and its
        # second compiles it, so a trace's memory is what both leave behind.
        for k in range(50):           # warm-up traces (imports, code caches)
            f(x, k), f(x, k)
        start = traced_memory()
        for k in range(50, 50 + half):
            f(x, k), f(x, k)
        middle = traced_memory()
        for k in range(50 + half, 50 + TRACED_RETRACES):
            f(x, k), f(x, k)
        end = traced_memory()
        for k in range(50, 50 + TRACED_RETRACES):   # every value again: cache hits
            assert int(f(x, k).numpy()) == 6 + k
        after_hits = traced_memory()
    first, second = middle - start, end - middle
    assert f.experimental_get_tracing_count() == 50 + TRACED_RETRACES
    assert first / half < PER_TRACE_LIMIT, f"{first / half:.0f} bytes kept per trace"
    assert second < 1.5 * first + 500_000, (first, second)
    assert after_hits - end < 500_000, "cache hits allocated memory that stays alive"


@pytest.mark.long
def test_ten_thousand_retraces_trace_once_each_and_warn_once():
    f = _scaled()
    x = tf.constant(1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for k in range(RETRACES):
            f(x, k)
    assert f.experimental_get_tracing_count() == RETRACES
    assert int(f(x, RETRACES - 1).numpy()) == 2 + RETRACES - 1
    retracing = [w for w in caught if issubclass(w.category, RetracingWarning)]
    assert len(retracing) == 1
    assert [w for w in caught if w not in retracing] == []


@pytest.mark.parametrize("vary", ["python scalar", "tensor shape", "tensor dtype"])
def test_excessive_retracing_warns_once_with_the_fix(vary):
    f = _scaled()

    def call(i):
        if vary == "python scalar":
            return f(tf.constant(1), i)
        if vary == "tensor shape":
            return f(tf.constant(np.zeros(i + 1, np.int32)), 1)
        dtypes = [np.int32, np.float32, np.float64, np.int64, np.int16, np.int8, np.float16]
        return f(tf.constant(np.array(1, dtypes[i])), 1)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i in range(7):
            call(i)
    assert f.experimental_get_tracing_count() == 7
    assert len(caught) == 1
    warning = caught[0]
    assert issubclass(warning.category, RetracingWarning)
    text = str(warning.message)
    assert "traced 5 times" in text
    assert "input_signature" in text and "reduce_retracing" in text
    assert warning.filename == __file__, "the warning should point at the user's call"


def test_reduce_retracing_avoids_the_warning_for_shapes():
    @tf.function(reduce_retracing=True, autograph=False)
    def total(v):
        return tf.reduce_sum(v)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in range(1, 200):
            assert int(total(tf.constant(np.ones(n, np.int32))).numpy()) == n
    assert total.experimental_get_tracing_count() == 2
    assert caught == []


def test_input_signature_avoids_the_warning_for_values():
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)], autograph=False)
    def double(k):
        return k * 2

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for k in range(500):
            assert int(double(k).numpy()) == 2 * k
    assert double.experimental_get_tracing_count() == 1
    assert caught == []


def test_retrace_cost_does_not_grow_with_earlier_traces(monkeypatch):
    """Regression: each retrace compared itself with EVERY earlier trace
    (runtime/_src/function/function.py `_record_trace`), so N retraces cost O(N^2) and
    10,000 retraces took minutes. Now it compares with a bounded window."""
    import runtime._src.function.signature as sig
    calls = []
    real = sig.explain_difference
    monkeypatch.setattr(sig, "explain_difference", lambda a, b: calls.append(1) or real(a, b))
    f = _scaled()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RetracingWarning)
        for k in range(300):
            f(tf.constant(1), k)
        calls.clear()
        f(tf.constant(1), 300)
    assert 1 <= len(calls) <= 64
    assert "argument 'k': value" in f.experimental_explain_retracing()
