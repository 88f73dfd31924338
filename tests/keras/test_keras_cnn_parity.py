"""The end-to-end check for a CNN: Conv2D -> MaxPooling2D -> Flatten ->
Dense trained 3 epochs with fixed initial weights, unshuffled data and SGD
matches Keras 3's logged losses, accuracies and final weights (recorded from
TensorFlow 2.21 with Keras 3, the same script) within 1e-4."""

import numpy as np

import runtime as tf

keras = tf.keras
L = keras.layers

# Keras 3 (TF 2.21): the final weights, flattened, in model.weights order
KERAS_WEIGHTS = [
    [-0.049634, 0.484235, -0.095952, -0.426157, 0.250766, 0.433599, -0.420712, -0.325242,
     0.349356, 0.286154, -0.504953, -0.068509, 0.459324, 0.010061, -0.538241, 0.207866,
     0.334374, -0.317280],
    [0.335683, 0.274047],
    [0.311484, -0.169067, -0.339069, 0.228693, 0.364942, -0.376540, -0.345624, 0.557983,
     0.148407, -0.654273, 0.161348, 0.548552, -0.342150, -0.334530, 0.357966, 0.218269,
     -0.318017, -0.196812, 0.325396, 0.206518, -0.437387, -0.137133, 0.559640, -0.054487],
    [-0.152549, -0.365151, 0.146574],
]


def test_cnn_three_epochs_match_keras():
    rng = np.random.RandomState(5)
    x = rng.rand(24, 6, 6, 1).astype("float32")
    y = (x[:, :3].mean((1, 2, 3)) > x[:, 3:].mean((1, 2, 3))).astype("int32") + (
        x[:, :, :3].mean((1, 2, 3)) > 0.5)
    model = keras.Sequential([keras.Input((6, 6, 1)), L.Conv2D(2, 3, activation="relu"),
                              L.MaxPooling2D(), L.Flatten(), L.Dense(3)])
    model.set_weights([np.sin(np.arange(v.numpy().size) * 1.7 + i).reshape(v.shape)
                       .astype("float32") * 0.5 for i, v in enumerate(model.weights)])
    model.compile(optimizer=keras.optimizers.SGD(0.1),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0)
    # Keras 3 (TF 2.21)
    np.testing.assert_allclose(history.history["loss"], [1.313429, 1.0782651, 0.9947578],
                               atol=1e-4)
    np.testing.assert_allclose(history.history["accuracy"], [0.125, 0.5, 0.5833333],
                               atol=1e-6)
    for got, want in zip(model.get_weights(), KERAS_WEIGHTS):
        np.testing.assert_allclose(got.ravel(), want, atol=1e-4)
