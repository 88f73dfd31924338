"""`tf.keras.optimizers.schedules`: learning rates that change with the step."""

from runtime._src.keras.optimizers.schedules.learning_rate_schedule import (CosineDecay,
                                                                            CosineDecayRestarts,
                                                                            ExponentialDecay,
                                                                            InverseTimeDecay,
                                                                            LearningRateSchedule,
                                                                            PiecewiseConstantDecay,
                                                                            PolynomialDecay,
                                                                            deserialize, serialize)

__all__ = ["LearningRateSchedule", "CosineDecay", "ExponentialDecay", "InverseTimeDecay",
           "PiecewiseConstantDecay", "PolynomialDecay", "CosineDecayRestarts", "serialize",
           "deserialize"]
