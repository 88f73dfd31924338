"""`tf.random`: stateful random ops (see `runtime.ops.random_ops`).

    random.set_seed(0)
    x = random.uniform([2, 3], minval=-1.0, maxval=1.0)
    n = random.normal([4], mean=0.0, stddev=2.0)
"""

from runtime._src.ops.random_ops import normal, set_seed, uniform  # noqa: F401

__all__ = ["uniform", "normal", "set_seed"]
