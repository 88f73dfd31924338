"""`tf.experimental.numpy`: NumPy-style functions returning tensors (defined
in runtime/_src/ops/np_ops.py; NumPy's dtype inference and promotion).

    import runtime.experimental.numpy as tnp
    tnp.mean(tnp.asarray([1, 2, 3]))      # tf.Tensor(2.0, shape=(), dtype=float64)
"""

from runtime._src.ops.np_ops import *  # noqa: F403 - the whole namespace
from runtime._src.ops.np_ops import __all__
