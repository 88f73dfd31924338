"""Callbacks that change the optimizer's learning rate between epochs.

    LearningRateScheduler(schedule, verbose=0)
        before each epoch: lr = schedule(epoch, lr) (or schedule(epoch))
    ReduceLROnPlateau(monitor="val_loss", factor=0.1, patience=10, mode="auto",
                      min_delta=1e-4, cooldown=0, min_lr=0.0)
        after `patience` epochs without an improvement of more than min_delta,
        lr = max(lr * factor, min_lr), then wait `cooldown` epochs

Both add "learning_rate" (the rate the epoch used) to the epoch's logs, so
`History` records it, as in Keras 3.
"""

import warnings

import numpy as np

from runtime._src.core.tensor import Tensor
from runtime._src.keras.callbacks.callback import Callback

__all__ = ["LearningRateScheduler", "ReduceLROnPlateau"]


def _current_rate(model):
    return float(np.array(model.optimizer.learning_rate))


class LearningRateScheduler(Callback):
    """`tf.keras.callbacks.LearningRateScheduler(schedule, verbose=0)`."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch, logs=None):
        try:
            lr = self.schedule(epoch, _current_rate(self.model))
        except TypeError:                  # a schedule of the epoch only
            lr = self.schedule(epoch)
        if isinstance(lr, Tensor):
            lr = float(np.asarray(lr))
        if not isinstance(lr, (float, int, np.floating)):
            raise ValueError(f"The output of the `schedule` function should be a float. "
                             f"Got: {lr}")
        self.model.optimizer.learning_rate = lr
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to "
                  f"{lr}.", flush=True)

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = _current_rate(self.model)


class ReduceLROnPlateau(Callback):
    """`tf.keras.callbacks.ReduceLROnPlateau(monitor="val_loss", factor=0.1,
    patience=10, verbose=0, mode="auto", min_delta=1e-4, cooldown=0, min_lr=0.0)`."""

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0.0, **kwargs):
        super().__init__()
        if factor >= 1.0:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0. "
                             f"Received factor={factor}")
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"Learning rate reduction mode {mode} is unknown, fallback to auto "
                          "mode.", stacklevel=2)
            mode = "auto"
        self.monitor, self.factor, self.patience = monitor, factor, patience
        self.verbose, self.mode, self.min_delta = verbose, mode, min_delta
        self.cooldown, self.min_lr = cooldown, min_lr
        self._reset()

    def _reset(self):
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        logs["learning_rate"] = _current_rate(self.model)
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn("Learning rate reduction is conditioned on metric "
                          f"`{self.monitor}` which is not available. Available metrics are: "
                          f"{','.join(logs)}.", stacklevel=2)
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best, self.wait = current, 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                self._reduce(epoch)

    def _reduce(self, epoch):
        old = _current_rate(self.model)
        if old > np.float32(self.min_lr):
            new = max(old * self.factor, self.min_lr)
            self.model.optimizer.learning_rate = new
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to "
                      f"{new}.", flush=True)
            self.cooldown_counter = self.cooldown
            self.wait = 0
