"""`tf.keras.random`: Keras 3's random functions and `SeedGenerator`
(runtime/_src/keras/random/random.py).

    gen = keras.random.SeedGenerator(42)
    keras.random.normal((2, 3), seed=gen)     # new values at each call
    keras.random.uniform((2,), seed=7)        # the same values at each call
"""

from runtime._src.keras.random.random import (SeedGenerator, beta, binomial, categorical, dropout,
                                              gamma, normal, randint, shuffle, truncated_normal,
                                              uniform)

__all__ = ["SeedGenerator", "beta", "binomial", "categorical", "dropout", "gamma", "normal",
           "randint", "shuffle", "truncated_normal", "uniform"]
