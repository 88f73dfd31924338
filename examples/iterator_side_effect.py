"""An iterator advances only while tracing.

`next(iterator)` is Python: it runs when the function traces, and its value
(0) becomes a constant of the graph. Later calls reuse the graph, so the
variable grows by 0 each time. Without `function` it grows by 0, 1, 2.

    python examples/iterator_side_effect.py
"""

import runtime as tf


def side_effect_python(var, iterator):
    var.assign_add(next(iterator))
    tf.print("Value of variable:", var)


def main():
    var = tf.Variable(0)
    side_effect = tf.function(lambda iterator: side_effect_python(var, iterator))
    iterator = iter([0, 1, 2, 3])
    for _ in range(3):
        side_effect(iterator)   # prints 0 three times

    var = tf.Variable(0)
    iterator = iter([0, 1, 2, 3])
    for _ in range(3):
        side_effect_python(var, iterator)   # prints 0, 1, 3


if __name__ == "__main__":
    main()
