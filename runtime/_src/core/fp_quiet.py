"""numpy's floating-point warnings switched off while the runtime's kernels run.

TensorFlow computes 1/0 -> inf, log(0) -> -inf and sqrt(-1) -> nan, lets
floats overflow to inf and casts NaN to an integer, all silently. numpy warns
for each (`RuntimeWarning: divide by zero encountered in divide`). The eager
fast paths, the eager op runner and the executor's graph runs hold numpy's
error state at "ignore" (`np.errstate(all="ignore")`) around their kernels, so
that these values come silently, whatever the user's own `np.seterr` or
warnings filters say, and numpy code of the user's own outside them still
warns as the user set it up.

    token = quiet()          # numpy's errors ignored on this thread / context
    try:
        out = kernel(x, y)
    finally:
        restore(token)

    with quietly():          # the same, for places that are not hot
        ...

`np.errstate` itself costs a few microseconds a use (it builds its state each
time); with numpy 2's context variable the state is built once here, and
`quiet`/`restore` are that variable's own set and reset (measured: 0.84 us the
pair on a loaded 2-core machine where an eager `tf.add` takes 7 us). Where
numpy has no such variable, `np.errstate` is used.
"""

import contextlib
import functools

import numpy as np

__all__ = ["quiet", "restore", "quietly"]

try:        # numpy >= 2 keeps errstate in this context variable
    from numpy._core._ufunc_config import _extobj_contextvar as _ERRSTATE
except ImportError:  # pragma: no cover - older numpy
    _ERRSTATE = None

if _ERRSTATE is not None:
    with np.errstate(all="ignore"):
        _IGNORE = _ERRSTATE.get()
    # Both are C callables (no Python frame): the eager fast paths call them per op.
    quiet = functools.partial(_ERRSTATE.set, _IGNORE)    # -> token
    restore = _ERRSTATE.reset                            # (token)
else:  # pragma: no cover - older numpy
    def quiet():
        """Ignore numpy's floating-point errors until `restore(token)`."""
        state = np.errstate(all="ignore")
        state.__enter__()
        return state

    def restore(token):
        """Put back the error state that `quiet()` replaced."""
        token.__exit__(None, None, None)


@contextlib.contextmanager
def quietly():
    """numpy's floating-point errors ignored inside the block."""
    token = quiet()
    try:
        yield
    finally:
        restore(token)
