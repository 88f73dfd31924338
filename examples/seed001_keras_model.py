"""Seed 001's Keras example, verbatim but for `import runtime as tf`: a
`tf.keras.Model` subclass whose `call` is a `tf.function` with a Python
`training` flag. Each value of the flag gets its own graph: with dropout
when training, without it otherwise.

    python3 examples/seed001_keras_model.py
"""
import numpy as np

import runtime as tf

tf.random.set_seed(1)
x = tf.random.uniform((10, 10))


class MyModel(tf.keras.Model):
    def __init__(self, keep_probability=0.2):
        super(MyModel, self).__init__()
        self.dense1 = tf.keras.layers.Dense(4)
        self.dense2 = tf.keras.layers.Dense(5)
        self.keep_probability = keep_probability

    @tf.function
    def call(self, inputs, training=True):
        y = self.dense2(self.dense1(inputs))
        if training:
            return tf.nn.dropout(y, self.keep_probability)
        return y


model = MyModel()
with_dropout = model(x, training=True)  # executes a graph, with dropout
without = model(x, training=False)      # executes a graph, without dropout


def main():
    kept = np.asarray(with_dropout) != 0
    plain = np.asarray(without)
    print("weights:", [v.path for v in model.trainable_variables])
    print("graphs traced for call:", model.call.experimental_get_tracing_count())
    print(f"training=True : {kept.size - kept.sum()} of {kept.size} outputs dropped, "
          "the rest scaled by 1 / (1 - 0.2):",
          bool(np.allclose(np.asarray(with_dropout)[kept], plain[kept] / 0.8, rtol=1e-5)))
    print("training=False: no dropout, same result every call:",
          bool(np.array_equal(plain, np.asarray(model(x, training=False)))))


if __name__ == "__main__":
    main()
