"""Op determinism: `tf.config.experimental.enable_op_determinism()`.

TensorFlow's promise: an op run again with the same inputs, on the same
hardware, gives the same bits; random ops need a seed (a global one from
`tf.random.set_seed`, or the op's own), or raise. This module holds the
switch; what it changes lives with each road that could move the bits:

- BLAS threads (runtime/_src/core/blas.py): a product's rows may sum in
  another order with another thread count (tests/blas_rows.py), and the
  count normally follows the machine's load; with determinism on it is one
  fixed count for eager ops and every graph run alike;
- a graph's first run (runtime/_src/exec/executor.py): normally interpreted,
  and the interpreter calls whole products where the compiled code splits
  their rows, and folds a bias gradient into a product (other summation
  orders); with determinism on the first run is compiled too, so every call
  runs the same code;
- random ops without a seed (runtime/_src/ops/random_ops.py, tf.data's
  random datasets, `tf.random.Generator`): TensorFlow's RuntimeError.

    enable()       # tf.config.experimental.enable_op_determinism
    enabled()      # True
    disable()      # TF's (unexported) disable_op_determinism, for tests

Everything else already runs in a fixed order: kernels split over threads
give each thread fixed slices, and the same slices each run
(runtime/_src/core/parallel.py).
"""

import contextlib
import threading

__all__ = ["enable", "disable", "enabled", "SEED_REQUIRED", "require_seed", "unseeded_allowed"]

_state = {"on": False}

SEED_REQUIRED = ("Random ops require a seed to be set when determinism is enabled. Please "
                 "set a seed before running the op, e.g. by calling tf.random.set_seed(1).")


def enabled():
    return _state["on"]


def enable():
    """The switch only; device_config.enable_op_determinism also sets the
    BLAS threads at once, for the eager products."""
    _state["on"] = True


def disable():
    _state["on"] = False


def require_seed(global_seed, op_seed):
    """TensorFlow's RuntimeError when determinism is on and neither seed is
    set (except inside `unseeded_allowed`)."""
    if global_seed is None and op_seed is None and _state["on"] \
            and not getattr(_local, "unseeded", 0):
        raise RuntimeError(SEED_REQUIRED)


_local = threading.local()


@contextlib.contextmanager
def unseeded_allowed():
    """Random ops made inside may go without a seed under determinism: a
    Keras 3 layer draws through its own seed generator, seeded from Python's
    `random` when the layer has no seed, and TensorFlow lets it."""
    _local.unseeded = getattr(_local, "unseeded", 0) + 1
    try:
        yield
    finally:
        _local.unseeded -= 1
