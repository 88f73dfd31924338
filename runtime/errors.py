"""`tf.errors`: the exception classes ops and functions raise (defined in
runtime/_src/core/errors.py)."""

from runtime._src.core.errors import (DataLossError, InvalidArgumentError,  # noqa: F401
                                      NotFoundError, OperatorNotAllowedInGraphError,
                                      OpError, UnimplementedError)

__all__ = ["OpError", "InvalidArgumentError", "OperatorNotAllowedInGraphError",
           "UnimplementedError", "NotFoundError", "DataLossError"]
