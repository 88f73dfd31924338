"""`tf.experimental.async_scope`, `async_clear_error` and
`function_executor_type`: TF's switches for asynchronous eager execution and
the executor of eager functions.

Ops here always run synchronously, each on the calling thread, so an op's
error raises where the op runs: inside `async_scope`, which is where TF's
contract puts it at the latest (at the scope's exit barrier). There is no
pending error for `async_clear_error` to clear, and one executor, so
`function_executor_type` names one that functions keep using.

    with tf.experimental.async_scope():
        loss = train_step()          # its errors raise here, as TF's may
"""

import contextlib

__all__ = ["async_scope", "async_clear_error", "function_executor_type"]


@contextlib.contextmanager
def async_scope():
    """Group ops that TF may run asynchronously (here: synchronously)."""
    yield


def async_clear_error():
    """Clear the error state a failed async op left (none is ever left here)."""


@contextlib.contextmanager
def function_executor_type(executor_type):
    """The executor for eager functions made inside (`executor_type`, a name;
    functions here have one executor)."""
    yield
