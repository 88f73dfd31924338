"""`tf.config`: process-wide switches (defined in runtime/_src/function/config.py;
the equivalence check mode in runtime/_src/check/equivalence.py).

    >>> import runtime as tf
    >>> tf.config.run_functions_eagerly(True)     # debug in Python
    >>> tf.config.functions_run_eagerly()
    True
    >>> tf.config.run_functions_eagerly(False)

`optimizer.set_experimental_options({"constant_folding": False})` turns graph
optimizer passes off; `experimental_check_equivalence(True)` runs every
`function` call eagerly and as a graph and raises on a difference.
"""

from runtime._src.check.equivalence import experimental_check_equivalence  # noqa: F401
from runtime._src.function.config import (functions_run_eagerly, optimizer,  # noqa: F401
                                          run_functions_eagerly)

__all__ = ["run_functions_eagerly", "functions_run_eagerly", "experimental_check_equivalence",
           "optimizer"]
