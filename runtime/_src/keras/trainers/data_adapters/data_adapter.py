"""`fit`, `evaluate` and `predict` on a `tf.data.Dataset`, a
`keras.utils.PyDataset` or a Python generator, as Keras 3 does: each element is one batch, `(x, y)`,
`(x, y, sample_weight)` or `x`.

    model.fit(ds.batch(32), epochs=3, validation_data=val_ds.batch(32))
    model.fit(generator(), steps_per_epoch=100, epochs=2)

An epoch is one pass over the dataset, or `steps_per_epoch` batches drawn
from one iterator that goes on across epochs (a dataset starts again when it
ends; a generator that ends stops training, with Keras's warning). The
training step is the model's traced `train_step`, traced once for the
batches' shapes with a free batch dimension, as for arrays.
"""

import time
import types
import warnings

import numpy as np

from runtime._src.core import nest
from runtime._src.data.dataset import Dataset
from runtime._src.keras.callbacks import callback_list
from runtime._src.keras.callbacks import callback as callbacks_mod
from runtime._src.keras.backend import keras_config
from runtime._src.keras.utils import io_utils
from runtime._src.keras.trainers.data_adapters import py_dataset
from runtime._src.keras.trainers.data_adapters.py_dataset import PyDataset

__all__ = ["capped_epochs", "capped_steps", "evaluate", "fit", "is_stream", "predict"]


def is_stream(x):
    """True for what this module handles: a Dataset, generator or iterator."""
    return isinstance(x, (Dataset, PyDataset, types.GeneratorType)) or (
        hasattr(x, "__next__") and hasattr(x, "__iter__"))


def capped_epochs(epochs):
    """`epochs`, cut to `keras.config.max_epochs()` (with Keras's warning)."""
    limit = keras_config.max_epochs()
    if limit and limit < epochs:
        warnings.warn(f"Limiting epochs to {limit}", stacklevel=3)
        return limit
    return epochs


def capped_steps(steps_per_epoch):
    """`steps_per_epoch`, cut to `keras.config.max_steps_per_epoch()` (None
    stays None without a limit); Keras warns whenever the limit applies."""
    limit = keras_config.max_steps_per_epoch()
    if limit and (not steps_per_epoch or limit < steps_per_epoch):
        warnings.warn(f"Limiting steps_per_epoch to {limit}", stacklevel=3)
        return limit
    return steps_per_epoch


def _refuse_arrays_args(what, y, sample_weight=None):
    if y is not None:
        raise ValueError(f"{what}: `y` argument is not supported when using a dataset or a "
                         f"generator as input: the elements must hold (x, y)")
    if sample_weight is not None:
        raise ValueError(f"{what}: `sample_weight` argument is not supported when using a "
                         f"dataset or a generator as input: the elements must hold "
                         f"(x, y, sample_weight)")


def _as_batch(element):
    """An element as the tuple of arrays the step function takes."""
    if isinstance(element, list):
        element = tuple(element)
    parts = element if isinstance(element, tuple) and 1 <= len(element) <= 3 else (element,)
    return tuple(nest.map_structure(np.asarray, p) for p in parts)


class _PyDatasetEpochs:
    """A PyDataset as an iterable: each iteration one epoch of its batches."""

    def __init__(self, dataset, shuffle):
        self.dataset, self.shuffle = dataset, shuffle

    def __iter__(self):
        return py_dataset.epoch_batches(self.dataset, self.shuffle)


class _Source:
    """Batches from a dataset (a fresh iteration per epoch) or an iterator."""

    def __init__(self, x, steps, shuffle=False):
        self.py_dataset = x if isinstance(x, PyDataset) else None
        if self.py_dataset is not None:
            if steps is None and x.num_batches is None:
                raise ValueError("This PyDataset has no end (num_batches is None): pass "
                                 "`steps_per_epoch` (or `steps`)")
            x = _PyDatasetEpochs(x, shuffle)
        self.x, self.steps = x, steps
        self.dataset = isinstance(x, (Dataset, _PyDatasetEpochs))
        self.it = iter(x) if steps is not None or not self.dataset else None
        self.exhausted = False

    def epoch(self):
        """One epoch's batches, with the PyDataset's epoch hooks around them."""
        if self.py_dataset is not None:
            self.py_dataset.on_epoch_begin()
        yield from self._batches()
        if self.py_dataset is not None:
            self.py_dataset.on_epoch_end()

    def _batches(self):
        if self.steps is None:
            it = iter(self.x) if self.dataset else self.it
            for element in it:
                yield _as_batch(element)
            return
        for _ in range(self.steps):
            try:
                element = next(self.it)
            except StopIteration:
                if not self.dataset:
                    self.exhausted = True
                    warnings.warn("Your input ran out of data; interrupting training. Make "
                                  "sure that your dataset or generator can generate at least "
                                  "`steps_per_epoch * epochs` batches.", stacklevel=5)
                    return
                self.it = iter(self.x)
                element = next(self.it)
            yield _as_batch(element)


