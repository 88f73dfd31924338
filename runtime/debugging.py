"""`tf.debugging`: run-time checks (see `runtime.ops.check_ops`).

    debugging.assert_equal(x, 3, message="x must be 3")
    debugging.Assert(x > 0, ["x is", x])
"""

from .ops.check_ops import (Assert, assert_equal, assert_greater,  # noqa: F401
                            assert_greater_equal, assert_less, assert_less_equal,
                            assert_negative, assert_non_negative, assert_non_positive,
                            assert_none_equal, assert_positive, assert_rank)

__all__ = ["Assert", "assert_equal", "assert_none_equal", "assert_greater",
           "assert_greater_equal", "assert_less", "assert_less_equal", "assert_positive",
           "assert_negative", "assert_non_negative", "assert_non_positive", "assert_rank"]
