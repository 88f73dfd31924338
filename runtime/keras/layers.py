"""`tf.keras.layers`: `Layer`, `InputSpec` and the layers (runtime/_src/keras/)."""

from runtime._src.keras.base_layer import InputSpec, Layer
from runtime._src.keras.conv_layers import Conv2D, MaxPooling2D
from runtime._src.keras.core_layers import Dense, Dropout, Embedding, Flatten, ReLU, Softmax

__all__ = ["Layer", "InputSpec", "Conv2D", "Dense", "Dropout", "Embedding", "Flatten",
           "MaxPooling2D", "ReLU", "Softmax"]
