"""Directives: calls the converter reads and removes, which do nothing when
they run as Python.

    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(maximum_iterations=3)
        ...
    # converted: the call is gone, and the loop operator gets
    #     opts={'maximum_iterations': 3}
"""

__all__ = ["set_loop_options", "set_element_type", "LOOP_OPTIONS"]

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


def set_element_type(entity, dtype, shape=_UNSPECIFIED):
    """Declare the dtype (and shape) of the elements of the list `entity`
    (TensorFlow's `autograph.set_element_type`). Does nothing, as in
    TensorFlow 2: a list a tensor loop appends to takes its element type
    from the first element appended."""
    del entity, dtype, shape
