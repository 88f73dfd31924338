"""Seed 003's custom training loop, with `import runtime as tf`.

Seed 003 (TensorFlow's "Introduction to graphs and tf.function") advises:
create Variables, and the Keras objects that own them (`tf.keras.layers`,
`tf.keras.Model`, `tf.keras.optimizers`), outside the function; decorate the
whole training step; and it sends the reader to the "Speeding-up your
training step with tf.function" section of "Writing a training loop from
scratch". This script is that loop: a functional 784-64-64-10 model,
`SparseCategoricalCrossentropy(from_logits=True)`, SGD, accuracy metrics,
and a `@tf.function` train step and test step. Each is traced once per batch
shape: the full batches share one graph, and a smaller last batch (50,000 is
not a multiple of 64) makes a second, as in TensorFlow.

The guide reads MNIST through `tf.data`; this runtime has neither the
download nor `tf.data`, so the data are MNIST-shaped arrays made with numpy
(784 features, 10 classes: a noisy prototype per class) and the batches are
numpy slices of the same size (50,000 training and 10,000 validation samples
in the guide; `--samples` sets the training count, the validation set is a
fifth of it).

    python3 examples/seed003_custom_training.py --epochs 2 --samples 50000
"""
import argparse
import time

import numpy as np

import runtime as tf
from runtime import keras


def make_digits(n, seed):
    """n samples of 784 features in [0, 1], labels 0..9, MNIST's shapes and dtypes."""
    rng = np.random.default_rng(seed)
    prototypes = np.random.default_rng(0).uniform(0, 1, (10, 784)) > 0.8
    y = rng.integers(0, 10, n)
    noise = rng.uniform(0, 1, (n, 784)) > 0.85
    x = np.logical_xor(prototypes[y], noise).astype("float32")
    return x, y.astype("int64")


def batches(x, y, batch_size, shuffle=False, seed=0):
    order = np.random.default_rng(seed).permutation(len(x)) if shuffle else np.arange(len(x))
    for start in range(0, len(x), batch_size):
        index = order[start:start + batch_size]
        yield x[index], y[index]


def main(epochs=2, samples=50000, batch_size=64, log_every=200):
    x_train, y_train = make_digits(samples, seed=1)
    x_val, y_val = make_digits(samples // 5, seed=2)
    tf.random.set_seed(0)

    inputs = keras.Input(shape=(784,), name="digits")
    x1 = keras.layers.Dense(64, activation="relu")(inputs)
    x2 = keras.layers.Dense(64, activation="relu")(x1)
    outputs = keras.layers.Dense(10, name="predictions")(x2)
    model = keras.Model(inputs=inputs, outputs=outputs)

    # Instantiate an optimizer to train the model.
    optimizer = keras.optimizers.SGD(learning_rate=1e-3)
    # Instantiate a loss function.
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    # Prepare the metrics.
    train_acc_metric = keras.metrics.SparseCategoricalAccuracy()
    val_acc_metric = keras.metrics.SparseCategoricalAccuracy()

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            loss_value = loss_fn(y, logits)
        grads = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        train_acc_metric.update_state(y, logits)
        return loss_value

    @tf.function
    def test_step(x, y):
        val_logits = model(x, training=False)
        val_acc_metric.update_state(y, val_logits)

    for epoch in range(epochs):
        print(f"\nStart of epoch {epoch}")
        start_time = time.time()

        # Iterate over the batches of the dataset.
        for step, (x_batch_train, y_batch_train) in enumerate(
                batches(x_train, y_train, batch_size, shuffle=True, seed=epoch)):
            loss_value = train_step(x_batch_train, y_batch_train)

            # Log every `log_every` batches.
            if step % log_every == 0:
                print(f"Training loss (for 1 batch) at step {step}: {float(loss_value):.4f}")
                print(f"Seen so far: {(step + 1) * batch_size} samples")

        # Display metrics at the end of each epoch.
        train_acc = train_acc_metric.result()
        print(f"Training acc over epoch: {float(train_acc):.4f}")

        # Reset training metrics at the end of each epoch
        train_acc_metric.reset_state()

        # Run a validation loop at the end of each epoch.
        for x_batch_val, y_batch_val in batches(x_val, y_val, batch_size):
            test_step(x_batch_val, y_batch_val)

        val_acc = val_acc_metric.result()
        val_acc_metric.reset_state()
        print(f"Validation acc: {float(val_acc):.4f}")
        print(f"Time taken: {time.time() - start_time:.2f}s")

    print(f"\ntrain_step traced {train_step.experimental_get_tracing_count()} time(s), "
          f"test_step {test_step.experimental_get_tracing_count()} time(s); "
          f"optimizer steps: {int(optimizer.iterations)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=50000)
    args = parser.parse_args()
    main(epochs=args.epochs, samples=args.samples)
