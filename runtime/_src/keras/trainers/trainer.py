"""`compile`, `fit`, `evaluate`, `predict`: Keras's training loop over numpy arrays.

    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    history = model.fit(x, y, batch_size=32, epochs=5, validation_data=(xv, yv))
    history.history["loss"]        # one value per epoch
    model.evaluate(xv, yv)         # [loss, accuracy]
    model.predict(x)               # numpy, batch by batch
    model.fit(x, y, sample_weight=w)            # or class_weight={0: 1.0, 1: 5.0}
    model.train_on_batch(x, y)     # also test_on_batch, predict_on_batch
    model.save_weights("m.weights.h5"); model.load_weights("m.weights.h5")   # saving/saving_lib.py

Each step is one graph: `fit` wraps `train_step` (forward pass under a
GradientTape, loss, gradients, `optimizer.apply_gradients`, metric updates)
in a `tf.function` whose input signature has a free batch dimension, so the
whole of training traces it once (a smaller last batch reuses it). `evaluate`
and `predict` do the same with `test_step` and `predict_step`. With
`compile(run_eagerly=True)` the steps run as plain Python instead.

A weighted batch's loss is sum(weight * loss) / batch size (Keras's
"sum_over_batch_size"); compiled `metrics` ignore the weights and
`weighted_metrics` use them. At the start of each epoch the metrics are
reset; the loss reported for an epoch is the mean of its batch losses
weighted by batch size, as Keras does.
With `verbose=1` each epoch prints `Epoch i/n` and a finished progress line,
`verbose=2` the line without the bar, Keras's formats:

    Epoch 1/2
    4/4 ━━━━━━━━━━━━━━━━━━━━ 0s 3ms/step - accuracy: 0.6100 - loss: 0.6523
"""

import time
import warnings

import numpy as np

from runtime._src.autodiff.tape import GradientTape
from runtime._src.core import dtypes, nest
from runtime._src.core.tensor import Tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.function.function import function
from runtime._src.keras.callbacks import callback_list
from runtime._src.keras.callbacks import callback as callbacks_mod
from runtime._src.keras.trainers.data_adapters import data_adapter
from runtime._src.keras.utils import io_utils
from runtime._src.keras.optimizers import serialization as optimizers
from runtime._src.keras.saving import weights_file as saving
from runtime._src.keras.losses import losses as losses_mod
from runtime._src.keras.metrics import metrics as metrics_mod
from runtime._src.keras.callbacks.logging_callbacks import ProgbarLogger, progress_line
from runtime._src.keras.trainers import distributed_steps
from runtime._src.ops import array_ops, math_ops, random_ops, reduction_ops
from runtime._src.sparse.sparse_more import slice_sparse
from runtime._src.sparse.sparse_tensor import SparseTensor

__all__ = ["TrainingMixin", "TrainingState"]


class TrainingState:
    """What `compile` set up and the step functions traced for it."""

    def __init__(self):
        self.input_specs = None      # the first call's inputs, batch dimension free
        self.compiled = False
        self.loss = None
        self.metric_ids = []
        self.weighted_metric_ids = []
        self.metrics = None          # resolved on the first step (needs y and y_pred)
        self.loss_tracker = None
        self.output_losses = None    # [(output name, Loss, weight)] for several outputs
        self.output_trackers = []    # their "<output name>_loss" Means
        self.functions = {}          # (kind, specs) -> Function
        self.run_eagerly = False
        self.compile_args = None     # compile's arguments (the saved compile_config)


