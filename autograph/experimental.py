"""`autograph.experimental`: the names TensorFlow keeps under
`tf.autograph.experimental`.

    @autograph.experimental.do_not_convert
    def helper(x): ...          # always runs as written

    for i in tf.range(n):
        autograph.experimental.set_loop_options(maximum_iterations=3)
        ...                     # staged: at most 3 iterations

    autograph.to_graph(f, experimental_optional_features=Feature.ALL)
"""

from .impl.api import Feature, do_not_convert
from .operators.directives import set_loop_options

__all__ = ["do_not_convert", "set_loop_options", "Feature"]