def fit(model, x, y, *, epochs, verbose, callbacks, validation_data, initial_epoch,
        steps_per_epoch, sample_weight, shuffle, progress_line, to_floats):
    _refuse_arrays_args("fit", y, sample_weight)
    epochs = capped_epochs(epochs)
    steps_per_epoch = capped_steps(steps_per_epoch)
    source = _Source(x, steps_per_epoch, shuffle)
    if validation_data is not None and not is_stream(validation_data):
        # arrays (x, y[, sample_weight]) beside a dataset: batches of 32, as Keras
        validation_data = Dataset.from_tensor_slices(tuple(validation_data)).batch(32)
    verbose = 1 if verbose == "auto" else verbose
    history = callbacks_mod.History()
    params = {"verbose": verbose, "epochs": epochs, "steps": steps_per_epoch}
    hooks = callback_list.CallbackList(list(callbacks or []) + [history], model=model,
                                       **params)
    model.stop_training = False
    hooks.call("on_train_begin", {})
    epoch_logs = None
    for epoch in range(initial_epoch, epochs):
        model.reset_metrics()
        hooks.call("on_epoch_begin", epoch, {})
        if verbose and epochs > 1:
            io_utils.print_msg(f"Epoch {epoch + 1}/{epochs}")
        start, logs, steps = time.perf_counter(), {}, 0
        for step, batch in enumerate(source.epoch()):
            hooks.call("on_train_batch_begin", step, {})
            logs = model._step_function("train", batch)(*batch)
            hooks.call("on_train_batch_end", step, to_floats(logs))
            steps = step + 1
            if model.stop_training:
                break
        if steps == 0:
            raise ValueError("fit: the dataset (or generator) produced no batches")
        epoch_logs = to_floats(logs)
        elapsed = time.perf_counter() - start
        if validation_data is not None:
            val = _evaluate_logs(model, validation_data, None, hooks, to_floats)
            epoch_logs.update({f"val_{k}": v for k, v in val.items()})
        if verbose:
            io_utils.print_msg(progress_line(steps, elapsed, epoch_logs, verbose))
        hooks.call("on_epoch_end", epoch, epoch_logs)
        if model.stop_training or source.exhausted:
            break
    model._finalize_optimizer(epochs)
    hooks.call("on_train_end", epoch_logs)
    return history


def _evaluate_logs(model, x, steps, hooks, to_floats):
    model.reset_metrics()
    hooks.call("on_test_begin", {})
    logs = {}
    for step, batch in enumerate(_Source(x, steps).epoch()):
        hooks.call("on_test_batch_begin", step, {})
        logs = model._step_function("test", batch)(*batch)
        hooks.call("on_test_batch_end", step, to_floats(logs))
    logs = to_floats(logs)
    hooks.call("on_test_end", logs)
    return logs


def evaluate(model, x, y, *, steps, callbacks, sample_weight, to_floats):
    _refuse_arrays_args("evaluate", y, sample_weight)
    hooks = callback_list.CallbackList(callbacks, model=model, verbose=0, epochs=1,
                                       steps=steps)
    return _evaluate_logs(model, x, steps, hooks, to_floats)


def predict(model, x, *, steps):
    outputs = []
    for batch in _Source(x, steps).epoch():
        inputs = batch[:1]
        outputs.append(model._step_function("predict", inputs)(*inputs))
    if not outputs:
        raise ValueError("predict: the dataset (or generator) produced no batches")
    return nest.map_structure(lambda *parts: np.concatenate([np.asarray(p) for p in parts]),
                              *outputs)
