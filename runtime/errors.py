"""`tf.errors`: the exception classes ops and functions raise and TensorFlow's
error codes (defined in runtime/_src/core/errors.py).

    try:
        ...
    except tf.errors.OutOfRangeError:
        ...
"""

from runtime._src.core.errors import (CODES, AbortedError, AlreadyExistsError,
                                      CancelledError, DataLossError, DeadlineExceededError,
                                      FailedPreconditionError, InternalError,
                                      InvalidArgumentError, NotFoundError, OpError,
                                      OperatorNotAllowedInGraphError, OutOfRangeError,
                                      PermissionDeniedError, ResourceExhaustedError,
                                      UnauthenticatedError, UnavailableError, UnimplementedError,
                                      UnknownError, StagingError)

globals().update(CODES)       # errors.OK, errors.INVALID_ARGUMENT, ... errors.UNAUTHENTICATED

__all__ = ["OpError", "InvalidArgumentError", "OperatorNotAllowedInGraphError",
           "UnimplementedError", "CancelledError", "UnknownError", "DeadlineExceededError",
           "NotFoundError", "AlreadyExistsError", "PermissionDeniedError",
           "ResourceExhaustedError", "FailedPreconditionError", "AbortedError",
           "OutOfRangeError", "InternalError", "UnavailableError", "DataLossError",
           "UnauthenticatedError", "StagingError"] + sorted(CODES)
