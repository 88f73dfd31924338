"""runtime/_src/core/parallel.py's `split`: a slice that no pool thread has
started when the caller is done with its own runs on the caller (a busy
machine's pool thread waiting to be scheduled does not stall the kernel),
and the cancelled task then holds nothing of the kernel's (the run's
workspace must be able to take its arrays back)."""

import gc
import threading
import weakref

import numpy as np
import pytest

from runtime._src.core import parallel

needs_pool = pytest.mark.skipif(parallel._CORES < 2, reason="one core: no pool threads")


@needs_pool
def test_unstarted_slices_run_on_the_caller(monkeypatch):
    monkeypatch.setattr(parallel, "threads_for", lambda elements: parallel._CORES)
    pool, release = parallel._pool(), threading.Event()
    started = threading.Barrier(parallel._CORES)     # every pool thread busy elsewhere
    busy = [pool.submit(lambda: (started.wait(), release.wait(10))) for _ in
            range(parallel._CORES - 1)]
    started.wait(10)
    out, ran = np.zeros(12), []
    work = _doubling(np.arange(12.0), out, ran)
    held = weakref.ref(work)
    try:
        parallel.split(12, work, 1 << 30)             # returns with the pool still blocked
        del work
        gc.collect()
        alive = held() is not None                    # the cancelled tasks are still queued
    finally:
        release.set()
        for future in busy:
            future.result()
    np.testing.assert_array_equal(out, np.arange(12.0) * 2)
    assert sorted(lo for lo, _, _ in ran) == [12 * i // parallel._CORES
                                               for i in range(parallel._CORES)]
    assert {ident for _, _, ident in ran} == {threading.get_ident()}
    assert not alive                                 # but they let go of the kernel


def _doubling(x, out, ran):
    def work(lo, hi):
        ran.append((lo, hi, threading.get_ident()))
        np.multiply(x[lo:hi], 2, out=out[lo:hi])
    return work
