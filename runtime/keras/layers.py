"""`tf.keras.layers`: `Layer`, `InputSpec` and the layers (runtime/_src/keras/)."""

from runtime._src.keras.base_layer import InputSpec, Layer
from runtime._src.keras.conv_layers import Conv2D, MaxPooling2D
from runtime._src.keras.core_layers import (Activation, Dense, Dropout, Embedding, Flatten,
                                            Lambda, ReLU, Reshape, Softmax)
from runtime._src.keras.input_layer import Input, InputLayer
from runtime._src.keras.merging import (Add, Average, Concatenate, Maximum, Minimum, Multiply,
                                        Subtract)
from runtime._src.keras.normalization import BatchNormalization, LayerNormalization
from runtime._src.keras.serialization import deserialize_layer as deserialize
from runtime._src.keras.serialization import serialize_layer as serialize

__all__ = ["Layer", "InputSpec", "Activation", "Add", "Average", "BatchNormalization",
           "Concatenate", "Conv2D", "Dense", "Dropout", "Embedding", "Flatten", "Input",
           "InputLayer", "Lambda", "LayerNormalization", "MaxPooling2D", "Maximum", "Minimum",
           "Multiply", "ReLU", "Reshape", "Softmax", "Subtract", "serialize", "deserialize"]
