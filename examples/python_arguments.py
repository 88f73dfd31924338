"""Python arguments retrace; tensor arguments of the same type do not.

Each new Python value is a new signature (it may steer how the graph is
built, like a layer count), so `f(2)` and `f(3)` trace two graphs while
`f(tf.constant(2))` and `f(tf.constant(3))` share one. The graph of `power`
unrolls the Python loop: 100 matmuls, run without Python in between.

    python examples/python_arguments.py
"""

import timeit

import runtime as tf


@tf.function
def a_function_with_python_side_effect(x):
    print("Tracing!")
    return x * x + tf.constant(2)


def power(x, y):
    result = tf.eye(10, dtype=tf.dtypes.int32)
    for _ in range(y):
        result = tf.matmul(x, result)
    return result


def main():
    print(a_function_with_python_side_effect(tf.constant(2)))
    print(a_function_with_python_side_effect(tf.constant(3)))
    print(a_function_with_python_side_effect(2))
    print(a_function_with_python_side_effect(3))
    print(a_function_with_python_side_effect.experimental_explain_retracing())

    x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)
    power_as_graph = tf.function(power)
    same = (power(x, 100).numpy() == power_as_graph(x, 100).numpy()).all()
    print("graph and eager agree:", same)
    print("Eager execution:", timeit.timeit(lambda: power(x, 100), number=20), "seconds")
    print("Graph execution:", timeit.timeit(lambda: power_as_graph(x, 100), number=20), "seconds")


if __name__ == "__main__":
    main()
