"""`tf.keras`: a Keras-style subset (layers, `Model`, `Sequential`, losses,
metrics, optimizers, `compile` / `fit` / `evaluate` / `predict`), defined in
runtime/_src/keras/.

    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"),
                                 tf.keras.layers.Dense(2)])
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    model.fit(x, y, epochs=5)
"""

from runtime._src.keras.input_layer import Input
from runtime._src.keras.keras_tensor import KerasTensor
from runtime._src.keras.models import Model, Sequential
from runtime.keras import (activations, backend, callbacks, constraints, initializers, layers,
                           losses, metrics, models, ops, optimizers, regularizers, saving,
                           utils)

__all__ = ["Input", "KerasTensor", "Model", "Sequential", "activations", "backend",
           "callbacks", "constraints", "initializers", "layers", "losses", "metrics", "models", "ops", "optimizers",
           "regularizers", "saving", "utils"]
