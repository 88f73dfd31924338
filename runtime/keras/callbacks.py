"""`tf.keras.callbacks`: hooks `fit` calls (runtime/_src/keras/callbacks/callback.py)."""

from runtime._src.keras.callbacks.backup_and_restore import BackupAndRestore
from runtime._src.keras.callbacks.callback_list import CallbackList
from runtime._src.keras.callbacks.callback import (Callback, EarlyStopping, History, LambdaCallback,
                                                   ModelCheckpoint)
from runtime._src.keras.callbacks.learning_rate_callbacks import (LearningRateScheduler,
                                                                  ReduceLROnPlateau)
from runtime._src.keras.callbacks.logging_callbacks import CSVLogger, ProgbarLogger, TerminateOnNaN
from runtime._src.keras.callbacks.remote_monitor import RemoteMonitor
from runtime._src.keras.callbacks.swap_ema_weights import SwapEMAWeights
from runtime._src.keras.callbacks.tensorboard import TensorBoard

__all__ = ["Callback", "CallbackList", "EarlyStopping", "History", "LambdaCallback", "ModelCheckpoint",
           "BackupAndRestore", "CSVLogger", "LearningRateScheduler", "ProgbarLogger",
           "ReduceLROnPlateau", "RemoteMonitor", "SwapEMAWeights", "TensorBoard", "TerminateOnNaN"]
