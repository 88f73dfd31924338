"""Op definitions, one module per family. Importing this package registers
every op in `runtime.op_registry.OPS`."""

from . import base_ops, math_ops, array_ops  # noqa: F401
from . import reduction_ops, nn_ops, bitwise_ops  # noqa: F401
