"""`tf.keras.optimizers.schedules`: learning rates that change with the step."""

from runtime._src.keras.schedules import (CosineDecay, ExponentialDecay, InverseTimeDecay,
                                          LearningRateSchedule, PiecewiseConstantDecay,
                                          PolynomialDecay)

__all__ = ["LearningRateSchedule", "CosineDecay", "ExponentialDecay", "InverseTimeDecay",
           "PiecewiseConstantDecay", "PolynomialDecay"]
