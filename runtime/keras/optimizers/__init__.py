"""`tf.keras.optimizers`: `SGD`, `Adam`, `RMSprop`, `get`, and `schedules`."""

from runtime._src.keras.optimizers.adaptive import (Adadelta, Adagrad, Adamax, AdamW, Ftrl,
                                                    Lion, Nadam)
from runtime._src.keras.optimizers.optimizer import SGD, Adam, Optimizer, RMSprop, get
from runtime._src.keras.optimizers.optimizers_more import (Adafactor, Lamb, LossScaleOptimizer, Muon,
                                                ScheduleFreeAdamW)
from runtime._src.keras.optimizers.multi_optimizer import MultiOptimizer, OptimizerMap
from runtime._src.keras.optimizers.serialization import deserialize, serialize
from runtime.keras.optimizers import schedules

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "Adadelta", "Adagrad", "Adamax", "Ftrl",
           "Lion", "Nadam", "RMSprop", "get", "schedules", "Adafactor", "Lamb",
           "LossScaleOptimizer", "Muon", "ScheduleFreeAdamW", "serialize", "deserialize",
           "MultiOptimizer", "OptimizerMap"]
