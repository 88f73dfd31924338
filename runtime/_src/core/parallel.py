"""A kernel's work split over the batch across the cores.

numpy runs a ufunc or a copy on one thread; TensorFlow's kernels use every
core. The convolution and pooling kernels (runtime/_src/ops/conv_ops.py) hand
their copies, masks and adds, which are not matrix products, to `split`: the
batch is cut into one slice per thread and each thread works on its own
slices of the same arrays (numpy releases the GIL in those loops). Each
element is computed by the same loop either way, so the values do not depend
on the split.

Their matrix products go through `matmul`: while BLAS runs on one thread
(runtime/_src/core/blas.py chooses one for small products and on a busy
machine, where its own threads spin waiting for one another), the rows of
the left operand are split over the threads, each product on one BLAS
thread; each output row is the same sum in the same order either way, so the
same bits. With several BLAS threads, BLAS splits the product itself.

A busy machine splits too: the threads then wait for one another by
blocking, not spinning, and the scheduler gives each runnable thread its
share, as it gives TensorFlow's pool (measured on a 2-core machine at a load
of 17: a CNN training step 70 ms on one thread, 43 ms split, the same CPU
time).

The work stays on the calling thread when:

- it is small (under `MIN_ELEMENTS` elements);
- the threads were fixed with
  `tf.config.threading.set_intra_op_parallelism_threads` (that many then);
- the process may use one core, or `RUNTIME_PARALLEL=0` is set;
- the caller is itself one of the pool's threads.

    split(len(x), lambda lo, hi: np.add(x[lo:hi], y[lo:hi], out=z[lo:hi]), x.size)
    matmul(a, b, out)                      # out = a @ b
    elementwise(np.add, x, b, out=x)       # x += b

The generated code of a graph (runtime/_src/exec/codegen.py) calls `matmul`
and `elementwise` for its large products and elementwise ops.
"""

import contextvars
import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from runtime._src.core import blas

__all__ = ["split", "split_chunked", "chunk_items", "chunk_bounds", "matmul", "elementwise", "threads_for",
           "slots", "MIN_ELEMENTS", "MACS_PER_ELEMENT", "THIN_ROWS", "CHUNK_BYTES"]

MIN_ELEMENTS = 1 << 17
# A product's multiply-adds per elementwise step: a product splits from
# MIN_ELEMENTS * MACS_PER_ELEMENT (16M, about 0.3 ms on one core); a smaller
# one (an LSTM's input projection) is not worth waking a thread for.
MACS_PER_ELEMENT = 128
THIN_ROWS = 16                 # a product with fewer rows splits its inner dimension
# The bytes one chunk of a chained memory-bound pass touches (`split_chunked`):
# well inside a core's L2 cache (1 to 2 MiB on current x86 server cores).
CHUNK_BYTES = 1 << 20
_MAX_THREADS = 8
_state = {"pool": None, "lock": threading.Lock(), "workers": set()}


def _cores():
    if os.environ.get("RUNTIME_PARALLEL", "1").strip() == "0":
        return 1
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


_CORES = min(_cores(), _MAX_THREADS)
blas.set_row_split(_CORES > 1)     # mid-size products: one BLAS thread, rows split here


def threads_for(elements):
    """How many threads a kernel's elementwise pass over `elements` should use."""
    if _CORES == 1 or elements < MIN_ELEMENTS:
        return 1
    fixed = blas.fixed_threads()
    if fixed is not None:
        return max(1, min(fixed, _CORES))
    if threading.get_ident() in _state["workers"]:
        return 1
    return _CORES


def _pool():
    pool = _state["pool"]
    if pool is None:
        with _state["lock"]:
            if _state["pool"] is None:
                _state["pool"] = ThreadPoolExecutor(
                    _CORES - 1, thread_name_prefix="runtime-kernel",
                    initializer=lambda: _state["workers"].add(threading.get_ident()))
            pool = _state["pool"]
    return pool


def _forget_pool():
    """In a forked child: the parent's pool threads do not exist here."""
    _state["pool"], _state["lock"], _state["workers"] = None, threading.Lock(), set()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def split(n, work, elements):
    """Run `work(lo, hi)` over the batch range [0, n) in contiguous slices, one
    per thread (see `threads_for(elements)`), the first slice on this thread;
    returns when all are done (an exception in any is raised here).

    A slice that no pool thread has started by the time this thread is done
    with its own runs here too: on a busy machine a pool thread may wait a
    whole time slice to be scheduled, and the caller does not wait for it."""
    bounds = _bounds(n, elements)
    parts = len(bounds) - 1
    if parts <= 1:
        work(0, n)
        return
    todo = list(range(parts - 1, 0, -1))     # slices not yet claimed; pop is atomic
    # a cancelled task stays queued until a pool thread skips it: it must not
    # keep `work` (and the arrays it holds) alive, or the run's workspace
    # cannot take them back (runtime/_src/core/workspace.py)
    job = [work]

    def claimed():
        try:
            i = todo.pop()
        except IndexError:                    # the caller took it
            return
        job[0](bounds[i], bounds[i + 1])
    pool = _pool()
    # each part runs in a copy of the caller's context: numpy's error state
    # (the executor's quiet one) holds in the pool's threads too
    pending = [pool.submit(contextvars.copy_context().run, claimed) for _ in range(1, parts)]
    try:
        work(bounds[0], bounds[1])
        while todo:
            claimed()
    finally:
        for future in pending:
            if not future.cancel():           # started: wait for it
                future.result()
        job.clear()


