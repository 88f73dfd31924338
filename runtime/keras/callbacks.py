"""`tf.keras.callbacks`: hooks `fit` calls (runtime/_src/keras/callbacks.py)."""

from runtime._src.keras.callbacks import (Callback, EarlyStopping, History, LambdaCallback,
                                          ModelCheckpoint)
from runtime._src.keras.tensorboard_callback import TensorBoard

__all__ = ["Callback", "EarlyStopping", "History", "LambdaCallback", "ModelCheckpoint",
           "TensorBoard"]
