"""Directives: calls the converter reads and removes, which do nothing when
they run as Python.

    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(maximum_iterations=3)
        ...
    # converted: the call is gone, and the loop operator gets
    #     opts={'maximum_iterations': 3}
"""

__all__ = ["set_loop_options", "LOOP_OPTIONS"]

LOOP_OPTIONS = ("parallel_iterations", "swap_memory", "maximum_iterations", "shape_invariants")

_UNSPECIFIED = object()


def set_loop_options(parallel_iterations=_UNSPECIFIED, swap_memory=_UNSPECIFIED,
                     maximum_iterations=_UNSPECIFIED, shape_invariants=_UNSPECIFIED):
    """Options for the enclosing loop when it is staged as a while loop
    (`tf.autograph.experimental.set_loop_options`).

    Written as the first statement(s) of a loop body; the converter passes
    the arguments given to the loop operator as `opts`. `maximum_iterations`
    stops the loop after that many iterations; `shape_invariants` is a list
    of `(variable, shape)` pairs for loop variables; `parallel_iterations`
    and `swap_memory` are accepted (they mean nothing to a numpy executor).
    A loop that runs as Python ignores them, and so does a call that runs
    unconverted: this function does nothing.
    """
    del parallel_iterations, swap_memory, maximum_iterations, shape_invariants
