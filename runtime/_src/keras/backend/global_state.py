"""`keras.utils.clear_session()` (also `keras.backend.clear_session`): layer names
start again at "dense", "dense_1", ..., and unseeded `keras.random` draws at a new
SeedGenerator."""

from runtime._src.keras.utils import naming
from runtime._src.keras.random import random as keras_random

__all__ = ["clear_session"]


def clear_session(free_memory=True):
    """Forget the layer-name counters (the next Dense is "dense" again) and
    the SeedGenerator of unseeded `keras.random` draws."""
    naming.reset_names()
    keras_random.reset_global_seed_generator()
