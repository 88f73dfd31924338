"""`tf.experimental.numpy.random`: NumPy-named random draws (float64 and
int64), seeded by `seed` (that is, `tf.random.set_seed`)."""

from runtime._src.ops.np_random import (poisson, rand, randint, randn, random, seed,
                                        standard_normal, uniform)

__all__ = ["poisson", "rand", "randint", "randn", "random", "seed", "standard_normal",
           "uniform"]
