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

from runtime._src.keras.models import Model, Sequential
from runtime.keras import activations, initializers, layers, losses, metrics, models, optimizers

__all__ = ["Model", "Sequential", "activations", "initializers", "layers", "losses",
           "metrics", "models", "optimizers"]
