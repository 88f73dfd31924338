"""The Keras-style layer: layers, models, losses, metrics, optimizers and the
training loop, on top of the function layer (Variables, Module, tf.function,
GradientTape). Public names are in `runtime/keras/`."""
