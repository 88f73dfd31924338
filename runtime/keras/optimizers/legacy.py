"""`keras.optimizers.legacy`: Keras 2's optimizer names, each of which raises
ImportError when built, as in Keras 3.15 (runtime/_src/keras/optimizers/legacy.py)."""

from runtime._src.keras.optimizers.legacy import LegacyOptimizerWarning

Adagrad = Adam = Ftrl = Optimizer = RMSprop = SGD = LegacyOptimizerWarning

__all__ = ["Adagrad", "Adam", "Ftrl", "Optimizer", "RMSprop", "SGD"]
