"""`keras.distillation`: `Distiller` (a student trained from a frozen teacher)
and its losses, `LogitsDistillation`, `FeatureDistillation` and the
`DistillationLoss` base (runtime/_src/keras/distillation)."""

from runtime._src.keras.distillation.distillation_loss import (DistillationLoss,
                                                                FeatureDistillation,
                                                                LogitsDistillation)
from runtime._src.keras.distillation.distiller import Distiller

__all__ = ["Distiller", "DistillationLoss", "LogitsDistillation", "FeatureDistillation"]
