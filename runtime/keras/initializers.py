"""`tf.keras.initializers`: weight initializers and `get`."""

from runtime._src.keras.initializers.initializers import (Constant, GlorotNormal, GlorotUniform,
                                                          HeNormal, HeUniform, Initializer,
                                                          LecunNormal, LecunUniform, Ones,
                                                          Orthogonal, RandomNormal, RandomUniform,
                                                          TruncatedNormal, VarianceScaling, Zeros,
                                                          get, serialize)
from runtime._src.keras.initializers.initializers import Identity, deserialize
from runtime._src.keras.initializers.stft_initializer import STFT

# Keras 3's other names of the same classes
IdentityInitializer = identity = Identity
STFTInitializer = stft = STFT
OrthogonalInitializer = orthogonal = Orthogonal
constant, zeros, ones = Constant, Zeros, Ones
glorot_normal, glorot_uniform = GlorotNormal, GlorotUniform
he_normal, he_uniform = HeNormal, HeUniform
lecun_normal, lecun_uniform = LecunNormal, LecunUniform
random_normal, random_uniform = RandomNormal, RandomUniform
truncated_normal, variance_scaling = TruncatedNormal, VarianceScaling

__all__ = ["Initializer", "Constant", "GlorotUniform", "HeUniform", "Ones", "RandomNormal",
           "RandomUniform", "Zeros", "get", "GlorotNormal", "HeNormal", "LecunNormal",
           "LecunUniform", "Orthogonal", "TruncatedNormal", "VarianceScaling"]
__all__ += ["Identity", "IdentityInitializer", "OrthogonalInitializer", "constant",
            "deserialize", "glorot_normal", "glorot_uniform", "he_normal", "he_uniform",
            "identity", "lecun_normal", "lecun_uniform", "ones", "orthogonal", "random_normal",
            "random_uniform", "serialize", "truncated_normal", "variance_scaling", "zeros"]
__all__ += ["STFT", "STFTInitializer", "stft"]
