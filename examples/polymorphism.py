"""Polymorphism: one `function`, one graph per input type.

`my_relu` traces a graph for a float scalar, one for the Python list
`[1, -1]` (Python values key traces by value) and one for a float vector;
calls that match an existing graph reuse it. `get_concrete_function` returns
the graph for one signature, which refuses other dtypes.

    python examples/polymorphism.py
"""

import runtime as tf


@tf.function
def my_relu(x):
    return tf.maximum(0., x)


@tf.function
def poly_func(a):
    print("Tracing with", a)
    return a


def main():
    print(my_relu(tf.constant(5.5)))
    print(my_relu([1, -1]))
    print(my_relu(tf.constant([3., -3.])))
    print(my_relu(tf.constant(-2.5)))          # no new graph
    print(my_relu(tf.constant([-1., 1.])))     # no new graph
    print(my_relu.pretty_printed_concrete_signatures())

    print()
    print(poly_func(tf.constant(1)))
    print(poly_func(tf.constant(1.1)))
    print(poly_func(tf.constant("a")))
    print(poly_func(tf.constant(3.6)))         # no tracing: float32 graph exists

    print("Obtaining concrete trace")
    polyfunc_int = poly_func.get_concrete_function(tf.constant(3))
    print("Executing traced function")
    print(polyfunc_int(tf.constant(5)))
    print(polyfunc_int(a=tf.constant(6)))
    try:
        polyfunc_int(tf.constant(7.4))
    except TypeError as e:
        print(f"{type(e).__name__}: {e}")


if __name__ == "__main__":
    main()
