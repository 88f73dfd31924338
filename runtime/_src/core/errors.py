"""Exception classes with TensorFlow's names (`errors.InvalidArgumentError`...)."""

__all__ = ["OpError", "InvalidArgumentError", "OperatorNotAllowedInGraphError",
           "UnimplementedError", "OutOfRangeError"]


class OpError(Exception):
    """An error raised while running an op. `op_name` names the graph node."""

    def __init__(self, message, op_name=None):
        super().__init__(message)
        self.message = message
        self.op_name = op_name


class InvalidArgumentError(OpError):
    """A run-time check failed (a failing Assert, a bad index, ...)."""


class OutOfRangeError(OpError):
    """An iterator has no more elements (`get_next` at the end of a dataset)."""


class UnimplementedError(OpError):
    """The op exists but not for these arguments."""


class OperatorNotAllowedInGraphError(TypeError):
    """A symbolic tensor was used as a Python bool or iterated while tracing."""
