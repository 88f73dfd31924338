"""`keras.utils.set_random_seed(seed)`: Python's random, numpy's and tf.random's seeds."""

import random
import numpy as np
from runtime._src.keras.random import random as keras_random
from runtime._src.ops import random_ops

__all__ = ["set_random_seed"]


def set_random_seed(seed):
    """Seed Python's `random`, numpy's global generator and `tf.random`; the
    next unseeded `keras.random` draw starts a new SeedGenerator from them."""
    if not isinstance(seed, int):
        raise ValueError("Expected `seed` argument to be an integer. Received: "
                         f"seed={seed} (of type {type(seed)})")
    keras_random.reset_global_seed_generator()
    random.seed(seed)
    np.random.seed(seed)
    random_ops.set_seed(seed)
