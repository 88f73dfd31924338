"""Callbacks: code `fit` runs at the start and end of training, epochs and batches.

    class PrintLoss(Callback):
        def on_epoch_end(self, epoch, logs=None):
            print(epoch, logs["loss"])

    history = model.fit(x, y, epochs=50, validation_split=0.2,
                        callbacks=[PrintLoss(), EarlyStopping(patience=3)])
    history.history["val_loss"]

`fit` calls, in this order, each callback's `on_train_begin`, then per epoch
`on_epoch_begin`, per batch `on_train_batch_begin` / `on_train_batch_end`
(whose defaults call `on_batch_begin` / `on_batch_end`), `on_epoch_end` with
the epoch's logs (`loss`, the metrics, and `val_` ones when validating), and
`on_train_end`; validating an epoch calls `on_test_begin`, the
`on_test_batch_...` hooks and `on_test_end`, as `evaluate(callbacks=...)`
does (`predict(callbacks=...)`: the `on_predict_...` ones). The user's
callbacks run first, then the `History` that `fit` returns. A callback stops training by setting
`self.model.stop_training = True`.

    EarlyStopping(monitor="val_loss", min_delta=0, patience=0, mode="auto",
                  baseline=None, restore_best_weights=False, start_from_epoch=0)
        stops when `monitor` has not improved by more than min_delta for
        `patience` epochs; "auto" minimizes losses and maximizes accuracies
    LambdaCallback(on_epoch_end=lambda epoch, logs: ..., ...)
        a callback made of the functions given
    ModelCheckpoint("ckpt/w.{epoch:02d}.weights.npz", save_weights_only=True,
                    save_best_only=False, monitor="val_loss")
        `model.save_weights` after each epoch (only on improvement with
        save_best_only); a "....keras" path without save_weights_only: `model.save`
"""

import os
import warnings

import numpy as np

from runtime._src.keras.saving import weights_file as saving

__all__ = ["Callback", "History", "EarlyStopping", "LambdaCallback",
           "ModelCheckpoint", "MonitorCallback"]


# built-in callback -> the keras.src.callbacks module Keras 3.15 defines it in
_KERAS_FILES = {
    "Callback": "callback", "History": "history", "TensorBoard": "tensorboard",
    "EarlyStopping": "early_stopping", "LambdaCallback": "lambda_callback",
    "ModelCheckpoint": "model_checkpoint", "MonitorCallback": "monitor_callback",
    "CallbackList": "callback_list", "ProgbarLogger": "progbar_logger",
    "TerminateOnNaN": "terminate_on_nan", "CSVLogger": "csv_logger",
    "LearningRateScheduler": "learning_rate_scheduler",
    "ReduceLROnPlateau": "reduce_lr_on_plateau", "BackupAndRestore": "backup_and_restore",
    "RemoteMonitor": "remote_monitor", "SwapEMAWeights": "swap_ema_weights",
}


class Callback:
    """`tf.keras.callbacks.Callback`: override the `on_...` methods you need."""

    def __init__(self):
        self.params = None
        self._model = None

    def __repr__(self):
        """Python's default repr, with Keras's module for a built-in callback
        (`<keras.src.callbacks.history.History object at 0x...>`, as printed
        by `fit`'s return value in a notebook)."""
        cls = type(self)
        module = cls.__module__
        if module.startswith("runtime.") and cls.__name__ in _KERAS_FILES:
            module = f"keras.src.callbacks.{_KERAS_FILES[cls.__name__]}"
        return f"<{module}.{cls.__qualname__} object at {hex(id(self))}>"

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self._model = model

    @property
    def model(self):
        return self._model

    def on_batch_begin(self, batch, logs=None):
        """A training batch starts (what `on_train_batch_begin` calls)."""

    def on_batch_end(self, batch, logs=None):
        """A training batch ended (what `on_train_batch_end` calls)."""

    def on_epoch_begin(self, epoch, logs=None):
        """Epoch `epoch` (counted from 0) starts."""

    def on_epoch_end(self, epoch, logs=None):
        """Epoch `epoch` ended; `logs` has its loss and metrics (and `val_` ones)."""

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None):
        """An evaluation batch starts."""

    def on_test_batch_end(self, batch, logs=None):
        """An evaluation batch ended."""

    def on_predict_batch_begin(self, batch, logs=None):
        """A prediction batch starts."""

    def on_predict_batch_end(self, batch, logs=None):
        """A prediction batch ended."""

    def on_train_begin(self, logs=None):
        """`fit` starts."""

    def on_train_end(self, logs=None):
        """`fit` ends; `logs` are the last epoch's."""

    def on_test_begin(self, logs=None):
        """`evaluate` (or the validation of an epoch) starts."""

    def on_test_end(self, logs=None):
        """`evaluate` ends."""

    def on_predict_begin(self, logs=None):
        """`predict` starts."""

    def on_predict_end(self, logs=None):
        """`predict` ends."""


