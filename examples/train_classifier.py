"""Train a small MLP classifier end to end with `tf.keras`: two interleaved
spirals (generated here, no download; no straight line separates them),
`compile` + `fit` (binary cross-entropy, Adam) with a progress line per
epoch, the final test accuracy, then save the model, load it back and check
it predicts the same.

    python3 examples/train_classifier.py               # 20 epochs
    python3 examples/train_classifier.py --epochs 5    # a short run

Each training step (forward pass, loss, gradients, Adam update, metrics) is
one graph, traced once for the whole run.
"""
import argparse
import tempfile

import numpy as np

import runtime as tf


def two_spirals(n, noise=0.3, seed=0):
    """n points on two spirals (labels 0.0 and 1.0), 1.5 turns each, with noise."""
    rng = np.random.default_rng(seed)
    label = np.arange(n) % 2
    t = np.sqrt(rng.uniform(0.05, 1.0, n)) * 3 * np.pi        # angle along the spiral
    x = np.stack([t * np.cos(t), t * np.sin(t)], axis=1)
    x[label == 1] *= -1                                          # the second arm, rotated
    x += rng.normal(0.0, noise, x.shape)
    return (x / 5.0).astype(np.float32), label.astype(np.float32)


def build_model():
    return tf.keras.Sequential([
        tf.keras.layers.Dense(32, activation="relu"),
        tf.keras.layers.Dense(32, activation="relu"),
        tf.keras.layers.Dense(1),          # a logit: the spiral is 1 when it is > 0
    ])


def main(epochs=20):
    tf.random.set_seed(0)
    x, y = two_spirals(1200)
    x_train, y_train, x_test, y_test = x[:1000], y[:1000], x[1000:], y[1000:]

    model = build_model()
    model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=0.01),
                  loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    history = model.fit(x_train, y_train, batch_size=50, epochs=epochs,
                        validation_data=(x_test, y_test), verbose=2)

    loss, accuracy = model.evaluate(x_test, y_test, verbose=0)
    print(f"loss: first epoch {history.history['loss'][0]:.4f}, "
          f"last epoch {history.history['loss'][-1]:.4f}")
    print(f"final test accuracy: {accuracy:.3f}")

    predictions = model.predict(x_test, verbose=0)
    with tempfile.TemporaryDirectory() as export_dir:
        tf.saved_model.save(model, export_dir)
        loaded = tf.saved_model.load(export_dir)
        reloaded = loaded.signatures["serving_default"](tf.constant(x_test))["output_0"]
    same = np.allclose(np.asarray(reloaded), predictions, rtol=1e-6, atol=1e-6)
    print(f"saved and reloaded: predictions match: {same}")
    return accuracy


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20, help="passes over the training set")
    main(parser.parse_args().epochs)
