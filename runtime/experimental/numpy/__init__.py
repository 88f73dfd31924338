"""`tf.experimental.numpy`: NumPy's functions returning tensors, with
NumPy's dtype inference and promotion (defined in runtime/_src/ops/np_*.py),
its dtypes, `ndarray` (our `Tensor`), `random`, and
`experimental_enable_numpy_behavior` (NumPy's methods, indexing and
operator promotion on every tensor).

    import runtime.experimental.numpy as tnp
    tnp.mean(tnp.asarray([1, 2, 3]))      # tf.Tensor(2.0, shape=(), dtype=float64)
"""

from runtime._src.ops.np_ops import *  # noqa: F403 - the whole namespace
from runtime._src.ops.np_ops import __all__
from runtime.experimental.numpy import random
