"""Data-dependent control flow written with `tf.cond` and `tf.while_loop`.

Without autograph, a Python `if` on a tensor cannot be traced; `tf.cond`
stages both branches and picks one when the graph runs, and `tf.while_loop`
stages the loop body once.

    python examples/explicit_control_flow.py
"""

import runtime as tf


@tf.function(autograph=False)
def conditional_function(x):
    return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.abs(x), lambda: tf.square(x))


@tf.function(autograph=False)
def simple_relu(x):
    return tf.cond(tf.greater(x, 0), lambda: x, lambda: tf.constant(0))


@tf.function(autograph=False)
def collatz_steps(n):
    def body(n, steps):
        n = tf.cond(n % 2 == 0, lambda: n // 2, lambda: 3 * n + 1)
        return n, steps + 1
    _, steps = tf.while_loop(lambda n, steps: n > 1, body, (n, tf.constant(0)))
    return steps


def main():
    print(conditional_function(tf.constant([1, 2, -1])))
    print(conditional_function(tf.constant([-1, -2, 1])))
    print("First branch, with graph:", simple_relu(tf.constant(1)).numpy())
    print("Second branch, with graph:", simple_relu(tf.constant(-1)).numpy())
    print("Collatz steps for 27:", collatz_steps(tf.constant(27)).numpy())


if __name__ == "__main__":
    main()
