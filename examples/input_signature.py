"""input_signature: one graph for every call that fits the given TensorSpecs.

A `None` dimension accepts any length. A tensor of another dtype or an
incompatible shape is refused with an error naming the argument, what was
expected and what was given (the error is both a TypeError and a ValueError).

    python examples/input_signature.py
"""

import runtime as tf


@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
def specific_function(x):
    print(f"Tracing specific function with input shape: {x.shape}")
    return x * 2.0


def main():
    print(specific_function(tf.constant([1.0, 2.0, 3.0])))  # traces for shape (None,)
    print(specific_function(tf.constant([4.0, 5.0])))       # same graph
    try:
        specific_function(tf.constant([1, 2]))               # int32, not float32
    except TypeError as e:
        print(f"\nError: {e}")
    try:
        specific_function(tf.constant(1.0))                  # a scalar, not a vector
    except ValueError as e:
        print(f"\nError: {e}")
    print("\nGraphs traced:", specific_function.experimental_get_tracing_count())


if __name__ == "__main__":
    main()
