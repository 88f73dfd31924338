"""`tf.keras.mixed_precision`: the global dtype policy under its older names
(`Policy` is `DTypePolicy`; `set_global_policy` is
`keras.config.set_dtype_policy`, `global_policy` is `dtype_policy`)."""

from runtime._src.keras.backend.keras_config import dtype_policy, set_dtype_policy
from runtime._src.keras.dtype_policies.dtype_policy import DTypePolicy
from runtime._src.keras.optimizers.loss_scale_optimizer import LossScaleOptimizer

Policy = DTypePolicy
global_policy = dtype_policy
set_global_policy = set_dtype_policy

__all__ = ["DTypePolicy", "LossScaleOptimizer", "Policy", "dtype_policy", "global_policy",
           "set_dtype_policy", "set_global_policy"]
