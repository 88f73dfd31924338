"""`tf.autograph`: the transpiler's own functions, re-exported.

    import runtime as tf
    print(tf.autograph.to_code(f))
"""

from autograph import to_code, to_graph, convert, report
from autograph import experimental
from autograph import SideEffectWarning, set_strict_side_effects
from runtime._src.core.tf_logging import get_verbosity, set_verbosity, trace

__all__ = ["to_code", "to_graph", "convert", "report", "experimental", "SideEffectWarning",
           "set_strict_side_effects", "set_verbosity", "get_verbosity", "trace"]
