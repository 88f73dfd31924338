"""The model, data and training step of test_checkpoint.py's round trip, imported
by the test and by the fresh process it starts."""

import numpy as np

import runtime as tf

keras = tf.keras


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(np.zeros((2, 3), np.float32))
        self.parts = [tf.Variable(0), {"b": tf.Variable([0.0, 0.0], dtype=tf.float64)}]


def make_model():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                              keras.layers.Dense(1)])
    return model, keras.optimizers.Adam(0.05)


X = np.random.RandomState(0).randn(8, 3).astype("float32")
Y = np.random.RandomState(1).randn(8, 1).astype("float32")


@tf.function
def train_step(model, optimizer):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(X) - Y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
