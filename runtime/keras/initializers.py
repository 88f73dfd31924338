"""`tf.keras.initializers`: weight initializers and `get`."""

from runtime._src.keras.initializers import (Constant, GlorotNormal, GlorotUniform, HeNormal,
                                             HeUniform, Initializer, LecunNormal, LecunUniform,
                                             Ones, Orthogonal, RandomNormal, RandomUniform,
                                             TruncatedNormal, VarianceScaling, Zeros, get)

__all__ = ["Initializer", "Constant", "GlorotUniform", "HeUniform", "Ones", "RandomNormal",
           "RandomUniform", "Zeros", "get", "GlorotNormal", "HeNormal", "LecunNormal",
           "LecunUniform", "Orthogonal", "TruncatedNormal", "VarianceScaling"]
