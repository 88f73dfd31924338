"""`keras.layers.RNN(cell)`: the time loop around any cell, and
`StackedRNNCells(cells)`, several cells run one after the other at each step.

A cell is a layer (or any object) with
- `state_size`: an int, or a list of ints (one per state tensor; a list of
  such lists for stacked cells);
- `call(inputs, states)` (optionally `training=`) -> (output, new_states),
  inputs (batch, features), states a list of (batch, size) tensors;
- optionally `output_size` (else `state_size[0]`) and
  `get_initial_state(batch_size=None)` (else zeros).

    RNN(cell, return_sequences=False, return_state=False, go_backwards=False,
        unroll=False, zero_output_for_mask=False)
    RNN([cell1, cell2])          the same as RNN(StackedRNNCells([cell1, cell2]))

The loop is rnn_loop.time_loop (one staged While in a graph). The built-in
cells (SimpleRNNCell, LSTMCell, GRUCell) run as in SimpleRNN, LSTM and GRU.
"""

from runtime._src.core import nest
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.layers.layer import InputSpec, Layer, _call_parameters
from runtime._src.keras.layers.layer import base_config
from runtime._src.keras.layers.rnn.recurrent import RNNBase
from runtime._src.keras.layers.rnn.recurrent_cells import _Cell
from runtime._src.keras.layers.rnn.rnn_loop import time_loop
from runtime._src.keras.layers.rnn.rnn_state import StatefulRNN
from runtime._src.ops import array_ops, shape_ops

__all__ = ["RNN", "StackedRNNCells"]

_RNN_KEYS = ("return_sequences", "return_state", "go_backwards", "stateful", "unroll",
             "zero_output_for_mask")


def _output_size(cell):
    size = getattr(cell, "output_size", None)
    if size is not None:
        return size
    state = cell.state_size
    return state[0] if isinstance(state, (list, tuple)) else state


def _cell_call(cell, inputs, states, training):
    """cell(inputs, states) with `training` where its call takes it."""
    if isinstance(cell, Layer) and _call_parameters(cell)[0]:
        return cell(inputs, states, training=training)
    return cell(inputs, states)


def _zeros_states(state_size, batch, dtype):
    sizes = state_size if isinstance(state_size, (list, tuple)) else [state_size]
    return [array_ops.zeros(array_ops.stack([batch, int(n)]), dtype) for n in sizes]


def _initial_state(cell, batch, dtype):
    make = getattr(cell, "get_initial_state", None)
    if make is not None:
        return make(batch_size=batch) if not isinstance(cell, _Cell) else make(batch)
    return _zeros_states(cell.state_size, batch, dtype)


class StackedRNNCells(Layer):
    """`keras.layers.StackedRNNCells(cells)`: one cell made of `cells`, each
    taking the previous one's output at every step."""

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        for cell in cells:
            if "call" not in dir(cell) or "state_size" not in dir(cell):
                raise ValueError("All cells must have a `call` method and a `state_size` "
                                 f"attribute. Received cells={cells}")
        self.cells = list(cells)

    @property
    def state_size(self):
        return [c.state_size for c in self.cells]

    @property
    def output_size(self):
        return _output_size(self.cells[-1])

    def get_initial_state(self, batch_size=None):
        states = []
        for cell in self.cells:
            made = _initial_state(cell, batch_size, self.compute_dtype)
            keep = hasattr(cell, "get_initial_state") or isinstance(cell.state_size,
                                                                     (list, tuple))
            states.append(made if keep else made[0])
        return states

    def build(self, input_shape):
        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                cell.build(tuple(input_shape))
            input_shape = (input_shape[0], _output_size(cell))
        self.built = True

    def call(self, inputs, states, training=False):
        new_states = []
        for cell, state in zip(self.cells, states):
            nested = isinstance(state, (list, tuple))
            inputs, state = _cell_call(cell, inputs, list(state) if nested else [state],
                                       training)
            state = list(state) if isinstance(state, (list, tuple)) else [state]
            new_states.append(state[0] if len(state) == 1 and not nested else state)
        return inputs, new_states

    def get_config(self):
        return {**base_config(self),
                "cells": [serialization.serialize_keras_object(c) for c in self.cells]}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        cells = [serialization.deserialize_keras_object(c, custom_objects)
                 for c in config.pop("cells")]
        return cls(cells, **config)


