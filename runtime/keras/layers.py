"""`tf.keras.layers`: `Layer`, `InputSpec` and the layers (runtime/_src/keras/)."""

from runtime._src.keras.base_layer import InputSpec, Layer
from runtime._src.keras.core_layers import Dense, Dropout, Embedding, Flatten, ReLU, Softmax

__all__ = ["Layer", "InputSpec", "Dense", "Dropout", "Embedding", "Flatten", "ReLU",
           "Softmax"]
