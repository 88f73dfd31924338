"""`keras.callbacks.SwapEMAWeights(swap_on_epoch=False)`: evaluate and predict
with the optimizer's moving averages of the weights (`use_ema=True`).

    model.compile(optimizer=SGD(use_ema=True), ...)
    model.fit(x, y, validation_data=..., callbacks=[SwapEMAWeights()])

Before each evaluation or prediction the model's trainable variables and the
optimizer's averages trade places, and trade back after it. With
swap_on_epoch=True they trade at the end of each epoch (so callbacks placed
after this one, a ModelCheckpoint, see the averages) and back at the start of
the next. The trade is done in place by sums, as Keras does on TensorFlow
(a = a + b; b = a - b; a = a - b), so the values round as Keras's do.
"""

from runtime._src.keras.callbacks.callback import Callback

__all__ = ["SwapEMAWeights"]


def _pairs(optimizer):
    return list(optimizer._averages.values())


def _swap(optimizer):
    for var, average in _pairs(optimizer):
        var.assign_add(average.read_value())
        average.assign(var.read_value() - average.read_value())
        var.assign(var.read_value() - average.read_value())


def _keep_weights(optimizer):
    """The averages take the weights now in the model, so that `fit`'s final
    overwrite with the averages leaves those weights."""
    for var, average in _pairs(optimizer):
        average.assign(var.read_value())


class SwapEMAWeights(Callback):
    """Swaps the model's weights and the optimizer's moving averages around
    evaluation and prediction (and, with swap_on_epoch, around epoch ends)."""

    def __init__(self, swap_on_epoch=False):
        super().__init__()
        self.swap_on_epoch = swap_on_epoch
        self._ema_weights_in_model = False

    def _ema_optimizers(self):
        optimizer = self.model.optimizer
        optimizer = getattr(optimizer, "inner_optimizer", optimizer)   # LossScaleOptimizer
        inner = getattr(optimizer, "optimizers", None)
        if inner is None:
            if not optimizer.use_ema:
                raise ValueError("SwapEMAWeights must be used when `use_ema=True` is set on "
                                 f"the optimizer. Received: use_ema={optimizer.use_ema}")
            return [optimizer]
        found = [opt for opt in inner if getattr(opt, "use_ema", False)]
        if not found:
            raise ValueError("SwapEMAWeights must be used when at least one inner optimizer "
                             "has `use_ema=True` set. Received a MultiOptimizer with all inner "
                             "optimizers having `use_ema=False`.")
        return found

    def _apply(self, fn):
        for optimizer in self._ema_optimizers():
            fn(optimizer)

    def on_epoch_begin(self, epoch, logs=None):
        if self.swap_on_epoch and self._ema_weights_in_model:
            self._apply(_swap)
            self._ema_weights_in_model = False

    def on_epoch_end(self, epoch, logs=None):
        if self.swap_on_epoch and not self._ema_weights_in_model:
            self._apply(_swap)
            self._ema_weights_in_model = True
            if epoch == self.params["epochs"] - 1:
                self._apply(_keep_weights)

    def on_test_begin(self, logs=None):
        if not self._ema_weights_in_model:
            self._apply(_swap)
            self._ema_weights_in_model = True

    def on_test_end(self, logs=None):
        if self._ema_weights_in_model:
            self._apply(_swap)
            self._ema_weights_in_model = False

    def on_predict_begin(self, logs=None):
        if not self._ema_weights_in_model:
            self._apply(_swap)
            self._ema_weights_in_model = True

    def on_predict_end(self, logs=None):
        if not self._ema_weights_in_model:   # as Keras 3.15: swaps back only if not swapped
            self._apply(_swap)
            self._ema_weights_in_model = False
