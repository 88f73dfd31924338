"""Kernels split over the batch across a few threads.

numpy releases the GIL inside its loops, so a kernel whose work is a few
passes over a large batch (max pooling and its gradient) runs its batch in
chunks on several threads at once: on an idle machine it uses the cores
OpenBLAS leaves idle outside matrix products, and on a busy one each thread
gets its own share of the CPU, as TensorFlow's intra-op threads do. Each
chunk writes its own slice of a preallocated output, so the values are
those of one pass over the whole batch, bit for bit.

    over_batch(part, n, work)    # part(start, stop) for chunks of range(n)

A kernel is split only when it touches at least `MIN_WORK` elements. The
threads are the CPUs this process may run on (at most `MAX_THREADS`), or the
count fixed with `tf.config.threading.set_intra_op_parallelism_threads(n)`;
`RUNTIME_KERNEL_THREADS=1` in the environment turns splitting off.
"""

import os
import threading
from concurrent.futures import ThreadPoolExecutor

from runtime._src.core import threads as _threads

__all__ = ["over_batch", "kernel_threads", "MIN_WORK"]

MIN_WORK = 1 << 17                 # elements: below, a thread's start costs more than it saves
MAX_THREADS = 8
_state = {"pool": None, "size": 0}
_lock = threading.Lock()


def kernel_threads():
    """How many threads a large kernel splits its batch over."""
    env = os.environ.get("RUNTIME_KERNEL_THREADS", "").strip()
    if env.isdigit() and int(env) > 0:
        return min(int(env), MAX_THREADS)
    fixed = _threads.get_intra_op_parallelism_threads()
    if fixed:
        return min(fixed, MAX_THREADS)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(cpus or 1, MAX_THREADS))


def _pool(size):
    with _lock:
        if _state["pool"] is None or _state["size"] < size:
            _state["pool"] = ThreadPoolExecutor(size, thread_name_prefix="runtime-kernel")
            _state["size"] = size
        return _state["pool"]


def _forget_pool():
    _state["pool"], _state["size"] = None, 0     # a forked child has none of the threads


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def over_batch(part, n, work):
    """Run `part(start, stop)` over `range(n)`: in one call, or, when `work`
    (elements touched) is at least `MIN_WORK`, in chunks on several threads,
    this one taking the first chunk."""
    count = min(kernel_threads(), n) if work >= MIN_WORK else 1
    if count <= 1:
        part(0, n)
        return
    bounds = [n * i // count for i in range(count + 1)]
    pool = _pool(count - 1)
    futures = [pool.submit(part, bounds[i], bounds[i + 1]) for i in range(1, count)]
    part(bounds[0], bounds[1])
    for future in futures:
        future.result()
