"""How many threads numpy's OpenBLAS may use, chosen per graph run.

OpenBLAS splits every matrix product above a small size across its threads,
which then wait for one another. On an idle machine that pays for large
products; on a busy one a thread that is not scheduled stalls the product
for a time slice, and a training step of small products slows down many
times over (measured: a Conv2D-MaxPool-Dense training step took 1.4 s with the default threads on a
loaded 2-core machine against 47 ms with one). So a graph run uses:

- one thread when its largest product is small (under `SMALL_WORK`
  multiply-adds, where threads gain little and risk a stall);
- one thread when its largest product is mid-size (under `MID_WORK`) and
  the kernels split the rows of their products over threads of their own
  (runtime/_src/core/parallel.py calls `set_row_split`): BLAS's own threads
  spin after each product, and on a 2-core machine they then compete with
  the kernels' threads for the copies and elementwise passes between the
  products (measured on a loaded 2-core machine, a CNN training step of
  71M-multiply-add products: 16 ms of CPU time with one BLAS thread and
  its rows split, 64 to 92 ms with the library's 2 threads);
- one thread when the machine is busy (the 1-minute load average above
  the CPU count plus a half, checked at most once a second; back to several
  threads below the count less a half);
- else the library's own count (OPENBLAS_NUM_THREADS or its default).

Under op determinism (runtime/_src/core/determinism.py) the count is one
fixed number whatever the product or the load: this library sums a
product's rows in another order with another count.

It never uses more threads than the library was started with. It is off
where it cannot be done safely: no OpenBLAS loaded by numpy (found by name
in /proc/self/maps, Linux only, with its set/get functions), or
`RUNTIME_BLAS_THREADS=0` in the environment, or a count fixed with
`tf.config.threading.set_intra_op_parallelism_threads(n)` (see
`set_fixed`). threadpoolctl is not needed.

    threads_for(work)     # 1 or the library's count
    use(threads_for(w))   # sets it when it differs from the current count
"""

import ctypes
import os
import sys
import time

from runtime._src.core import determinism

__all__ = ["available", "threads_for", "use", "set_fixed", "current", "SMALL_WORK",
           "MID_WORK", "machine_busy", "fixed_threads", "single_threaded", "set_row_split"]

SMALL_WORK = 1 << 22              # multiply-adds: about 0.2 ms on one core
MID_WORK = 1 << 28                # about 10 ms on one core
_CHECK_SECONDS = 1.0
_state = {"set": None, "get": None, "default": 1, "current": None, "fixed": None,
          "busy": False, "checked": -1.0, "cpus": 1, "row_split": False}


def _find():
    """(set, get) of the OpenBLAS numpy loaded, or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import numpy  # noqa: F401 - loads the BLAS library numpy links
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps}
    except OSError:
        return None
    for path in sorted(p for p in paths if "openblas" in os.path.basename(p).lower()):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for prefix in ("scipy_openblas", "openblas"):
            for suffix in ("64_", "_64_", ""):
                setter = getattr(lib, f"{prefix}_set_num_threads{suffix}", None)
                getter = getattr(lib, f"{prefix}_get_num_threads{suffix}", None)
                if setter is not None and getter is not None:
                    setter.argtypes, setter.restype = (ctypes.c_int,), None
                    getter.argtypes, getter.restype = (), ctypes.c_int
                    return setter, getter
    return None


def _init():
    if os.environ.get("RUNTIME_BLAS_THREADS", "1").strip() == "0":
        return
    found = _find()
    if found is None:
        return
    setter, getter = found
    default = getter()
    if not isinstance(default, int) or default < 1:
        return
    _state.update(set=setter, get=getter, default=default, current=default)


def available():
    """True when the thread count can be chosen (OpenBLAS found, not opted out)."""
    return _state["set"] is not None


def _busy():
    now = time.monotonic()
    if now - _state["checked"] >= _CHECK_SECONDS:
        _state["checked"] = now
        try:
            load = os.getloadavg()[0]
        except OSError:
            return _state["busy"]
        cpus = _state["cpus"]
        _state["busy"] = load > cpus - 0.5 if _state["busy"] else load > cpus + 0.5
    return _state["busy"]


def machine_busy():
    """True when the 1-minute load average is above the CPU count (checked at
    most once a second, with a half-CPU hysteresis): the library's threads
    would spin waiting for one another's cores."""
    return _busy()


def fixed_threads():
    """The count fixed with `set_fixed` (intra-op parallelism), or None."""
    return _state["fixed"]


def threads_for(work):
    """The threads for a run whose largest product is `work` multiply-adds
    (None: unknown, taken as large)."""
    if _state["fixed"] is not None:
        return _state["fixed"]
    if determinism.enabled():
        return _deterministic_count()
    below = MID_WORK if _state["row_split"] else SMALL_WORK
    if _state["default"] == 1 or (work is not None and work < below) or _busy():
        return 1
    return _state["default"]


def _deterministic_count():
    """The one count every product uses under op determinism (whatever its
    size or the machine's load): one thread where the kernels split rows
    themselves, else the library's own count."""
    return 1 if _state["row_split"] else _state["default"]


def set_row_split(on):
    """Say whether the kernels split their products' rows over threads of
    their own while BLAS runs on one (runtime/_src/core/parallel.py): then a
    mid-size product (under `MID_WORK`) keeps BLAS on one thread."""
    _state["row_split"] = bool(on)


def use(n):
    """Set the library's thread count to `n` when it differs (no-op when unavailable)."""
    if n != _state["current"] and _state["set"] is not None:
        _state["set"](n)
        _state["current"] = n


def single_threaded():
    """True when the library was last set to one thread (`use`), so that a
    caller may split a product's rows over threads of its own
    (runtime/_src/core/parallel.py); False when unavailable."""
    return _state["current"] == 1


def current():
    """The library's thread count now, as it reports it (None when unavailable)."""
    return None if _state["get"] is None else _state["get"]()


def set_fixed(n):
    """Fix the count at `n` (0: back to the automatic choice); False when
    the library cannot be reached."""
    if _state["set"] is None:
        return False
    _state["fixed"] = n or None
    use(n or _state["default"])
    return True


_state["cpus"] = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                 else (os.cpu_count() or 1))
_init()
