"""`tf.debugging`: run-time checks (see `runtime._src.ops.check_ops`) and the
traceback filter switch (see `autograph.integration`).

    debugging.assert_equal(x, 3, message="x must be 3")
    debugging.Assert(x > 0, ["x is", x])
    debugging.assert_shapes([(x, ("N", "Q")), (y, ("N",))])
    debugging.check_numerics(x, "x")          # x, or an error naming NaN / Inf
    debugging.disable_traceback_filtering()   # show library frames again
"""

import os

from autograph.integration import (disable_traceback_filtering,
                                   enable_traceback_filtering,
                                   is_traceback_filtering_enabled, register_internal_path,
                                   register_internal_prefix)

from runtime._src.ops.check_ops import (Assert, assert_equal, assert_greater,
                                        assert_greater_equal, assert_less, assert_less_equal,
                                        assert_negative, assert_non_negative,
                                        assert_all_finite, assert_integer, assert_near,
                                        assert_non_positive, assert_none_equal,
                                        assert_positive, assert_rank, assert_rank_at_least,
                                        assert_rank_in, assert_scalar, assert_type,
                                        assert_proper_iterable, assert_same_float_dtype,
                                        check_numerics, is_numeric_tensor)
from runtime._src.ops.check_shapes import assert_shapes
from runtime._src.ops.numerics_check import disable_check_numerics, enable_check_numerics
from runtime._src.core.devices import log_device_placement as get_log_device_placement
from runtime._src.core.devices import set_log_device_placement

from runtime._src.check.equivalence import EquivalenceError, check_equivalence

register_internal_path(os.path.dirname(os.path.abspath(__file__)))
register_internal_prefix("<graph ")        # graphs lowered to Python (runtime._src.exec.codegen)

__all__ = ["check_equivalence", "EquivalenceError", "disable_traceback_filtering", "enable_traceback_filtering",
           "is_traceback_filtering_enabled", "Assert", "assert_equal", "assert_none_equal", "assert_greater",
           "assert_greater_equal", "assert_less", "assert_less_equal", "assert_positive",
           "assert_negative", "assert_non_negative", "assert_non_positive", "assert_rank",
           "assert_near", "assert_shapes", "check_numerics", "assert_all_finite",
           "assert_rank_at_least", "assert_rank_in", "assert_scalar", "assert_type",
           "assert_integer", "is_numeric_tensor", "set_log_device_placement",
           "get_log_device_placement", "assert_proper_iterable", "assert_same_float_dtype",
           "enable_check_numerics", "disable_check_numerics"]
