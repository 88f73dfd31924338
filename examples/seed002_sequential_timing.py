"""Seed 002's Keras timing example, verbatim but for `import runtime as tf`
and the number of calls (`--number`, 1000 by default, 200 when the tests call
`main()`; the seed times 10000): the same model called eagerly and as a
graph made by `tf.function(model)`.

    python3 examples/seed002_sequential_timing.py --number 10000

The graph runs the model's ops as one compiled function, with no per-layer
Python (input checks, training-flag handling, op dispatch); the dropout
layer is not in it, since the model is called without training=True.
"""
import argparse
import timeit

import runtime as tf


class SequentialModel(tf.keras.Model):
    def __init__(self, **kwargs):
        super(SequentialModel, self).__init__(**kwargs)
        self.flatten = tf.keras.layers.Flatten(input_shape=(28, 28))
        self.dense_1 = tf.keras.layers.Dense(128, activation="relu")
        self.dropout = tf.keras.layers.Dropout(0.2)
        self.dense_2 = tf.keras.layers.Dense(10)

    def call(self, x):
        x = self.flatten(x)
        x = self.dense_1(x)
        x = self.dropout(x)
        x = self.dense_2(x)
        return x


def main(number=200):
    input_data = tf.random.uniform([60, 28, 28])
    eager_model = SequentialModel()
    graph_model = tf.function(eager_model)
    graph_model(input_data)   # trace once before timing, as the seed's first call does
    eager = timeit.timeit(lambda: eager_model(input_data), number=number)
    graph = timeit.timeit(lambda: graph_model(input_data), number=number)
    print("Eager time:", eager, "seconds")
    print("Graph time:", graph, "seconds")
    print(f"per call: eager {eager / number * 1e3:.3f} ms, graph {graph / number * 1e3:.3f} ms "
          f"({number} calls each; the graph was traced "
          f"{graph_model.experimental_get_tracing_count()} time)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=1000, help="calls timed per mode")
    main(parser.parse_args().number)
