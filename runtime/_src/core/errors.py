"""Exception classes with TensorFlow's names (`errors.InvalidArgumentError`...)
and TensorFlow's error codes (`errors.OUT_OF_RANGE`...).

Ours are raised as `InvalidArgumentError(message, op_name)`; TensorFlow's
constructor form `OutOfRangeError(node_def, op, message)` works too, so code
that raises TF's errors itself runs unchanged. `str(e)` is the message;
`e.error_code` the code of the class.
"""

__all__ = ["OpError", "InvalidArgumentError", "OperatorNotAllowedInGraphError",
           "UnimplementedError", "CancelledError", "UnknownError", "DeadlineExceededError",
           "NotFoundError", "AlreadyExistsError", "PermissionDeniedError",
           "ResourceExhaustedError", "FailedPreconditionError", "AbortedError",
           "OutOfRangeError", "InternalError", "UnavailableError", "DataLossError",
           "UnauthenticatedError", "StagingError", "CODES"]

# TensorFlow's error codes (tensorflow/core/protobuf/error_codes.proto).
CODES = {"OK": 0, "CANCELLED": 1, "UNKNOWN": 2, "INVALID_ARGUMENT": 3,
         "DEADLINE_EXCEEDED": 4, "NOT_FOUND": 5, "ALREADY_EXISTS": 6, "PERMISSION_DENIED": 7,
         "RESOURCE_EXHAUSTED": 8, "FAILED_PRECONDITION": 9, "ABORTED": 10, "OUT_OF_RANGE": 11,
         "UNIMPLEMENTED": 12, "INTERNAL": 13, "UNAVAILABLE": 14, "DATA_LOSS": 15,
         "UNAUTHENTICATED": 16}


class OpError(Exception):
    """An error raised while running an op. `op_name` names the graph node.

    `OpError(message, op_name=None)`, or TF's `OpError(node_def, op, message,
    error_code)`.
    """

    error_code = CODES["UNKNOWN"]

    def __init__(self, *args, op_name=None):
        node_def = None
        if len(args) >= 3:                      # TensorFlow's (node_def, op, message, ...)
            node_def, op_name, message = args[:3]
            if len(args) > 3 and type(self) is OpError:
                self.error_code = args[3]
        else:
            message = args[0] if args else ""
            if len(args) > 1:
                op_name = args[1]
        super().__init__(message)
        self.message = message
        self.op_name = op_name
        self.node_def = node_def

    @property
    def op(self):
        return self.op_name

    def __str__(self):
        return str(self.message)


def _error_class(name, code, doc):
    return type(name, (OpError,), {"__doc__": doc, "error_code": CODES[code],
                                   "__module__": __name__})


class InvalidArgumentError(OpError):
    """A run-time check failed (a failing Assert, a bad index, ...)."""
    error_code = CODES["INVALID_ARGUMENT"]


class UnimplementedError(OpError):
    """The op exists but not for these arguments."""
    error_code = CODES["UNIMPLEMENTED"]


CancelledError = _error_class("CancelledError", "CANCELLED", "An operation was cancelled.")
UnknownError = _error_class("UnknownError", "UNKNOWN", "An error of no other class.")
DeadlineExceededError = _error_class("DeadlineExceededError", "DEADLINE_EXCEEDED",
                                     "A deadline expired before the operation finished.")
NotFoundError = _error_class("NotFoundError", "NOT_FOUND",
                             "A requested entity (a file, ...) was not found.")
AlreadyExistsError = _error_class("AlreadyExistsError", "ALREADY_EXISTS",
                                  "The entity to create already exists.")
PermissionDeniedError = _error_class("PermissionDeniedError", "PERMISSION_DENIED",
                                     "The caller may not run the operation.")
ResourceExhaustedError = _error_class("ResourceExhaustedError", "RESOURCE_EXHAUSTED",
                                      "A resource (memory, ...) ran out.")
FailedPreconditionError = _error_class("FailedPreconditionError", "FAILED_PRECONDITION",
                                       "The system is not in a state to run the operation "
                                       "(an uninitialized variable, ...).")
AbortedError = _error_class("AbortedError", "ABORTED", "The operation was aborted.")
OutOfRangeError = _error_class("OutOfRangeError", "OUT_OF_RANGE",
                               "An iterator or queue is exhausted, or an index past the end.")
InternalError = _error_class("InternalError", "INTERNAL", "An internal invariant broke.")
UnavailableError = _error_class("UnavailableError", "UNAVAILABLE",
                                "The runtime is unavailable right now.")
DataLossError = _error_class("DataLossError", "DATA_LOSS",
                             "Unrecoverable data loss or corruption (a bad file, ...).")
UnauthenticatedError = _error_class("UnauthenticatedError", "UNAUTHENTICATED",
                                    "The request lacks valid credentials.")


class OperatorNotAllowedInGraphError(TypeError):
    """A symbolic tensor was used as a Python bool or iterated while tracing."""


class StagingError(Exception):
    """Tracing a function failed in a way that is not the user's exception
    (TensorFlow's AutoGraph `StagingError`: unbounded recursion of a
    tf.function). The original exception is its `__cause__`."""
