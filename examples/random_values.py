"""np.random vs tf.random: Python values are baked in when tracing.

`np.random.randn` runs once, while tracing, so its value becomes a constant of
the graph: every call of `traced` returns the same matrix. `tf.random.normal`
is a stateful op of the graph: each run draws new values.

    python examples/random_values.py
"""

import numpy as np

import runtime as tf


def add_noise():
    return tf.eye(5) + np.random.randn(5, 5)


def add_graph_noise():
    return tf.eye(5) + tf.random.normal((5, 5))


def main():
    traced = tf.function(add_noise)
    print("eager calls differ:      ", not np.array_equal(add_noise().numpy(), add_noise().numpy()))
    print("traced calls are equal:  ", np.array_equal(traced().numpy(), traced().numpy()))
    traced_graph_noise = tf.function(add_graph_noise)
    print("tf.random calls differ:  ",
          not np.array_equal(traced_graph_noise().numpy(), traced_graph_noise().numpy()))


if __name__ == "__main__":
    main()
