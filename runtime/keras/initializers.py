"""`tf.keras.initializers`: weight initializers and `get`."""

from runtime._src.keras.initializers import (Constant, GlorotUniform, HeUniform, Initializer,
                                             Ones, RandomNormal, RandomUniform, Zeros, get)

__all__ = ["Initializer", "Constant", "GlorotUniform", "HeUniform", "Ones", "RandomNormal",
           "RandomUniform", "Zeros", "get"]