class History(Callback):
    """What `fit` returns: `history` maps "loss" (and each metric, "val_" ones
    too) to one value per epoch; `epoch` lists the epoch indices."""

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        self.model.history = self


class MonitorCallback(Callback):
    """What EarlyStopping and ModelCheckpoint share: a `monitor`ed log value
    that improves when it goes down ("min") or up ("max"); "auto" minimizes
    losses and follows a compiled metric's direction (accuracies go up)."""

    def __init__(self, monitor="val_loss", mode="auto", baseline=None, min_delta=0):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"{type(self).__name__} mode '{mode}' is unknown, fallback to auto "
                          "mode.", stacklevel=3)
            mode = "auto"
        self.monitor, self.mode = monitor, mode
        self.best = baseline
        self.min_delta = abs(min_delta)
        self.monitor_op = None

    def _set_monitor_op(self):
        if self.mode == "min":
            self.monitor_op = np.less
        elif self.mode == "max":
            self.monitor_op = np.greater
        else:
            name = self.monitor.removeprefix("val_")
            if name == "loss":
                self.monitor_op = np.less
            found = []          # the compiled metrics inside "compile_metrics", as Keras 3
            for m in getattr(self.model, "metrics", []):
                found.extend(m.metrics if hasattr(m, "metrics") else [m])
            for m in found:
                if m.name == name and hasattr(m, "_direction"):
                    self.monitor_op = np.greater if m._direction == "up" else np.less
            if self.monitor_op is None:
                raise ValueError(
                    f"{type(self).__name__} callback received monitor={self.monitor}, but "
                    "Keras isn't able to automatically determine whether that metric should "
                    "be maximized or minimized. Pass `mode='max'` in order to monitor based "
                    "on the highest metric value, or pass `mode='min'` in order to use the "
                    "lowest value.")
        if self.monitor_op is np.less:
            self.min_delta *= -1

    def _is_improvement(self, value, reference):
        return reference is None or bool(self.monitor_op(value - self.min_delta, reference))


