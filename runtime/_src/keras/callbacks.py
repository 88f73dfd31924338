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
"""

import warnings

import numpy as np

__all__ = ["Callback", "CallbackList", "History", "EarlyStopping", "LambdaCallback"]


class Callback:
    """`tf.keras.callbacks.Callback`: override the `on_...` methods you need."""

    def __init__(self):
        self.params = None
        self._model = None

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


class CallbackList:
    """Calls a hook on each callback in order."""

    def __init__(self, callbacks, model, params):
        self.callbacks = list(callbacks or [])
        for cb in self.callbacks:
            if not isinstance(cb, Callback):
                raise TypeError("callbacks must be tf.keras.callbacks.Callback instances; "
                                f"got {cb!r} of type {type(cb).__name__}")
            cb.set_model(model)
            cb.set_params(params)

    def call(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(*args)

    def overrides(self, *hooks):
        """Whether some callback defines one of `hooks` itself (batch logs, which
        cost a conversion per batch, are made only then)."""
        return any(getattr(type(cb), h) is not getattr(Callback, h) or h in vars(cb)
                   for cb in self.callbacks for h in hooks)


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

    def __repr__(self):
        return f"<History epochs={len(self.epoch)} keys={sorted(self.history)}>"


class EarlyStopping(Callback):
    """`tf.keras.callbacks.EarlyStopping(monitor="val_loss", min_delta=0,
    patience=0, verbose=0, mode="auto", baseline=None,
    restore_best_weights=False, start_from_epoch=0)`."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto",
                 baseline=None, restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"EarlyStopping mode '{mode}' is unknown, fallback to auto mode.",
                          stacklevel=2)
            mode = "auto"
        self.monitor, self.mode = monitor, mode
        self.min_delta = abs(min_delta)
        self.patience, self.verbose = patience, verbose
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self.start_from_epoch = start_from_epoch
        self.monitor_op = None
        self.best = None
        self.wait = self.stopped_epoch = self.best_epoch = 0
        self.best_weights = None

    def _set_monitor_op(self):
        if self.mode == "min":
            self.monitor_op = np.less
        elif self.mode == "max":
            self.monitor_op = np.greater
        else:
            name = self.monitor.removeprefix("val_")
            if name == "loss":
                self.monitor_op = np.less
            for m in getattr(self.model, "metrics", []):
                if m.name == name and hasattr(m, "_direction"):
                    self.monitor_op = np.greater if m._direction == "up" else np.less
            if self.monitor_op is None:
                raise ValueError(
                    f"EarlyStopping callback received monitor={self.monitor}, but Keras "
                    "isn't able to automatically determine whether that metric should be "
                    "maximized or minimized. Pass `mode='max'` in order to monitor based "
                    "on the highest metric value, or pass `mode='min'` in order to use the "
                    "lowest value.")
        if self.monitor_op is np.less:
            self.min_delta *= -1

    def _is_improvement(self, value, reference):
        return reference is None or bool(self.monitor_op(value - self.min_delta, reference))

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
