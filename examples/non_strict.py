"""Non-strict execution: a graph runs only what its outputs and side effects need.

Eagerly, `tf.gather(x, [1])` on a one-element tensor fails. In a traced
function its result is unused, so the graph never runs it and no error is
raised.

    python examples/non_strict.py
"""

import runtime as tf


def unused_return_eager(x):
    tf.gather(x, [1])  # unused; index 1 is out of range when len(x) == 1
    return x


@tf.function
def unused_return_graph(x):
    tf.gather(x, [1])  # unused: skipped when the graph runs
    return x


def main():
    try:
        print(unused_return_eager(tf.constant([0.0])))
    except tf.errors.InvalidArgumentError as e:
        print(f"{type(e).__name__}: {e}")
    print(unused_return_graph(tf.constant([0.0])))


if __name__ == "__main__":
    main()