class EarlyStopping(MonitorCallback):
    """`tf.keras.callbacks.EarlyStopping(monitor="val_loss", min_delta=0,
    patience=0, verbose=0, mode="auto", baseline=None,
    restore_best_weights=False, start_from_epoch=0)`."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto",
                 baseline=None, restore_best_weights=False, start_from_epoch=0):
        super().__init__(monitor, mode, None, min_delta)
        self.patience, self.verbose = patience, verbose
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self.start_from_epoch = start_from_epoch
        self.wait = self.stopped_epoch = self.best_epoch = 0
        self.best_weights = None

    def on_train_begin(self, logs=None):
        self.wait = self.stopped_epoch = self.best_epoch = 0
        self.best = None
        self.best_weights = None

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        current = (logs or {}).get(self.monitor)
        if current is None:
            warnings.warn(f"Early stopping conditioned on metric `{self.monitor}` which is not "
                          f"available. Available metrics are: {','.join(list(logs or {}))}",
                          stacklevel=2)
            return
        if epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
            self.best_epoch = epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best, self.best_epoch = current, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print("Restoring model weights from the end of the best epoch: "
                      f"{self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)


class LambdaCallback(Callback):
    """`tf.keras.callbacks.LambdaCallback(on_epoch_begin=None, on_epoch_end=None,
    on_train_begin=None, on_train_end=None, on_train_batch_begin=None,
    on_train_batch_end=None, **kwargs)`: each function given replaces that hook
    (epoch hooks take (epoch, logs), batch hooks (batch, logs), train hooks (logs))."""

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_train_begin=None,
                 on_train_end=None, on_train_batch_begin=None, on_train_batch_end=None,
                 **kwargs):
        super().__init__()
        self.__dict__.update(kwargs)
        for name, fn in (("on_epoch_begin", on_epoch_begin), ("on_epoch_end", on_epoch_end),
                         ("on_train_begin", on_train_begin), ("on_train_end", on_train_end),
                         ("on_train_batch_begin", on_train_batch_begin),
                         ("on_train_batch_end", on_train_batch_end)):
            if fn is not None:
                setattr(self, name, fn)


class ModelCheckpoint(MonitorCallback):
    """`tf.keras.callbacks.ModelCheckpoint(filepath, monitor="val_loss",
    verbose=0, save_best_only=False, save_weights_only=False, mode="auto",
    save_freq="epoch", initial_value_threshold=None)`: `model.save_weights`
    at the end of each epoch (or each `save_freq` batches), to `filepath`
    formatted with `epoch` (from 1) and the logs ("w.{epoch:02d}.weights.npz").
    With `save_best_only`, only when `monitor` improved. Without
    `save_weights_only` the whole model is saved (`model.save`, a `.keras` path)."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False,
                 save_weights_only=False, mode="auto", save_freq="epoch",
                 initial_value_threshold=None):
        super().__init__(monitor, mode, initial_value_threshold)
        self.verbose = verbose
        self.filepath = os.fspath(filepath)
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = save_freq
        self._batches_seen = 0
        self._current_epoch = 0
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f"Unrecognized save_freq: {save_freq}. Expected save_freq are "
                             "'epoch' or integer values")
        if not save_weights_only and not self.filepath.endswith(".keras"):
            raise ValueError("The filepath provided must end in `.keras` (Keras model "
                             f"format). Received: filepath={self.filepath}")
        if save_weights_only and not self.filepath.endswith(
                (saving.WEIGHTS_SUFFIX, saving.KERAS_WEIGHTS_SUFFIX)):
            raise ValueError("When using `save_weights_only=True` in `ModelCheckpoint`, the "
                             f"filepath provided must end in `{saving.KERAS_WEIGHTS_SUFFIX}` "
                             f"(or `{saving.WEIGHTS_SUFFIX}`, runtime.keras's format). "
                             f"Received: filepath={self.filepath}")

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if self.save_freq == "epoch":
            return
        self._batches_seen += 1
        if self._batches_seen >= self.save_freq:
            self._batches_seen = 0
            self._save(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        if self.save_freq == "epoch":
            self._save(epoch, None, logs)

    def _path(self, epoch, batch, logs):
        extra = {} if batch is None or "batch" in logs else {"batch": batch + 1}
        try:
            return self.filepath.format(epoch=epoch + 1, **extra, **logs)
        except KeyError as e:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". '
                           f"Reason: {e}") from None

    def _should_save(self, epoch, logs, filepath):
        if not self.save_best_only:
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: saving model to {filepath}")
            return True
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Can save best model only with {self.monitor} available.",
                          stacklevel=2)
            return True
        best = "None" if self.best is None else f"{self.best:.5f}"
        if self.monitor_op is None:
            self._set_monitor_op()
        if self._is_improvement(current, self.best):
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved from {best} to "
                      f"{current:.5f}, saving model to {filepath}")
            self.best = current
            return True
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {best}")
        return False

    def _save(self, epoch, batch, logs):
        logs = dict(logs or {})
        filepath = self._path(epoch, batch, logs)
        if not self._should_save(epoch, logs, filepath):
            return
        directory = os.path.dirname(filepath)
        if directory:
            os.makedirs(directory, exist_ok=True)
        if os.path.isdir(filepath):
            raise IOError("Please specify a non-directory filepath for ModelCheckpoint. "
                          f"Filepath used is an existing directory: {filepath}")
        if self.save_weights_only:
            self.model.save_weights(filepath, overwrite=True)
        else:
            self.model.save(filepath, overwrite=True)
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: finished saving model to {filepath}")