class TrainingMixin:
    """The training methods of `Model` (it holds `_keras_state`)."""

    # --- compile ----------------------------------------------------------------

    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None,
                weighted_metrics=None, run_eagerly=False, steps_per_execution=1,
                jit_compile="auto", **kwargs):
        """Set the optimizer, loss and metrics `fit` and `evaluate` use. As in
        Keras 3, `metrics` ignore sample weights and `weighted_metrics` (logged
        as "weighted_<name>") use them. A model
        with several outputs takes a list (in output order) or a dict (by output
        name) of losses, `loss_weights` likewise, and metrics as a list of lists
        or a dict of lists; each output's loss and metrics are logged as
        "<output name>_loss" and "<output name>_<metric name>"."""
        state = self._keras_state
        state.compile_args = {"optimizer": optimizer, "loss": loss, "metrics": metrics,
                              "loss_weights": loss_weights,
                              "weighted_metrics": weighted_metrics, "run_eagerly": run_eagerly}
        self.optimizer = optimizers.get(optimizer)
        state.compile_args["optimizer"] = self.optimizer
        self.loss = loss
        state.output_losses = None
        state.metrics = None
        state.loss_tracker = metrics_mod.Mean(name="loss")
        if isinstance(loss, (list, tuple, dict)):
            names = self._output_names()
            state.output_losses = [
                (name, losses_mod.as_loss(fn), 1.0 if w is None else float(w))
                for name, fn, w in zip(names, _by_output(loss, names, "loss"),
                                       _by_output(loss_weights, names, "loss_weights"))]
            state.loss = None
            state.metric_ids = _by_output(metrics, names, "metrics") if metrics else []
            state.output_trackers = [metrics_mod.Mean(name=f"{name}_loss")
                                     for name, _, _ in state.output_losses]
        else:
            state.loss = losses_mod.as_loss(loss)
            if isinstance(metrics, dict):
                raise TypeError("compile: metrics must be a list for a model with one output")
            state.metric_ids = list(metrics or [])
            state.output_trackers = []
        if weighted_metrics and state.output_losses is not None:
            raise TypeError("compile: weighted_metrics is not supported by runtime.keras for "
                            "a model with several outputs")
        state.weighted_metric_ids = list(weighted_metrics or [])
        state.functions = {}
        state.run_eagerly = bool(run_eagerly)
        # True: the train/test/predict steps are compiled with XLA through JAX
        # (tf.function(jit_compile=True)); "auto" (Keras 3's default) and
        # False run on our executor.
        state.jit_compile = jit_compile is True
        state.strategy = distributed_steps.strategy_of_scope()   # compiled under strategy.scope()
        state.compiled = True

    def _output_names(self):
        """The names `compile` matches per-output losses and metrics to."""
        outputs = getattr(self, "_outputs_struct", None)
        if isinstance(outputs, dict):
            return sorted(outputs)
        names = getattr(self, "output_names", None)
        if not names:
            raise ValueError("compile: a list or dict of losses needs a model with several "
                             "outputs (a functional Model)")
        return list(names)

    @property
    def metrics(self):
        state = self._keras_state
        if not state.compiled:
            return []
        if state.metric_ids or state.weighted_metric_ids or state.metrics:
            # Keras 3's one "compile_metrics" entry for the compiled metrics (resolved
            # by the first update_state: a metric's kind follows y and y_pred)
            return [state.loss_tracker] + list(state.output_trackers) + \
                [_CompileMetrics(self)]
        return [state.loss_tracker] + list(state.output_trackers)

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    def reset_metrics(self):
        for m in self.metrics:
            m.reset_state()

    # --- the steps (each traced once as a graph) -------------------------------------

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None):
        """The compiled loss of this batch (the weighted sum of the outputs' losses
        for a model with several) plus `self.losses` (add_loss, regularizers),
        each summed, as Keras 3 does."""
        state = self._keras_state
        if state.output_losses is not None:
            parts = self._output_loss_values(y, y_pred, sample_weight)
            total = None
            for (_, _, weight), value in zip(state.output_losses, parts):
                term = value if weight == 1.0 else value * weight
                total = term if total is None else total + term
        elif state.loss is not None:
            total = state.loss(y, y_pred, sample_weight)
        else:
            total = None
        for extra in self.losses:
            extra = reduction_ops.reduce_sum(extra)
            total = extra if total is None else total + math_ops.cast(extra, total.dtype)
        if total is None:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        return total

    def _output_loss_values(self, y, y_pred, sample_weight):
        state = self._keras_state
        names = [name for name, _, _ in state.output_losses]
        ys = _by_output(y, names, "y")
        preds = nest.flatten(y_pred)
        return [fn(t, p, sample_weight)
                for (_, fn, _), t, p in zip(state.output_losses, ys, preds)]

    def compute_metrics(self, x, y, y_pred, sample_weight=None, loss=None):
        """Update the loss tracker and the compiled metrics; their results."""
        state = self._keras_state
        multi = state.output_losses is not None
        if loss is not None:
            state.loss_tracker.update_state(loss, sample_weight=_batch_size(x, loss.dtype))
        if multi:
            for tracker, value in zip(state.output_trackers,
                                      self._output_loss_values(y, y_pred, sample_weight)):
                tracker.update_state(value, sample_weight=_batch_size(x, value.dtype))
        self._update_compiled_metrics(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def _resolve_metrics(self, y, y_pred):
        """The compiled metrics as objects, chosen for this y and y_pred
        ("accuracy" is binary, categorical or sparse by their shapes)."""
        state = self._keras_state
        if state.metrics is not None:
            return
        if state.output_losses is not None:
            ys = _by_output(y, self._output_names(), "y")
            preds = nest.flatten(y_pred)
            state.metrics = []
            for i, ids in enumerate(state.metric_ids):
                for identifier in ids or []:
                    m = metrics_mod.compile_metric(identifier, None, ys[i], preds[i])
                    m.name = f"{state.output_losses[i][0]}_{m.name}"
                    state.metrics.append((i, m))
            return
        state.metrics = [(None, metrics_mod.compile_metric(m, state.loss, y, y_pred))
                         for m in state.metric_ids]
        for identifier in state.weighted_metric_ids:
            m = metrics_mod.compile_metric(identifier, state.loss, y, y_pred)
            m.name = f"weighted_{m.name}"
            m._weighted = True
            state.metrics.append((None, m))

    def _update_compiled_metrics(self, y, y_pred, sample_weight=None):
        state = self._keras_state
        self._resolve_metrics(y, y_pred)
        if state.output_losses is not None:
            ys = _by_output(y, self._output_names(), "y")
            preds = nest.flatten(y_pred)
            for i, m in state.metrics:
                m.update_state(ys[i], preds[i])
            return
        for _, m in state.metrics:
            m.update_state(y, y_pred, sample_weight if getattr(m, "_weighted", False) else None)

    def get_metrics_result(self):
        """{name: result} of `metrics`, a metric whose result is a dict (the
        compiled metrics) giving its entries in its place, as Keras 3."""
        out = {}
        for m in self.metrics:
            result = m.result()
            if isinstance(result, dict):
                out.update(result)
            else:
                out[m.name] = result
        return out

    def train_step(self, data):
        """Forward pass, loss, gradients, one optimizer step; the metrics."""
        x, y, sample_weight = unpack_data(data)
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight)
            scaled = self.optimizer.scale_loss(loss) if hasattr(self.optimizer, "scale_loss") \
                else loss           # LossScaleOptimizer, as Keras's train step
            replicas = distributed_steps.replicas_in_sync()
            if replicas > 1:        # the replicas' gradients are summed
                scaled = scaled / replicas
        variables = self.trainable_variables
        if variables:
            grads = tape.gradient(scaled, variables)
            self.optimizer.apply_gradients(zip(grads, variables))
        else:
            warnings.warn("The model does not have any trainable weights.", stacklevel=2)
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
        """The traced `<kind>_step` for batches shaped like `arrays` ((x,) or
        (x, y), each an array or a list or dict of arrays)."""
        state = self._keras_state
        specs = nest.map_structure(_batch_free_spec_of, tuple(arrays))
        key = (kind, _structure_key(specs))
        fn = state.functions.get(key)
        if fn is None:
            step = getattr(self, f"{kind}_step")
            if len(specs) == 1:
                def run_step(x):
                    return step((x,))
            elif len(specs) == 2:
                def run_step(x, y):
                    return step((x, y))
            else:
                def run_step(x, y, sample_weight):
                    return step((x, y, sample_weight))
            run_step.__name__ = f"{kind}_function"
            fn = run_step if state.run_eagerly else function(
                run_step, input_signature=list(specs),
                jit_compile=getattr(state, "jit_compile", False))
            strategy = getattr(state, "strategy", None)
            if strategy is not None and strategy.num_replicas_in_sync > 1 \
                    and not state.run_eagerly:
                fn = distributed_steps.distributed_step(strategy, run_step, kind, fn)
            state.functions[key] = fn
        return fn

    # --- fit / evaluate / predict --------------------------------------------------

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, **kwargs):
        """Train for `epochs` passes over (x, y) in batches; returns a History.
        `validation_data` (x, y) or (x, y, sample_weight), or `validation_split`
        (the last fraction of the samples, taken before shuffling) add "val_"
        logs to each epoch. `sample_weight` (one weight per sample) or
        `class_weight` ({class id: weight}) weight each sample's loss."""
        _refuse("fit", **kwargs)
        self._check_compiled("fit")
        if data_adapter.is_stream(x):           # a tf.data.Dataset or a generator
            return data_adapter.fit(self, x, y, **_stream_args(locals(), data_adapter.fit))
        arrays = _as_arrays(x, y, "fit", sample_weight, class_weight)
        if validation_split and validation_data is None:
            arrays, validation_data = _split(arrays, validation_split)
        if validation_data is not None:
            val = tuple(validation_data)
            validation_data = _as_arrays(val[0], val[1] if len(val) > 1 else None, "fit",
                                         val[2] if len(val) > 2 else None)
        n = _num_samples(arrays)
        batch_size = batch_size or 32
        epochs = data_adapter.capped_epochs(epochs)
        steps = data_adapter.capped_steps(steps_per_epoch) or max(1, -(-n // batch_size))
        verbose = 1 if verbose == "auto" else verbose
        history = callbacks_mod.History()
        params = {"verbose": verbose, "epochs": epochs, "steps": steps}
        hooks = callback_list.CallbackList(_with_defaults(callbacks, history, verbose),
                                           model=self, **params)
        batch_logs = hooks.overrides("on_batch_begin", "on_batch_end", "on_train_batch_begin",
                                     "on_train_batch_end")
        train = self._step_function("train", arrays)
        self.stop_training = False
        self._initial_epoch = None          # BackupAndRestore sets it in on_train_begin
        hooks.call("on_train_begin", {})
        epoch_logs = None
        val_steps = data_adapter.capped_steps(None) if validation_data is not None else None
        for epoch in range(self._initial_epoch or initial_epoch, epochs):
            self.reset_metrics()
            hooks.call("on_epoch_begin", epoch, {})
            order = _permutation(n) if shuffle else np.arange(n)
            logs = {}
            for step, batch in enumerate(_batches(arrays, batch_size, order)):
                if step >= steps:
                    break
                if batch_logs:
                    hooks.call("on_train_batch_begin", step, {})
                logs = train(*batch)
                if batch_logs:
                    hooks.call("on_train_batch_end", step, _to_floats(logs))
                if self.stop_training:
                    break
            epoch_logs = _to_floats(logs)
            if validation_data is not None:
                val = self._evaluate_arrays(validation_data, batch_size, hooks, val_steps)
                epoch_logs.update({f"val_{k}": v for k, v in val.items()})
            hooks.call("on_epoch_end", epoch, epoch_logs)
            if self.stop_training:
                break
        self._finalize_optimizer(epochs)
        hooks.call("on_train_end", epoch_logs)
        return history

    def _finalize_optimizer(self, epochs):
        """fit's last step before on_train_end, as Keras's: the optimizer's final
        values (with use_ema, the weights take their moving averages)."""
        finalize = getattr(self.optimizer, "finalize_variable_values", None)
        if finalize is not None and epochs > 0:
            finalize(self.trainable_weights)

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, callbacks=None, return_dict=False, **kwargs):
        """The loss (and metrics) over (x, y): a float, or [loss, metric, ...];
        `sample_weight` weights each sample's loss (and the weighted metrics)."""
        _refuse("evaluate", **kwargs)
        self._check_compiled("evaluate")
        if data_adapter.is_stream(x):
            logs = data_adapter.evaluate(self, x, y,
                                         **_stream_args(locals(), data_adapter.evaluate))
            return self._returned_logs(logs, return_dict)
        arrays = _as_arrays(x, y, "evaluate", sample_weight)
        verbose = 1 if verbose == "auto" else verbose
        batches = max(1, -(-_num_samples(arrays) // (batch_size or 32)))
        limit = data_adapter.capped_steps(None)
        batches = min(batches, limit or batches)
        hooks = callback_list.CallbackList(callbacks, model=self, verbose=verbose, epochs=1,
                                           steps=batches)
        start = time.perf_counter()
        logs = self._evaluate_arrays(arrays, batch_size or 32, hooks, limit)
        if verbose:
            io_utils.print_msg(progress_line(batches, time.perf_counter() - start, logs,
                                             verbose))
        return self._returned_logs(logs, return_dict)

    def _returned_logs(self, logs, return_dict):
        """`logs`, or their values as Keras 3 lists them (a float for one): those
        named in `metrics_names` first, then the others by name."""
        if return_dict:
            return logs
        names = self.metrics_names
        values = [logs[name] for name in names if name in logs]
        values += [logs[key] for key in sorted(logs) if key not in names]
        return values[0] if len(values) == 1 else values

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None,
                       return_dict=False):
        """One optimizer step on this batch; its loss and metrics (the metrics
        are reset first, as Keras does)."""
        self._check_compiled("train_on_batch")
        return self._run_on_batch("train", _as_arrays(x, y, "train_on_batch", sample_weight,
                                                      class_weight), return_dict)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        """The loss and metrics of this batch (training=False)."""
        self._check_compiled("test_on_batch")
        return self._run_on_batch("test", _as_arrays(x, y, "test_on_batch", sample_weight),
                                  return_dict)

    def predict_on_batch(self, x):
        """The model's outputs on this batch, as numpy."""
        arrays = (_as_array_structure(x, "predict_on_batch"),)
        return nest.map_structure(np.asarray, self._step_function("predict", arrays)(*arrays))

    def _run_on_batch(self, kind, arrays, return_dict):
        self.reset_metrics()
        logs = _to_floats(self._step_function(kind, arrays)(*arrays))
        return self._returned_logs(logs, return_dict)

    def _evaluate_arrays(self, arrays, batch_size, hooks, steps=None):
        self.reset_metrics()
        test = self._step_function("test", arrays)
        batch_logs = hooks.overrides("on_test_batch_begin", "on_test_batch_end")
        hooks.call("on_test_begin", {})
        logs = {}
        for step, batch in enumerate(_batches(arrays, batch_size,
                                              np.arange(_num_samples(arrays)))):
            if steps and step >= steps:
                break
            if batch_logs:
                hooks.call("on_test_batch_begin", step, {})
            logs = test(*batch)
            if batch_logs:
                hooks.call("on_test_batch_end", step, _to_floats(logs))
        logs = _to_floats(logs)
        hooks.call("on_test_end", logs)
        return logs

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None,
                **kwargs):
        """The model's outputs on x (training=False), as numpy, computed batch by batch."""
        _refuse("predict", **kwargs)
        if data_adapter.is_stream(x):
            return data_adapter.predict(self, x, steps=steps)
        if isinstance(x, SparseTensor):        # Keras 3 on TF: row batches of the SparseTensor
            n = int(x.dense_shape.numpy()[0])
            inputs = (_sparse_rows(x, i, batch_size or 32) for i in range(0, n, batch_size or 32))
            predict = self.predict_step
        else:
            arrays = (_as_array_structure(x, "predict"),)
            predict = self._step_function("predict", arrays)
            n = _num_samples(arrays)
            inputs = _batches(arrays, batch_size or 32, np.arange(n))
        batches = max(1, -(-n // (batch_size or 32)))
        hooks = callback_list.CallbackList(callbacks, model=self, verbose=verbose, epochs=1,
                                           steps=batches)
        start = time.perf_counter()
        hooks.call("on_predict_begin", {})
        outputs = []
        for step, batch in enumerate(inputs):
            hooks.call("on_predict_batch_begin", step, {})
            outputs.append(predict(*batch))
            hooks.call("on_predict_batch_end", step, {"outputs": outputs[-1]})
        hooks.call("on_predict_end", {})
        if not outputs:
            raise ValueError("predict: x has no samples")
        verbose = 1 if verbose == "auto" else verbose
        if verbose:              # Keras 3.15's line: "3/3 ━━━━ 0s 2ms/step"
            io_utils.print_msg(progress_line(len(outputs), time.perf_counter() - start, {},
                                             verbose))
        return nest.map_structure(lambda *parts: np.concatenate([np.asarray(p) for p in parts]),
                                  *outputs)

    def _check_compiled(self, what):
        if not self._keras_state.compiled:
            raise ValueError("You must call `compile()` before using the model.")


# --- helpers --------------------------------------------------------------------------

def _refuse(method, **arguments):
    """TypeError for arguments Keras has and this subset does not implement."""
    given = sorted(k for k, v in arguments.items() if v is not None)
    if given:
        raise TypeError(f"{method}: argument {given[0]!r} is not supported by runtime.keras "
                        "(supported: x, y, batch_size, epochs, verbose, callbacks, "
                        "validation_data, validation_split, shuffle, class_weight, "
                        "sample_weight, initial_epoch, steps_per_epoch)"
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


def _as_array_structure(value, what):
    """An array, or a list / tuple / dict of arrays (a model with several inputs)."""
    if isinstance(value, (list, tuple)) and value and all(
            isinstance(v, (np.ndarray, Tensor, list, tuple, dict)) for v in value) and \
            not _is_rectangular(value):
        return [_as_array_structure(v, what) for v in value]
    if isinstance(value, dict):
        return {k: _as_array_structure(v, what) for k, v in value.items()}
    return _as_array(value, what)


def _is_rectangular(value):
    """Whether a list is one array's worth of numbers (not a list of input arrays)."""
    if not all(isinstance(v, np.ndarray) or isinstance(v, (list, tuple)) for v in value):
        return False
    try:
        arr = np.asarray(value)
    except ValueError:
        return False
    return arr.dtype != object and not all(isinstance(v, (np.ndarray, Tensor)) for v in value)


def _num_samples(arrays):
    return len(nest.flatten(arrays)[0])


def _as_arrays(x, y, what, sample_weight=None, class_weight=None):
    """(x,), (x, y) or (x, y, sample_weight) as arrays with as many samples
    each; `class_weight` becomes the sample weights as in Keras."""
    if x is None:
        raise ValueError(f"{what}: x is required")
    if sample_weight is not None and class_weight is not None:
        raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
    arrays = (_as_array_structure(x, what),) if y is None else \
        (_as_array_structure(x, what), _as_array_structure(y, what))
    if class_weight is not None and y is not None:
        if isinstance(arrays[1], (list, tuple, dict)):
            raise ValueError("`class_weight` is only supported for Models with a single "
                             "output.")
        sample_weight = _class_weights_to_sample_weights(arrays[1], class_weight)
    if sample_weight is not None and y is not None:
        if isinstance(sample_weight, (list, tuple, dict)):
            raise TypeError(f"{what}: one sample_weight array per output is not supported "
                            "by runtime.keras: pass one array (it weights every output)")
        arrays += (_as_array(sample_weight, what),)
    sizes = [sorted({len(a) for a in nest.flatten(part)}) for part in arrays]
    if len({n for part in sizes for n in part}) > 1:
        names = ("x", "y", "sample_weight")
        raise ValueError("Data cardinality is ambiguous. Make sure all arrays contain the "
                         "same number of samples." + "".join(
                             f"'{name}' sizes: {', '.join(map(str, part))}\n"
                             for name, part in zip(names, sizes)))
    return arrays


def _class_weights_to_sample_weights(y, class_weight):
    """Each sample's weight: `class_weight` of its class (argmax of a one-hot
    row), 1.0 for a class not listed, as Keras does."""
    labels = np.asarray(y)
    if labels.ndim > 1:
        labels = labels.argmax(axis=-1) if labels.shape[-1] != 1 else labels[..., 0]
    labels = np.round(labels).astype(np.int32)
    return np.array([class_weight.get(int(c), 1.0) for c in labels], np.float32)


def _split(arrays, fraction):
    """(training arrays, validation arrays): the last `fraction` of samples validate."""
    cut = int(_num_samples(arrays) * (1.0 - fraction))
    return (nest.map_structure(lambda a: a[:cut], arrays),
            nest.map_structure(lambda a: a[cut:], arrays))


def _by_output(value, names, what):
    """`value` (one per output: a list in output order or a dict by name) as a list."""
    if value is None:
        return [None] * len(names)
    if isinstance(value, dict):
        unknown = sorted(set(value) - set(names))
        if unknown:
            raise ValueError(f"compile: {what} has keys {unknown} that are not outputs of the "
                             f"model (its outputs: {names})")
        return [value.get(name) for name in names]
    if isinstance(value, (list, tuple)):
        if len(value) != len(names):
            raise ValueError(f"compile: {what} has {len(value)} entries but the model has "
                             f"{len(names)} outputs {names}")
        return list(value)
    return [value] * len(names) if what != "y" else nest.flatten(value)


def _structure_key(specs):
    """A hashable key of nested TensorSpecs: structure, dtypes and shapes."""
    flat = nest.flatten(specs)
    shape = nest.map_structure(lambda _: 0, specs)
    return (repr(shape), tuple((s.dtype, tuple(s.shape.dims)) for s in flat))


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
        yield nest.map_structure(lambda a: a[index], tuple(arrays))


def _stream_args(arguments, adapter):
    """The keyword arguments of a data_adapter function, from fit/evaluate's."""
    helpers = {"progress_line": progress_line, "to_floats": _to_floats}
    names = adapter.__code__.co_varnames[3:adapter.__code__.co_argcount +
                                         adapter.__code__.co_kwonlyargcount]
    return {n: helpers[n] if n in helpers else arguments[n] for n in names}


class _CompileMetrics:
    """`model.metrics`' entry for the compiled metrics before they are
    resolved (Keras 3's "compile_metrics"): a train_step written against
    Keras's guide updates it with (y, y_pred); its result is a dict, which
    the logs flatten."""

    name = "compile_metrics"

    def __init__(self, model):
        self._model = model

    def update_state(self, y_true, y_pred, sample_weight=None):
        self._model._update_compiled_metrics(y_true, y_pred, sample_weight)

    @property
    def metrics(self):
        """The compiled metrics (once resolved), as Keras 3's CompileMetrics."""
        return [m for _, m in self._model._keras_state.metrics or []]

    @property
    def variables(self):
        return [v for m in self.metrics for v in m.variables]

    def result(self):
        return {m.name: m.result() for m in self.metrics}

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()


def _sparse_rows(x, start, size):
    """(rows start.. start + size of a 2-D or wider SparseTensor,): a predict batch."""
    shape = x.dense_shape.numpy()
    return (slice_sparse(x, [start] + [0] * (len(shape) - 1), [size] + list(shape[1:])),)


def _flat_logs(logs):
    """Nested dicts of results (a step returning compile_metrics' dict) as one,
    in Keras 3.15's order: each level's keys sorted, a nested dict's entries
    where its key sorts ({"loss", "compile_metrics": {"mae"}} -> mae, loss)."""
    out = {}
    for k, v in sorted(logs.items()):
        if isinstance(v, dict):
            out.update(_flat_logs(v))
        else:
            out[k] = v
    return out


def _to_floats(logs):
    """Scalars as floats; a metric with several values (Precision with several
    thresholds, F1Score per class) as a list of them."""
    out = {}
    for k, v in _flat_logs(logs).items():
        value = np.asarray(v)
        out[k] = float(value) if value.ndim == 0 else value.astype(float).tolist()
    return out


def _with_defaults(callbacks, history, verbose):
    """The user's callbacks, then the History `fit` returns, then a
    ProgbarLogger when `verbose` and none was given (Keras 3's order)."""
    found = list(callbacks or []) + [history]
    if verbose and not any(isinstance(cb, ProgbarLogger) for cb in found):
        found.append(ProgbarLogger())
    return found
