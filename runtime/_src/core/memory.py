"""The process's allocator, set once so a training step's speed does not depend on it.

numpy allocates every result with `malloc`. With glibc's defaults a large
array (a conv activation, a weight gradient) is served by `mmap` and handed
back to the kernel when freed, or the heap's top is trimmed back after each
step; the next step then page-faults the same memory in again, zeroed by the
kernel. On the CNN and MLP training steps of tools/bench.py this doubled or tripled
the step time, depending on how the allocator's dynamic threshold happened to
move. TensorFlow keeps its buffers in its own allocator.

`keep_freed_memory()` (run once, when `runtime` is imported) tells glibc, via
`mallopt`, to serve blocks up to 32 MiB from the heap and to keep up to
256 MiB of freed memory at the heap's top for reuse. It only keeps memory the
process already used at its peak; arrays above 32 MiB still come from and go
back to the kernel. It changes nothing where:

- the C library is not glibc (macOS, Windows, musl);
- the environment sets `RUNTIME_MALLOPT=0` (the opt-out);
- the environment sets glibc's own `MALLOC_MMAP_THRESHOLD_` or
  `MALLOC_TRIM_THRESHOLD_` (the user's choice wins).

    keep_freed_memory()      # True when glibc took the settings
"""

import ctypes
import os
import sys

__all__ = ["keep_freed_memory", "MMAP_THRESHOLD", "TRIM_THRESHOLD"]

MMAP_THRESHOLD = 32 * 1024 * 1024      # glibc's maximum on 64-bit systems
TRIM_THRESHOLD = 256 * 1024 * 1024
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3     # mallopt's parameter numbers
_USER_SETTINGS = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")
_done = {"result": None}


def keep_freed_memory():
    """Set glibc's mmap and trim thresholds (once); True when set, False when
    skipped (not glibc, opted out, or the user's own settings)."""
    if _done["result"] is None:
        _done["result"] = _apply()
    return _done["result"]


def _apply():
    if os.environ.get("RUNTIME_MALLOPT", "1").strip() == "0":
        return False
    if any(name in os.environ for name in _USER_SETTINGS):
        return False
    libc = _glibc()
    if libc is None:
        return False
    ok = libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    return bool(ok) and bool(libc.mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))


def _glibc():
    """The process's C library when it is glibc (it has gnu_get_libc_version
    and mallopt), else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version       # noqa: B018 - only glibc has it
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return None
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return libc
