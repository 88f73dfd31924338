"""`tf.config.threading`: thread-count settings.

Ops run one after another on the calling thread (the executor has no
inter-op pool), so `inter_op_parallelism_threads` is stored and reported
only. The work inside an op is numpy's, whose matrix products use the BLAS
library's threads: `set_intra_op_parallelism_threads(n)` fixes those at n
(0: the automatic choice of runtime/_src/core/blas.py again), through numpy's
OpenBLAS directly or else `threadpoolctl` when that package is installed;
without either the value is stored and reported only (see
docs/tf_differences.md).

    set_intra_op_parallelism_threads(2)
    get_intra_op_parallelism_threads()      # 2
"""

from runtime._src.core import blas

__all__ = ["set_intra_op_parallelism_threads", "get_intra_op_parallelism_threads",
           "set_inter_op_parallelism_threads", "get_inter_op_parallelism_threads"]

_settings = {"intra": 0, "inter": 0, "limiter": None}


def _count(value, what):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{what}: expected a number of threads >= 0 (0: the default), got "
                         f"{value!r}")
    return value


def _limit_blas(n):
    """Limit the BLAS threads to n (0: undo): numpy's OpenBLAS directly when
    it can be reached (runtime/_src/core/blas.py), else through threadpoolctl;
    False when neither can."""
    if blas.set_fixed(n):
        return True
    try:
        import threadpoolctl
    except ImportError:
        return False
    old = _settings["limiter"]
    if old is not None:
        old.restore_original_limits()
        _settings["limiter"] = None
    if n:
        _settings["limiter"] = threadpoolctl.threadpool_limits(limits=n, user_api="blas")
    return True


def set_intra_op_parallelism_threads(num_threads):
    """Threads one op may use (the BLAS threads, with threadpoolctl)."""
    _settings["intra"] = _count(num_threads, "set_intra_op_parallelism_threads")
    _limit_blas(_settings["intra"])


def get_intra_op_parallelism_threads():
    return _settings["intra"]


def set_inter_op_parallelism_threads(num_threads):
    """Threads for running independent ops at once (stored: ops run in order here)."""
    _settings["inter"] = _count(num_threads, "set_inter_op_parallelism_threads")


def get_inter_op_parallelism_threads():
    return _settings["inter"]
