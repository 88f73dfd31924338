"""Callbacks that report on training: `ProgbarLogger`, `CSVLogger`, `TerminateOnNaN`.

    ProgbarLogger()        what `fit(verbose=1 | 2)` prints (fit adds one itself):
                           Epoch 1/2
                           4/4 ━━━━━━━━━━━━━━━━━━━━ 0s 3ms/step - accuracy: 0.6100 - loss: 0.65
    CSVLogger("log.csv", separator=",", append=False)
                           one row per epoch: "epoch" then the logs' keys, sorted
                           (val_ columns added, "NA" when not validating, as Keras 3)
    TerminateOnNaN()       stops training after the batch whose loss is NaN or inf,
                           printing "Batch 2: Invalid loss, terminating training"
"""

import collections
import csv
import os
import time

import numpy as np

from runtime._src.keras.utils import io_utils
from runtime._src.keras.callbacks.callback import Callback

__all__ = ["ProgbarLogger", "CSVLogger", "TerminateOnNaN", "progress_line"]

_BAR = "\u2501" * 20


def _per_step(seconds):
    """Milliseconds per step (Keras switches between s, ms and us; one unit keeps
    two runs' outputs comparable once the numbers are masked)."""
    return f"{seconds * 1e3:.0f}ms/step"


def _log_value(value):
    """Keras's progress-bar number: 4 decimals, or 4 significant digits near 0
    (a metric with several values: each, in brackets)."""
    if isinstance(value, (list, tuple)):
        return "[" + " ".join(_log_value(v) for v in value) + "]"
    return f"{value:.4f}" if abs(value) > 1e-3 else f"{value:.4e}"


def progress_line(steps, elapsed, logs, verbose):
    """The finished progress line of an epoch (verbose=1) or its bare form (2)."""
    metrics = " - ".join(f"{k}: {_log_value(v)}" for k, v in logs.items())
    timing = f"{elapsed:.0f}s"
    per_step = _per_step(elapsed / max(steps, 1))
    tail = f" - {metrics}" if metrics else ""          # predict has no metrics
    if verbose == 2:
        return f"{steps}/{steps} - {timing} - {per_step}{tail}"
    return f"{steps}/{steps} {_BAR} {timing} {per_step}{tail}"


class ProgbarLogger(Callback):
    """`tf.keras.callbacks.ProgbarLogger()`: prints "Epoch i/n" (when n > 1) and
    each epoch's finished progress line, as `fit`'s `verbose` says."""

    def __init__(self, count_mode=None):
        super().__init__()
        self.verbose = 1
        self.epochs = 1
        self._start = None

    def set_params(self, params):
        super().set_params(params)
        verbose = params.get("verbose", 1)
        self.verbose = 1 if verbose == "auto" else verbose
        self.epochs = params.get("epochs", 1)

    def on_epoch_begin(self, epoch, logs=None):
        self._start = time.perf_counter()
        if self.verbose and self.epochs > 1:
            io_utils.print_msg(f"Epoch {epoch + 1}/{self.epochs}")

    def on_epoch_end(self, epoch, logs=None):
        if self.verbose:
            elapsed = time.perf_counter() - (self._start or time.perf_counter())
            shown = {k: v for k, v in (logs or {}).items() if k != "learning_rate"}
            io_utils.print_msg(progress_line(self.params.get("steps") or 1, elapsed, shown,
                                             self.verbose))


class TerminateOnNaN(Callback):
    """`tf.keras.callbacks.TerminateOnNaN()`."""

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            print(f"Batch {batch}: Invalid loss, terminating training", flush=True)
            self.model.stop_training = True


def _cell(value):
    if isinstance(value, str):
        return value
    if isinstance(value, collections.abc.Iterable) and not (
            isinstance(value, np.ndarray) and value.ndim == 0):
        return f"\"[{', '.join(map(str, value))}]\""
    return value


class CSVLogger(Callback):
    """`tf.keras.callbacks.CSVLogger(filename, separator=",", append=False)`."""

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.sep, self.filename, self.append = separator, os.fspath(filename), append
        self.writer = self.keys = self.csv_file = None
        self.append_header = True

    def on_train_begin(self, logs=None):
        if self.append:
            if os.path.exists(self.filename):
                with open(self.filename, encoding="utf-8") as f:
                    self.append_header = not bool(len(f.readline()))
            mode = "a"
        else:
            mode = "w"
        self.csv_file = open(self.filename, mode, newline="", encoding="utf-8")

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs)
            if not any(k.startswith("val_") for k in self.keys):
                self.keys.extend(["val_" + k for k in self.keys])
        if self.writer is None:
            dialect = type("Dialect", (csv.excel,), {"delimiter": self.sep})
            self.writer = csv.DictWriter(self.csv_file, fieldnames=["epoch"] + self.keys,
                                         dialect=dialect)
            if self.append_header:
                self.writer.writeheader()
        row = {"epoch": epoch}
        row.update((key, _cell(logs.get(key, "NA"))) for key in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        if self.csv_file is not None:
            self.csv_file.close()
        self.writer = None
