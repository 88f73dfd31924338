"""`tf.keras.optimizers`: `SGD`, `Adam`, `RMSprop`, `get`, and `schedules`."""

from runtime._src.keras.optimizers.lion import Lion
from runtime._src.keras.optimizers.ftrl import Ftrl
from runtime._src.keras.optimizers.nadam import Nadam
from runtime._src.keras.optimizers.adamax import Adamax
from runtime._src.keras.optimizers.adadelta import Adadelta
from runtime._src.keras.optimizers.adagrad import Adagrad
from runtime._src.keras.optimizers.adamw import AdamW
from runtime._src.keras.optimizers.optimizer import Optimizer
from runtime._src.keras.optimizers.serialization import get
from runtime._src.keras.optimizers.rmsprop import RMSprop
from runtime._src.keras.optimizers.adam import Adam
from runtime._src.keras.optimizers.sgd import SGD
from runtime._src.keras.optimizers.loss_scale_optimizer import LossScaleOptimizer
from runtime._src.keras.optimizers.schedule_free_adamw import ScheduleFreeAdamW
from runtime._src.keras.optimizers.muon import Muon
from runtime._src.keras.optimizers.lamb import Lamb
from runtime._src.keras.optimizers.adafactor import Adafactor
from runtime._src.keras.optimizers.multi_optimizer import MultiOptimizer, OptimizerMap
from runtime._src.keras.optimizers.serialization import deserialize, serialize
from runtime.keras.optimizers import legacy, schedules

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "Adadelta", "Adagrad", "Adamax", "Ftrl",
           "Lion", "Nadam", "RMSprop", "get", "schedules", "Adafactor", "Lamb",
           "LossScaleOptimizer", "Muon", "ScheduleFreeAdamW", "serialize", "deserialize",
           "MultiOptimizer", "OptimizerMap", "legacy"]
