"""`compile`, `fit`, `evaluate`, `predict`: Keras's training loop over numpy arrays.

    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    history = model.fit(x, y, batch_size=32, epochs=5, validation_data=(xv, yv))
    history.history["loss"]        # one value per epoch
    model.evaluate(xv, yv)         # [loss, accuracy]
    model.predict(x)               # numpy, batch by batch

Each step is one graph: `fit` wraps `train_step` (forward pass under a
GradientTape, loss, gradients, `optimizer.apply_gradients`, metric updates)
in a `tf.function` whose input signature has a free batch dimension, so the
whole of training traces it once (a smaller last batch reuses it). `evaluate`
and `predict` do the same with `test_step` and `predict_step`. With
`compile(run_eagerly=True)` the steps run as plain Python instead.

At the start of each epoch the metrics are reset; the loss reported for an
epoch is the mean of its batch losses weighted by batch size, as Keras does.
With `verbose=1` each epoch prints `Epoch i/n` and a finished progress line,
`verbose=2` the line without the bar, Keras's formats:

    Epoch 1/2
    4/4 ━━━━━━━━━━━━━━━━━━━━ 0s 3ms/step - accuracy: 0.6100 - loss: 0.6523
"""

import time

import numpy as np

from runtime._src.autodiff.tape import GradientTape
from runtime._src.core import dtypes, nest
from runtime._src.core.tensor import Tensor
from runtime._src.core.tensor_shape import TensorShape, TensorSpec
from runtime._src.function.function import function
from runtime._src.keras import losses as losses_mod
from runtime._src.keras import metrics as metrics_mod
from runtime._src.keras import optimizers
from runtime._src.ops import array_ops, math_ops, random_ops

__all__ = ["TrainingMixin", "TrainingState", "History"]

_BAR = "\u2501" * 20


class TrainingState:
    """What `compile` set up and the step functions traced for it."""

    def __init__(self):
        self.input_specs = None      # the first call's inputs, batch dimension free
        self.compiled = False
        self.loss = None
        self.metric_ids = []
        self.metrics = None          # resolved on the first step (needs y and y_pred)
        self.loss_tracker = None
        self.functions = {}          # (kind, specs) -> Function
        self.run_eagerly = False


class History:
    """What `fit` returns: `history` maps "loss" (and each metric, "val_" ones
    too) to one value per epoch; `epoch` lists the epoch indices."""

    def __init__(self, model, params):
        self.model = model
        self.params = params
        self.history = {}
        self.epoch = []

    def append(self, epoch, logs):
        self.epoch.append(epoch)
        for key, value in logs.items():
            self.history.setdefault(key, []).append(value)

    def __repr__(self):
        return f"<History epochs={len(self.epoch)} keys={sorted(self.history)}>"


