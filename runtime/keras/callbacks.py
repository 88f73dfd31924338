"""`tf.keras.callbacks`: hooks `fit` calls (runtime/_src/keras/callbacks.py)."""

from runtime._src.keras.backup_and_restore import BackupAndRestore
from runtime._src.keras.callback_list import CallbackList
from runtime._src.keras.callbacks import (Callback, EarlyStopping, History, LambdaCallback,
                                          ModelCheckpoint)
from runtime._src.keras.learning_rate_callbacks import LearningRateScheduler, ReduceLROnPlateau
from runtime._src.keras.logging_callbacks import CSVLogger, ProgbarLogger, TerminateOnNaN
from runtime._src.keras.tensorboard_callback import TensorBoard

__all__ = ["Callback", "CallbackList", "EarlyStopping", "History", "LambdaCallback", "ModelCheckpoint",
           "BackupAndRestore", "CSVLogger", "LearningRateScheduler", "ProgbarLogger",
           "ReduceLROnPlateau", "TensorBoard", "TerminateOnNaN"]
