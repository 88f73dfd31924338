"""AutoGraph-style transpiler: rewrites Python control flow into calls of
overloadable operators (`if_stmt`, `while_stmt`, `for_stmt`, ...) that keep
plain Python semantics unless a registered backend's tensors are involved.

This package never imports `runtime`; runtime registers itself as a backend
(see `autograph.backend`).
"""

__version__ = "0.1.0"
