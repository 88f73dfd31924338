"""`tf.errors`: the exception classes ops and functions raise (defined in
runtime/_src/core/errors.py)."""

from runtime._src.core.errors import (InvalidArgumentError, OpError,  # noqa: F401
                                      OperatorNotAllowedInGraphError, OutOfRangeError,
                                      UnimplementedError)

__all__ = ["OpError", "InvalidArgumentError", "OperatorNotAllowedInGraphError",
           "UnimplementedError", "OutOfRangeError"]