def _bounds(n, elements):
    """The batch range [0, n) cut into one contiguous slice per thread."""
    parts = max(1, min(threads_for(elements), n))
    return [n * i // parts for i in range(parts + 1)]


def chunk_items(item_bytes):
    """How many batch items of `item_bytes` each (all the arrays a chained
    pass reads and writes for one item) make one chunk of `split_chunked`, at most."""
    return max(1, CHUNK_BYTES // max(1, item_bytes))


def chunk_bounds(n, most):
    """The cuts [0, ..., n] of the batch into chunks of at most `most` items,
    as even as they can be, as many chunks as a multiple of the cores (each
    thread of a split then gets as many items): they depend on n, `most` and
    the machine's cores only, not on how many threads a call uses."""
    count = min(n, _CORES * -(-n // (_CORES * most))) if n else 0
    return [n * i // count for i in range(count + 1)] if count else [0]


def split_chunked(n, most, work, elements):
    """`split` over the chunks of `chunk_bounds(n, most)`, each thread working
    through its run of chunks in order: `work(slot, lo, hi)` for each chunk
    [lo, hi), `slot` the thread's index, below `slots(n, most, elements)`, so
    that a kernel runs a chain of passes (a compare, then a multiply) on one
    chunk while it is in the core's cache, in scratch arrays of its own slot,
    and adds per-chunk partial sums in the chunks' order: the values do not
    depend on the threads."""
    cuts = chunk_bounds(n, most)
    bounds = _bounds(len(cuts) - 1, elements)

    def run(first, last):
        slot = bounds.index(first)
        for i in range(first, last):
            work(slot, cuts[i], cuts[i + 1])
    split(len(cuts) - 1, run, elements)


def slots(n, most, elements):
    """How many slots `split_chunked(n, most, ..., elements)` hands its work: one per thread."""
    return len(_bounds(len(chunk_bounds(n, most)) - 1, elements)) - 1


def matmul(a, b, out=None):
    """`np.matmul(a, b, out=out)` for 2-D operands, the rows of `a` split over
    the threads (`split`) while BLAS runs on one thread; returns `out` (made
    when None). Each output row is the same sum either way: the same bits
    where the BLAS sums a row alike however many rows it multiplies at once
    (not every build does: docs/tf_differences.md, tests/blas_rows.py).

    A product splits by its multiply-adds or by the elements it reads and
    writes, whichever is more: a thin product (a convolution over one
    channel, 9 taps deep) has few multiply-adds for its size, and BLAS runs
    it far below its peak (the first Conv2D of a CNN and its filter gradient,
    about 0.5 ms each on one core). A product of fewer than `THIN_ROWS` rows
    (that filter gradient: 9 rows, 21,632 deep) splits its inner dimension
    instead, each thread's partial product added in the parts' order: the
    same terms summed in another order, equal within float rounding."""
    if out is None:
        out = np.empty((a.shape[0], b.shape[1]), np.result_type(a, b))
    if not blas.single_threaded():
        return np.matmul(a, b, out=out)
    work = max(a.shape[0] * a.shape[1] * b.shape[1] // MACS_PER_ELEMENT, a.size + b.size)
    if a.shape[0] >= THIN_ROWS or threads_for(work) == 1:
        split(a.shape[0], lambda lo, hi: np.matmul(a[lo:hi], b, out=out[lo:hi]), work)
        return out
    parts = {}

    def part(lo, hi):
        parts[lo] = np.matmul(a[:, lo:hi], b[lo:hi])
    split(a.shape[1], part, work)
    out.fill(0)
    for lo in sorted(parts):
        np.add(out, parts[lo], out=out)
    return out


def elementwise(ufunc, *args, out=None):
    """`ufunc(*args, out=out)` with `out`'s rows (its first axis) split over
    the threads (`split`): each operand with `out`'s rank and first dimension
    is cut alike, the others (scalars, broadcast rows) go whole. Each element
    is the same loop's, so the same bits. `out` None: numpy allocates, unsplit."""
    if out is None or out.ndim == 0 or len(out) < 2 or threads_for(out.size) == 1:
        return ufunc(*args, out=out)
    n = len(out)
    cut = [type(a) is np.ndarray and a.ndim == out.ndim and a.shape[0] == n for a in args]

    def part(lo, hi):
        ufunc(*[a[lo:hi] if c else a for a, c in zip(args, cut)], out=out[lo:hi])
    split(n, part, out.size)
    return out