class RNN(StatefulRNN, Layer):
    """`keras.layers.RNN(cell, return_sequences=False, return_state=False,
    go_backwards=False, stateful=False, unroll=False, zero_output_for_mask=False)`."""

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, zero_output_for_mask=False, **kwargs):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if "call" not in dir(cell) or "state_size" not in dir(cell):
            raise ValueError("Argument `cell` should have a `call` method and a `state_size` "
                             f"attribute. Received: cell={cell}")
        if not isinstance(cell.state_size, (list, tuple, int)):
            raise ValueError("state_size must be an integer, or a list/tuple of integers "
                             "(one for each state tensor).")
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences, self.return_state = bool(return_sequences), bool(return_state)
        self.go_backwards, self.stateful = bool(go_backwards), bool(stateful)
        self.unroll, self.zero_output_for_mask = bool(unroll), bool(zero_output_for_mask)
        self.input_spec = InputSpec(min_ndim=3)

    @property
    def state_size(self):
        size = self.cell.state_size
        return [size] if isinstance(size, int) else list(size)

    def build(self, input_shape):
        if isinstance(input_shape, list) and input_shape and \
                isinstance(input_shape[0], (list, tuple)):
            input_shape = input_shape[0]
        if isinstance(self.cell, Layer) and not self.cell.built:
            self.cell.build((input_shape[0],) + tuple(input_shape[2:]))
        self._build_states(input_shape)
        self.built = True

    def _zero_states(self, batch_size):
        return self.get_initial_state(batch_size)

    def get_initial_state(self, batch_size):
        states = _initial_state(self.cell, batch_size, self.compute_dtype)
        return states if isinstance(states, (list, tuple)) else [states]

    def call(self, sequences, initial_state=None, mask=None, training=False):
        if isinstance(self.cell, _Cell):
            return RNNBase.call(self, sequences, initial_state, mask, training)
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        if initial_state is None and self.stateful:
            initial_state = list(self._stored_states(sequences))
        elif initial_state is None:
            initial_state = self.get_initial_state(array_ops.shape(sequences)[0])
        elif not isinstance(initial_state, (list, tuple)):
            initial_state = [initial_state]
        structure = nest.map_structure(
            lambda s: convert_to_tensor(s, dtype=self.compute_dtype), list(initial_state))
        if self.go_backwards:
            sequences = shape_ops.reverse(sequences, [1])
            mask = None if mask is None else shape_ops.reverse(mask, [1])

        def step(x, flat_states):
            states = nest.pack_sequence_as(structure, flat_states)
            output, new = _cell_call(self.cell, x, states, training)
            new = new if isinstance(new, (list, tuple)) else [new]
            return output, nest.flatten(new)

        perm = [1, 0, *range(2, len(sequences.shape))]
        outputs, last, states = time_loop(
            step, array_ops.transpose(sequences, perm), nest.flatten(structure),
            mask=None if mask is None else array_ops.transpose(mask, [1, 0]),
            return_sequences=self.return_sequences, zero_output=self.zero_output_for_mask,
            output_size=_output_size(self.cell))
        self._keep_states(nest.pack_sequence_as(structure, states))
        output = array_ops.transpose(outputs, perm) if self.return_sequences else last
        if self.return_state:
            return [output, *nest.pack_sequence_as(structure, states)]
        return output

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        batch, length = sequences_shape[0], sequences_shape[1]
        size = _output_size(self.cell)
        out = (batch, length, size) if self.return_sequences else (batch, size)
        if not self.return_state:
            return out
        states = [(batch, s) if isinstance(s, int) else [(batch, n) for n in s]
                  for s in self.state_size]
        return [out, *states]

    def compute_mask(self, inputs, mask):
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None] * len(self.state_size)
        return output_mask

    def get_config(self):
        config = base_config(self)
        config.update({k: getattr(self, k) for k in _RNN_KEYS})
        config["cell"] = serialization.serialize_keras_object(self.cell)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        cell = serialization.deserialize_keras_object(config.pop("cell"), custom_objects)
        return cls(cell, **config)
