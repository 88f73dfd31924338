"""Large arrays reused across the runs of a compiled graph.

A compiled graph's run makes the same large temporaries every time (a
convolution's patch matrix, an activation, a weight gradient). Instead of
asking malloc for them on every step, a run draws them from a pool of arrays
that earlier runs, or earlier ops of the same run, no longer need, keyed by
shape and dtype, as TensorFlow's allocator and XLA's buffer assignment reuse
a step's buffers.

An array enters the pool only when nothing else can see it:

- the generated code hands over a local after its last use (`give`), and the
  array goes in only when it owns its memory (no view of another array) and
  Python's reference count shows no holder but that local: not a returned
  output, a Variable's value, a view or any user's name;
- a kernel hands back a temporary it made and never let out (`release`).

Arrays are pooled by size and dtype and handed out reshaped (a view), so a
conv's (N*OH*OW, O) product serves a later (N, OH, OW, O) gradient.

Arrays under `MIN_BYTES` are left to numpy (its allocator is cheap for them).
The pool is active only inside `executor.run` (`activate`), one per thread and
run, so concurrent and nested runs never share an array; an eager op call
sees no pool and allocates as numpy does.

    with_pool = activate({})
    a = empty((1024, 1024), np.float32)     # from the pool, or np.empty
    give(a)                                  # back in the pool when unseen
    activate(with_pool)                      # the previous pool again
"""

import sys
import threading

import numpy as np

__all__ = ["MIN_BYTES", "activate", "active", "empty", "zeros", "out_for", "give", "release",
           "trim"]

MIN_BYTES = 16 * 1024
_GIVEN = None                   # pool key: the bytes handed back during this run
_state = threading.local()
_getrefcount = sys.getrefcount


def activate(pool):
    """Make `pool` (a dict, or None for none) this thread's pool; returns the
    previous one, to restore."""
    previous = getattr(_state, "pool", None)
    _state.pool = pool
    return previous


def active():
    """This thread's pool, or None outside a compiled graph's run."""
    return getattr(_state, "pool", None)


def empty(shape, dtype):
    """An uninitialized array: a pooled one of that size and dtype (reshaped)
    when the pool has it, else a new one."""
    out = out_for(shape, dtype)
    return np.empty(shape, dtype) if out is None else out


def out_for(shape, dtype):
    """A pooled array of `shape` and `dtype` for a ufunc's `out=`, or None
    (numpy then allocates): None outside a run or when the pool has none of
    that size (small results are never pooled)."""
    pool = getattr(_state, "pool", None)
    if pool:
        size = 1
        for d in shape:
            size *= d
        free = pool.get((size, np.dtype(dtype)))
        if free:
            return free.pop().reshape(shape)
    return None


def zeros(shape, dtype):
    """A zero-filled array, pooled when possible (see `empty`)."""
    out = empty(shape, dtype)
    out.fill(0)
    return out


def give(array):
    """Put `array` in the pool when nothing but the caller's one local name
    holds it (see the module docstring); the caller then deletes that name.
    A view (a reshape of a kernel's fresh result) gives its base when the view
    is the base's only holder. Anything else (not an ndarray, small, held
    elsewhere) is left be."""
    pool = getattr(_state, "pool", None)
    if pool is None or type(array) is not np.ndarray or _getrefcount(array) != _ONE_HOLDER:
        return
    base = array.base
    if base is not None:
        if type(base) is not np.ndarray or base.base is not None \
                or _getrefcount(base) != _VIEW_ONLY:
            return
        array = base
    if array.nbytes >= MIN_BYTES and array.flags.c_contiguous and array.flags.writeable:
        _add(pool, array)


def _add(pool, array):
    pool.setdefault((array.size, array.dtype), []).append(array)
    pool[_GIVEN] = pool.get(_GIVEN, 0) + array.nbytes


def trim(pool):
    """End a run with `pool`: empty it when it holds more than twice what the
    run handed back (arrays of sizes the last runs no longer make: a batch
    size that changed), so a graph run with many shapes keeps no more than
    one run's arrays."""
    given = pool.pop(_GIVEN, 0)
    held = sum(array.nbytes for arrays in pool.values() for array in arrays)
    if held > 2 * given:
        pool.clear()


def _one_holder_count(array):
    """getrefcount of an array its caller holds in one local, counted the way
    `give` counts (the local, this parameter, getrefcount's argument: 3 on
    CPython 3.11)."""
    return _getrefcount(array)


def _view_only_count(view):
    """getrefcount of the base of `view` when the view is its only holder,
    counted the way `give` counts (the base pointer, `base`, the argument)."""
    base = view.base
    return _getrefcount(base)


def release(array):
    """Put a kernel's own temporary in the pool: the kernel made it (with
    `empty`) and no view or reference of it leaves the kernel."""
    pool = getattr(_state, "pool", None)
    if pool is None:
        return
    if array.base is not None:             # a pooled array handed out reshaped
        array = array.base
        if type(array) is not np.ndarray or array.base is not None:
            return
    if array.nbytes >= MIN_BYTES:
        _add(pool, array)


def _calibrate():
    """The counts `give` requires, measured once on this Python, so that a
    Python that counts references differently still pools only arrays that no
    one else holds (it then pools nothing rather than too much)."""
    held = np.empty(4)
    return _one_holder_count(held), _view_only_count(np.empty(4)[1:])


_ONE_HOLDER, _VIEW_ONLY = _calibrate()
