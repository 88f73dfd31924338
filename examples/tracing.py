"""Tracing: Python code in a `function` runs once per new input signature.

The plain function prints on every call; the decorated one prints only while
it traces: once for int32 tensors, once more for float32 tensors. Calls that
match a traced signature run the cached graph without running Python.

    python examples/tracing.py
"""

import runtime as tf


def simple_computation(x, y):
    print(f"Tracing with inputs: {x}, {y}")  # runs on every eager call
    a = tf.add(x, y)
    return tf.multiply(a, 2)


@tf.function
def optimized_computation(x, y):
    print(f"Tracing optimized function with inputs: {x}, {y}")  # only while tracing
    a = tf.add(x, y)
    return tf.multiply(a, 2)


def main():
    print("Eager Execution:")
    print(simple_computation(tf.constant(1), tf.constant(2)))
    print(simple_computation(tf.constant(3), tf.constant(4)))

    print("\nGraph Execution (tf.function):")
    print(optimized_computation(tf.constant(1), tf.constant(2)))      # traces (int32)
    print(optimized_computation(tf.constant(3), tf.constant(4)))      # reuses the graph
    print(optimized_computation(tf.constant(1.0), tf.constant(2.0)))  # retraces (float32)
    print(optimized_computation(tf.constant(3.0), tf.constant(4.0)))  # reuses it

    print("\nGraphs traced:", optimized_computation.experimental_get_tracing_count())
    print(optimized_computation.experimental_explain_retracing())


if __name__ == "__main__":
    main()