class TrainingMixin:
    """The training methods of `Model` (it holds `_keras_state`)."""

    # --- compile ----------------------------------------------------------------

    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None,
                run_eagerly=False, steps_per_execution=1, jit_compile="auto", **kwargs):
        """Set the optimizer, loss and metrics `fit` and `evaluate` use."""
        state = self._keras_state
        self.optimizer = optimizers.get(optimizer)
        self.loss = loss
        state.loss = None if loss is None else losses_mod.get(loss)
        if isinstance(metrics, dict):
            raise TypeError("compile: metrics must be a list (one output is supported)")
        state.metric_ids = list(metrics or [])
        state.metrics = None
        state.loss_tracker = metrics_mod.Mean(name="loss")
        state.functions = {}
        state.run_eagerly = bool(run_eagerly)
        state.compiled = True

    @property
    def metrics(self):
        state = self._keras_state
        if not state.compiled:
            return []
        return [state.loss_tracker] + list(state.metrics or [])

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    def reset_metrics(self):
        for m in self.metrics:
            m.reset_state()

    # --- the steps (each traced once as a graph) -------------------------------------

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None):
        """The compiled loss of this batch plus the losses layers added."""
        state = self._keras_state
        if state.loss is None:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        return state.loss(y, y_pred, sample_weight)

    def compute_metrics(self, x, y, y_pred, sample_weight=None, loss=None):
        """Update the loss tracker and the compiled metrics; their results."""
        state = self._keras_state
        if state.metrics is None:
            state.metrics = [metrics_mod.get(m, state.loss, y, y_pred)
                             for m in state.metric_ids]
        if loss is not None:
            state.loss_tracker.update_state(loss, sample_weight=_batch_size(x, loss.dtype))
        for m in state.metrics:
            m.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self):
        return {m.name: m.result() for m in self.metrics}

    def train_step(self, data):
        """Forward pass, loss, gradients, one optimizer step; the metrics."""
        x, y, sample_weight = unpack_data(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight)
        variables = self.trainable_variables
        grads = tape.gradient(loss, variables)
        self.optimizer.apply_gradients(zip(grads, variables))
        return self.compute_metrics(x, y, y_pred, sample_weight, loss)

    def test_step(self, data):
        x, y, sample_weight = unpack_data(data)
        y_pred = self(x, training=False)
        loss = self.compute_loss(x, y, y_pred, sample_weight)
        return self.compute_metrics(x, y, y_pred, sample_weight, loss)

    def predict_step(self, data):
        x, _, _ = unpack_data(data)
        return self(x, training=False)

    def _step_function(self, kind, arrays):
        """The traced `<kind>_step` for batches shaped like `arrays`."""
        state = self._keras_state
        specs = tuple(_batch_free_spec_of(a) for a in arrays)
        key = (kind, tuple((s.dtype, tuple(s.shape.dims)) for s in specs))
        fn = state.functions.get(key)
        if fn is None:
            step = getattr(self, f"{kind}_step")
            if len(specs) == 1:
                def run_step(x):
                    return step(x)
            else:
                def run_step(x, y):
                    return step((x, y))
            run_step.__name__ = f"{kind}_function"
            fn = run_step if state.run_eagerly else function(run_step,
                                                             input_signature=list(specs))
            state.functions[key] = fn
        return fn

    # --- fit / evaluate / predict --------------------------------------------------

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, initial_epoch=0,
            steps_per_epoch=None, **kwargs):
        """Train for `epochs` passes over (x, y) in batches; returns a History."""
        _refuse("fit", callbacks=callbacks, **kwargs)
        self._check_compiled("fit")
        arrays = _as_arrays(x, y, "fit")
        if validation_split and validation_data is None:
            arrays, validation_data = _split(arrays, validation_split)
        n = len(arrays[0])
        batch_size = batch_size or 32
        steps = steps_per_epoch or max(1, -(-n // batch_size))
        verbose = 1 if verbose == "auto" else verbose
        history = History(self, {"epochs": epochs, "steps": steps, "verbose": verbose})
        train = self._step_function("train", arrays)
        for epoch in range(initial_epoch, epochs):
            if verbose:
                print(f"Epoch {epoch + 1}/{epochs}", flush=True)
            self.reset_metrics()
            start = time.perf_counter()
            order = _permutation(n) if shuffle else np.arange(n)
            logs = {}
            for step, batch in enumerate(_batches(arrays, batch_size, order)):
                if step >= steps:
                    break
                logs = train(*batch)
            logs = _to_floats(logs)
            elapsed = time.perf_counter() - start
            if validation_data is not None:
                val = self._evaluate_arrays(_as_arrays(*validation_data[:2], "fit"),
                                            batch_size)
                logs.update({f"val_{k}": v for k, v in val.items()})
            history.append(epoch, logs)
            if verbose:
                print(_progress_line(steps, elapsed, logs, verbose), flush=True)
        return history

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, return_dict=False, **kwargs):
        """The loss (and metrics) over (x, y): a float, or [loss, metric, ...]."""
        _refuse("evaluate", sample_weight=sample_weight, **kwargs)
        self._check_compiled("evaluate")
        arrays = _as_arrays(x, y, "evaluate")
        start = time.perf_counter()
        logs = self._evaluate_arrays(arrays, batch_size or 32)
        verbose = 1 if verbose == "auto" else verbose
        if verbose:
            batches = max(1, -(-len(arrays[0]) // (batch_size or 32)))
            print(_progress_line(batches, time.perf_counter() - start, logs, verbose),
                  flush=True)
        if return_dict:
            return logs
        values = [logs[name] for name in self.metrics_names]
        return values[0] if len(values) == 1 else values

    def _evaluate_arrays(self, arrays, batch_size):
        self.reset_metrics()
        test = self._step_function("test", arrays)
        logs = {}
        for batch in _batches(arrays, batch_size, np.arange(len(arrays[0]))):
            logs = test(*batch)
        return _to_floats(logs)

    def predict(self, x, batch_size=None, verbose="auto", steps=None, **kwargs):
        """The model's outputs on x (training=False), as numpy, computed batch by batch."""
        _refuse("predict", **kwargs)
        arrays = (_as_array(x, "predict"),)
        predict = self._step_function("predict", arrays)
        outputs = [predict(*batch) for batch in _batches(arrays, batch_size or 32,
                                                          np.arange(len(arrays[0])))]
        if not outputs:
            raise ValueError("predict: x has no samples")
        return nest.map_structure(lambda *parts: np.concatenate([np.asarray(p) for p in parts]),
                                  *outputs)

    def _check_compiled(self, what):
        if not self._keras_state.compiled:
            raise RuntimeError(f"You must call `compile()` before using the model ({what}).")


# --- helpers --------------------------------------------------------------------------

def _refuse(method, **arguments):
    """TypeError for arguments Keras has and this subset does not implement."""
    given = sorted(k for k, v in arguments.items() if v is not None)
    if given:
        raise TypeError(f"{method}: argument {given[0]!r} is not supported by runtime.keras "
                        "(supported: x, y, batch_size, epochs, verbose, validation_data, "
                        "validation_split, shuffle, initial_epoch, steps_per_epoch)"
                        if method == "fit" else
                        f"{method}: argument {given[0]!r} is not supported by runtime.keras")


def unpack_data(data):
    """(x, y, sample_weight) from x, (x,), (x, y) or (x, y, sample_weight)."""
    if isinstance(data, (list, tuple)):
        if len(data) == 1:
            return data[0], None, None
        if len(data) == 2:
            return data[0], data[1], None
        if len(data) == 3:
            return data[0], data[1], data[2]
        raise ValueError(f"Data is expected to be (x,), (x, y) or (x, y, sample_weight); "
                         f"got a {type(data).__name__} of {len(data)} items")
    return data, None, None


def _batch_size(x, dtype):
    """The number of samples in the batch x, as a scalar of `dtype`."""
    first = nest.flatten(x)[0]
    return math_ops.cast(array_ops.shape(first)[0], dtype)


def _as_array(value, what):
    if isinstance(value, Tensor):
        return np.asarray(value)
    arr = np.asarray(value)
    if arr.dtype == np.float64:
        arr = arr.astype(np.float32)
    if arr.dtype == object or arr.ndim == 0:
        raise ValueError(f"{what}: expected a numpy array (or tensor) of samples, got "
                         f"{type(value).__name__}")
    return arr


def _as_arrays(x, y, what):
    if x is None:
        raise ValueError(f"{what}: x is required")
    arrays = (_as_array(x, what),) if y is None else (_as_array(x, what), _as_array(y, what))
    if y is not None and len(arrays[0]) != len(arrays[1]):
        raise ValueError(f"{what}: x and y have different numbers of samples: "
                         f"{len(arrays[0])} and {len(arrays[1])}")
    return arrays


def _split(arrays, fraction):
    """(training arrays, validation arrays): the last `fraction` of samples validate."""
    n = len(arrays[0])
    cut = int(n * (1.0 - fraction))
    return tuple(a[:cut] for a in arrays), tuple(a[cut:] for a in arrays)


def _batch_free_spec_of(array):
    return TensorSpec(TensorShape([None] + list(array.shape[1:])),
                      dtypes.as_dtype(array.dtype))


def _permutation(n):
    """A random order of n samples, drawn from tf.random (so tf.random.set_seed fixes it)."""
    keys = np.asarray(random_ops.uniform([n], dtype=dtypes.float64))
    return np.argsort(keys, kind="stable")


def _batches(arrays, batch_size, order):
    for start in range(0, len(order), batch_size):
        index = order[start:start + batch_size]
        yield tuple(a[index] for a in arrays)


def _to_floats(logs):
    return {k: float(np.asarray(v)) for k, v in sorted(logs.items())}


def _per_step(seconds):
    """Milliseconds per step (Keras switches between s, ms and us; one unit keeps
    two runs' outputs comparable once the numbers are masked)."""
    return f"{seconds * 1e3:.0f}ms/step"


def _progress_line(steps, elapsed, logs, verbose):
    metrics = " - ".join(f"{k}: {v:.4f}" for k, v in sorted(logs.items()))
    timing = f"{elapsed:.0f}s"
    per_step = _per_step(elapsed / max(steps, 1))
    if verbose == 2:
        return f"{steps}/{steps} - {timing} - {per_step} - {metrics}"
    return f"{steps}/{steps} {_BAR} {timing} {per_step} - {metrics}"
