"""The recurrent layers: `SimpleRNN`, `LSTM`, `GRU` (Keras 3's defaults).

    LSTM(units, return_sequences=False, return_state=False, go_backwards=False,
         stateful=False)
        inputs (batch, time, features) -> (batch, units), or (batch, time, units)
        with return_sequences; return_state adds the final states ([h, c] for
        LSTM, [h] for GRU and SimpleRNN): [output, *states]

`call(inputs, initial_state=None, mask=None, training=None)`: `mask`
(batch, time) bool marks the steps to use; a masked step keeps the previous
output and states. `Embedding(..., mask_zero=True)` before the layer in a
`Sequential` or functional model passes its mask on. `dropout` and
`recurrent_dropout` draw one mask per call, used at every step. With
`stateful=True` the last states carry over from call to call (rnn_state.py).

The time loop is `rnn_loop.time_loop`: one staged `while_loop` in a graph
(the step is traced once, whatever the sequence length), a Python loop
eagerly. The input projection `x @ kernel + bias` runs once for all steps
before the loop. An LSTM without a mask or recurrent dropout uses
`lstm_fused.lstm_sequence` instead: the same forward loop, and a
hand-written backward loop in place of the autodiff of the step.
"""

from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.layers.layer import InputSpec
from runtime._src.keras.layers.layer import ConfigurableLayer, base_config
from runtime._src.keras.layers.rnn.recurrent_cells import (CELL_ORDER, GRUCell, LSTMCell,
                                                         SimpleRNNCell, in_order)
from runtime._src.keras.layers.rnn.rnn_loop import time_loop
from runtime._src.keras.layers.rnn.rnn_state import StatefulRNN
from runtime._src.ops import array_ops, shape_ops

__all__ = ["SimpleRNN", "LSTM", "GRU", "RNNBase"]

_RNN_KEYS = ("return_sequences", "return_state", "go_backwards", "stateful", "unroll",
             "zero_output_for_mask")
# Keras 3.15's order of an LSTM/GRU/SimpleRNN config: the RNN's keys, then its cell's
# (an LSTM's unit_forget_bias after the initializers)
_LAYER_ORDER = ("name", "trainable", "dtype") + _RNN_KEYS + (
    "units", "activation", "recurrent_activation", "use_bias", "kernel_initializer",
    "recurrent_initializer", "bias_initializer", "unit_forget_bias") + CELL_ORDER[11:]
_LAYER_KEYS = ("name", "trainable", "dtype", "input_shape", "batch_input_shape",
               "batch_size", "input_dim", "activity_regularizer")


class RNNBase(StatefulRNN, ConfigurableLayer):
    """A recurrent layer around one of the cells in layers/rnn/recurrent_cells.py."""

    _cell_class = None
    _cell_name = None

    def __init__(self, units, **kwargs):
        rnn = {k: kwargs.pop(k) for k in _RNN_KEYS if k in kwargs}
        layer = {k: kwargs.pop(k) for k in _LAYER_KEYS if k in kwargs}
        kwargs.pop("use_cudnn", None)
        super().__init__(**layer)
        self.return_sequences = bool(rnn.get("return_sequences", False))
        self.return_state = bool(rnn.get("return_state", False))
        self.go_backwards = bool(rnn.get("go_backwards", False))
        self.stateful = bool(rnn.get("stateful", False))
        self.unroll = bool(rnn.get("unroll", False))
        self.zero_output_for_mask = bool(rnn.get("zero_output_for_mask", False))
        self.cell = self._cell_class(units, name=self._cell_name,
                                     dtype=layer.get("dtype"), **kwargs)
        self.input_spec = InputSpec(ndim=3)

    @property
    def units(self):
        return self.cell.units

    def build(self, input_shape):
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        if input_shape[-1] is None:
            raise ValueError(f'Layer "{self.name}": the last dimension of its input must be '
                             f"known to build the kernel; got input shape {input_shape}")
        self.cell.build(tuple(input_shape))
        self._build_states(input_shape)
        self.built = True

    def _zero_states(self, batch_size):
        return self.cell.get_initial_state(batch_size)

    def call(self, inputs, initial_state=None, mask=None, training=False):
        cell = self.cell
        if mask is not None and isinstance(mask, (list, tuple)):
            mask = mask[0]
        if self.go_backwards:
            inputs = shape_ops.reverse(inputs, [1])
            if mask is not None:
                mask = shape_ops.reverse(mask, [1])
        inputs = cell.prepare(inputs, training)
        if initial_state is None and self.stateful:
            states = list(self._stored_states(inputs))
        elif initial_state is None:
            states = cell.get_initial_state(array_ops.shape(inputs)[0])
        else:
            states = list(initial_state) if isinstance(initial_state, (list, tuple)) \
                else [initial_state]
        time_major = array_ops.transpose(inputs, [1, 0, 2])
        projected = cell.project(time_major)
        if mask is not None:
            mask = array_ops.transpose(mask, [1, 0])
        if mask is None and hasattr(cell, "fused_loop") and cell._fused_applies():
            outputs, last, states = cell.fused_loop(projected, states, self.return_sequences)
        else:
            outputs, last, states = time_loop(cell.step, projected, states, mask=mask,
                                              return_sequences=self.return_sequences,
                                              zero_output=self.zero_output_for_mask)
        self._keep_states(states)
        output = array_ops.transpose(outputs, [1, 0, 2]) if self.return_sequences else last
        if self.return_state:
            return [output, *states]
        return output

    def compute_output_shape(self, input_shape):
        batch, steps = input_shape[0], input_shape[1]
        out = (batch, steps, self.units) if self.return_sequences else (batch, self.units)
        if self.return_state:
            sizes = self.cell.state_size
            sizes = sizes if isinstance(sizes, list) else [sizes]
            return [out] + [(batch, n) for n in sizes]
        return out

    def compute_mask(self, inputs, mask):
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None] * len(_as_list(self.cell.state_size))
        return output_mask

    def get_config(self):
        config = base_config(self)
        cell = self.cell.get_config()
        for key in ("name", "trainable", "dtype"):
            cell.pop(key, None)
        config.update(cell)
        config["activity_regularizer"] = serialization.serialize_keras_object(
            self.activity_regularizer)
        config.update({k: getattr(self, k) for k in _RNN_KEYS})
        return in_order(config, _LAYER_ORDER)


def _as_list(sizes):
    return sizes if isinstance(sizes, list) else [sizes]


class SimpleRNN(RNNBase):
    """`keras.layers.SimpleRNN(units, activation="tanh", use_bias=True, ...,
    return_sequences=False, return_state=False, go_backwards=False)`."""

    _cell_class = SimpleRNNCell
    _cell_name = "simple_rnn_cell"


class LSTM(RNNBase):
    """`keras.layers.LSTM(units, activation="tanh", recurrent_activation="sigmoid",
    use_bias=True, unit_forget_bias=True, dropout=0.0, recurrent_dropout=0.0,
    return_sequences=False, return_state=False, go_backwards=False)`."""

    _cell_class = LSTMCell
    _cell_name = "lstm_cell"


class GRU(RNNBase):
    """`keras.layers.GRU(units, activation="tanh", recurrent_activation="sigmoid",
    use_bias=True, reset_after=True, dropout=0.0, recurrent_dropout=0.0,
    return_sequences=False, return_state=False, go_backwards=False)`."""

    _cell_class = GRUCell
    _cell_name = "gru_cell"
