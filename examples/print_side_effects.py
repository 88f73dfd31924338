"""Python `print` runs while tracing; `tf.print` runs every time the graph runs.

`run_functions_eagerly(True)` turns graphs off: the Python function runs on
every call, so its `print` shows each time (handy for debugging).

    python examples/print_side_effects.py
"""

import runtime as tf


@tf.function
def f(x):
    print("Traced with", x)
    tf.print("Executed with", x)


@tf.function
def get_MSE(y_true, y_pred):
    print("Calculating MSE!")
    sq_diff = tf.pow(y_true - y_pred, 2)
    return tf.reduce_mean(sq_diff)


def main():
    f(1)
    f(1)

    y_true = tf.constant([2, 0, 7, 2, 3])
    y_pred = tf.constant([9, 9, 1, 1, 5])
    for _ in range(3):
        error = get_MSE(y_true, y_pred)       # prints once
    print(error)

    tf.config.run_functions_eagerly(True)
    try:
        for _ in range(3):
            error = get_MSE(y_true, y_pred)   # prints every time
    finally:
        tf.config.run_functions_eagerly(False)
    print(error)


if __name__ == "__main__":
    main()
