"""Exception classes with TensorFlow's names (`errors.InvalidArgumentError`...)."""

__all__ = ["OpError", "InvalidArgumentError", "OperatorNotAllowedInGraphError",
           "UnimplementedError", "NotFoundError", "DataLossError", "StagingError"]


class OpError(Exception):
    """An error raised while running an op. `op_name` names the graph node."""

    def __init__(self, message, op_name=None):
        super().__init__(message)
        self.message = message
        self.op_name = op_name


class InvalidArgumentError(OpError):
    """A run-time check failed (a failing Assert, a bad index, ...)."""


class UnimplementedError(OpError):
    """The op exists but not for these arguments."""


class NotFoundError(OpError):
    """A file or entry was not found (a checkpoint path that does not exist)."""


class DataLossError(OpError):
    """Stored data is corrupt or truncated (a damaged checkpoint file)."""


class OperatorNotAllowedInGraphError(TypeError):
    """A symbolic tensor was used as a Python bool or iterated while tracing."""


class StagingError(Exception):
    """Tracing a function failed in a way that is not the user's exception
    (TensorFlow's AutoGraph `StagingError`: unbounded recursion of a
    tf.function). The original exception is its `__cause__`."""
