"""`tf.keras.callbacks.TensorBoard(log_dir)`: what Keras 3's callback writes.

    model.fit(x, y, epochs=5, callbacks=[tf.keras.callbacks.TensorBoard("logs")])

Into `log_dir/train`: `epoch_loss`, `epoch_<metric>` and `epoch_learning_rate`
at step = epoch, the graph of the traced training step (after the first
batch, with `write_graph=True`), and with `histogram_freq=n` every n epochs a
histogram of each weight under its path (`sequential/dense/kernel/histogram`:
the layers that made it, then its name), and with `write_images=True` the
weight as an image (`sequential/dense/kernel/image`). Into
`log_dir/validation`: the `val_` logs, without the prefix (`epoch_loss`), and
`evaluation_<name>_vs_iterations` at step = the optimizer's iterations.
With `update_freq="batch"` (or n) `batch_<name>` every (n-th) batch, and
summaries the model writes itself go to the train writer. Event files are
written with tensorboard (runtime/_src/summary); profiling is not available.
"""

import numpy as np

from runtime._src.function.variables import Variable
from runtime._src.keras.callbacks.callback import Callback
from runtime._src.summary import summary_ops, trace
from runtime._src.summary.writer import create_file_writer

__all__ = ["TensorBoard"]


class TensorBoard(Callback):
    def __init__(self, log_dir="logs", histogram_freq=0, write_graph=True, write_images=False,
                 write_steps_per_second=False, update_freq="epoch", profile_batch=0,
                 embeddings_freq=0, embeddings_metadata=None):
        super().__init__()
        if update_freq != "epoch" and update_freq != "batch" and \
                not (isinstance(update_freq, int) and update_freq > 0):
            raise ValueError(f"TensorBoard: update_freq must be 'epoch', 'batch' or a "
                             f"positive int, got {update_freq!r}")
        self.log_dir = str(log_dir)
        self.histogram_freq = histogram_freq
        self.write_graph = write_graph
        self.write_images = write_images
        self.write_steps_per_second = write_steps_per_second
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self._writers = {}
        self._pushed = []
        self._graph_pending = False
        self._global_train_batch = 0

    def set_model(self, model):
        super().set_model(model)
        self._writers = {}
        self._graph_pending = bool(self.write_graph)

    def _writer(self, kind):
        if kind not in self._writers:
            sub = "train" if kind == "train" else "validation"
            self._writers[kind] = create_file_writer(f"{self.log_dir}/{sub}")
        return self._writers[kind]

    # --- the default writer for batch-level summaries --------------------------------

    def _push(self, kind, step):
        if self.update_freq == "epoch":
            return
        freq = self.update_freq
        contexts = (self._writer(kind).as_default(step),
                    summary_ops.record_if(lambda: step % freq == 0))
        for c in contexts:
            c.__enter__()
        self._pushed.append(contexts)

    def _pop(self):
        if self.update_freq == "epoch" or not self._pushed:
            return
        for c in reversed(self._pushed.pop()):
            c.__exit__(None, None, None)

    # --- hooks ------------------------------------------------------------------------

    def on_train_begin(self, logs=None):
        self._global_train_batch = 0
        self._push("train", 0)

    def on_train_end(self, logs=None):
        self._pop()
        for writer in self._writers.values():
            writer.close()
        self._writers = {}

    def on_test_begin(self, logs=None):
        self._push("val", self._global_train_batch)

    def on_test_end(self, logs=None):
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is not None and logs:
            with self._writer("val").as_default():
                for name, value in logs.items():
                    summary_ops.scalar(f"evaluation_{name}_vs_iterations", value,
                                       step=optimizer.iterations)
        self._pop()

    def on_train_batch_begin(self, batch, logs=None):
        self._global_train_batch += 1
        if self.update_freq != "epoch":
            self._pop()
            self._push("train", self._global_train_batch)

    def on_train_batch_end(self, batch, logs=None):
        if self._graph_pending:
            self._graph_pending = False
            self._write_train_graph()
        if self.update_freq != "epoch" and isinstance(logs, dict):
            for name, value in logs.items():
                summary_ops.scalar(f"batch_{name}", value, step=self._global_train_batch)

    def on_epoch_end(self, epoch, logs=None):
        self._log_epoch(epoch, logs or {})
        if self.histogram_freq and epoch % self.histogram_freq == 0:
            self._log_weights(epoch)

    # --- what is written ----------------------------------------------------------------

    def _write_train_graph(self):
        functions = getattr(getattr(self.model, "_keras_state", None), "functions", {})
        for key, fn in functions.items():
            concretes = getattr(fn, "_list_all_concrete_functions", lambda: [])()
            if key[0] == "train" and concretes:
                with self._writer("train").as_default():
                    trace.graph(concretes[0].graph)
                return

    def _log_epoch(self, epoch, logs):
        train = {k: v for k, v in logs.items() if not k.startswith("val_")}
        val = {k[4:]: v for k, v in logs.items() if k.startswith("val_")}
        rate = getattr(getattr(self.model, "optimizer", None), "learning_rate", None)
        if rate is not None:
            train["learning_rate"] = float(rate.numpy() if hasattr(rate, "numpy") else rate)
        for kind, values in (("train", train), ("val", val)):
            if values:
                with self._writer(kind).as_default():
                    for name, value in values.items():
                        summary_ops.scalar(f"epoch_{name}", value, step=epoch)

    def _log_weights(self, epoch):
        writer = self._writer("train")
        with writer.as_default():
            for layer in self.model.layers:
                for weight in layer.weights:
                    name = _tag_name(weight)
                    value = weight.read_value() if isinstance(weight, Variable) else weight
                    summary_ops.histogram(f"{name}/histogram", value, step=epoch)
                    if self.write_images:
                        image = _weight_image(weight.numpy())
                        if image is not None:
                            summary_ops.image(f"{name}/image", image, step=epoch)
        writer.flush()


def _tag_name(weight):
    """A weight's tag, as Keras 3 names it: its path (the layers that made it,
    then its name: `sequential/dense/kernel`), ':' written '_'."""
    name = getattr(weight, "path", None) or weight.name
    if name.endswith(":0"):
        name = name[:-2]
    return name.replace(":", "_")


def _weight_image(w):
    """A weight as Keras 3 shows it: a bias as a 1-pixel-high strip, a kernel as a
    (wide) grayscale image, a conv kernel as one image per output channel."""
    w = np.squeeze(w)
    if w.ndim == 1:
        w = w.reshape(1, w.shape[0], 1, 1)
    elif w.ndim == 2:
        if w.shape[0] > w.shape[1]:
            w = w.T
        w = w.reshape(1, w.shape[0], w.shape[1], 1)
    elif w.ndim == 3:
        w = np.transpose(w, (2, 0, 1))
        w = w.reshape(w.shape[0], w.shape[1], w.shape[2], 1)
    if w.ndim == 4 and w.shape[-1] in (1, 3, 4):
        return w.astype(np.float32)
    return None
