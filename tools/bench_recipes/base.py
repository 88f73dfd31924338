"""What every bench recipe shares: best-of-N timing, tracing, `Unavailable`
(a workload that cannot run here) and the figures' format.

`REPEAT` is the N of best-of-N; tools/bench.py sets it from `--repeat`
before any workload runs (the timers read it at call time)."""

import gc
import time

import runtime as tf
from runtime._src.exec import executor

REPEAT = 7
BATCH_SECONDS = 0.02
constant = tf.constant


class Unavailable(Exception):
    """A workload cannot run here (a missing op or package)."""


# --- timing ------------------------------------------------------------------------

def best_of(fn, repeat=None, min_batch=BATCH_SECONDS):
    """Best per-call time of `fn()` in seconds over `repeat` timed batches."""
    repeat = repeat or REPEAT
    number = _calibrate(fn, min_batch)
    return min(_time_batch(fn, number) / number for _ in range(repeat))


def best_of_pair(fn_a, fn_b, repeat=None, min_batch=BATCH_SECONDS):
    """best_of for two functions with their batches interleaved, so that load
    from other processes hits both alike (the ratio is what matters)."""
    repeat = repeat or REPEAT
    numbers = [_calibrate(fn, min_batch) for fn in (fn_a, fn_b)]
    best = [float("inf"), float("inf")]
    for _ in range(repeat):
        for i, fn in enumerate((fn_a, fn_b)):
            best[i] = min(best[i], _time_batch(fn, numbers[i]) / numbers[i])
    return best


def _calibrate(fn, min_batch):
    number = 1
    while True:
        t = _time_batch(fn, number)
        if t >= min_batch or number >= 1 << 20:
            return number
        number *= 2 if t * 4 > min_batch else 8


def _time_batch(fn, number, clock=time.perf_counter):
    gc_was = gc.isenabled()
    gc.disable()
    try:
        start = clock()
        for _ in range(number):
            fn()
        return clock() - start
    finally:
        if gc_was:
            gc.enable()


def best_of_many(fns, repeat=None, min_batch=BATCH_SECONDS, clock=time.perf_counter):
    """best_of for several functions, their batches interleaved round-robin.
    `clock=time.thread_time` times the calling thread's CPU time: on a shared
    machine a wall-clock batch of microsecond calls is almost never left
    unpreempted, the thread's CPU time is (for single-threaded calls)."""
    repeat = repeat or REPEAT
    numbers = [_calibrate(fn, min_batch) for fn in fns]
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            best[i] = min(best[i], _time_batch(fn, numbers[i], clock) / numbers[i])
    return best


def fmt(seconds):
    """`seconds` in s, ms or us, as the table prints it ("-" for None)."""
    if seconds is None:
        return "-"
    if seconds >= 0.1:
        return f"{seconds:.3f} s"
    if seconds >= 1e-4:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds * 1e6:.2f} us"


# --- tracing -------------------------------------------------------------------------

def trace(fn, args):
    """(graph_call, graph): graph_call(*tensors) runs `fn`'s traced graph."""
    f = tf.function(fn, autograph=False)
    return f, f.get_concrete_function(*args).graph


def compiled_body(graph):
    """The generated Python function a run of `graph` calls."""
    return executor.compiled_form(graph).fn


def api(name):
    """`tf.<name>` (a dotted name: "nn.relu"), or Unavailable."""
    obj = tf
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise Unavailable(f"tf.{name} not available")
    return obj
