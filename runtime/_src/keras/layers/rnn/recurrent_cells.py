"""The recurrent cells: one time step of `SimpleRNN`, `LSTM` and `GRU`.

Each cell (Keras 3's weights, names and formulas) splits its step in two:

    projected = cell.project(inputs)          # x @ kernel (+ bias), all steps at once
    output, states = cell.step(projected[t], states)   # the recurrent part

so the loop body holds only the `h @ recurrent_kernel` matmul; the result is
Keras's `cell.call(x_t, states)`.

    SimpleRNNCell:  h = tanh(x @ kernel + bias + h_prev @ recurrent_kernel)
    LSTMCell:       z = x @ kernel + h_prev @ recurrent_kernel + bias, gates i f c o
                    c = f * c_prev + i * tanh(z_c);  h = o * tanh(c)
    GRUCell (reset_after=True, Keras 3's default; gates z r h):
                    xz, xr, xh = x @ kernel + bias[0]
                    rz, rr, rh = h_prev @ recurrent_kernel + bias[1]
                    z = sigmoid(xz + rz); r = sigmoid(xr + rr)
                    h = z * h_prev + (1 - z) * tanh(xh + r * rh)
"""

import numbers

import numpy as np

from runtime._src.core import dtypes
from runtime._src.keras.activations import activations
from runtime._src.keras.initializers import initializers
from runtime._src.keras.layers.rnn import lstm_fused
from runtime._src.keras.layers.layer import ConfigurableLayer, base_config
from runtime._src.ops import array_ops, math_ops, random_ops, shape_ops, tile_ops

__all__ = ["SimpleRNNCell", "LSTMCell", "GRUCell"]


# Keras 3.15's order of a cell's (and, unit_forget_bias moved, its layer's) config keys
_WEIGHT_KEYS = ("kernel_initializer", "recurrent_initializer", "bias_initializer",
                "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
                "activity_regularizer", "kernel_constraint", "recurrent_constraint",
                "bias_constraint")
CELL_ORDER = ("name", "trainable", "dtype", "units", "activation", "recurrent_activation",
              "use_bias", "unit_forget_bias") + _WEIGHT_KEYS + (
              "dropout", "recurrent_dropout", "reset_after", "seed")


def in_order(config, order):
    """`config` with the keys in `order` first, in that order (the rest after)."""
    rank = {key: i for i, key in enumerate(order)}
    return dict(sorted(config.items(), key=lambda item: rank.get(item[0], len(rank))))


class _Cell(ConfigurableLayer):
    """What the three cells share: arguments, dropout masks, config."""

    _gates = 1

    def __init__(self, units, activation="tanh", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", dropout=0.0, recurrent_dropout=0.0, seed=None,
                 **kwargs):
        # regularizers and constraints go to add_weight (kernel, recurrent_kernel, bias)
        self._weight_options = {
            part: {what: kwargs.pop(f"{part}_{what}", None)
                   for what in ("regularizer", "constraint")}
            for part in ("kernel", "recurrent", "bias")}
        super().__init__(**kwargs)
        if not isinstance(units, numbers.Integral) or isinstance(units, bool) or units <= 0:
            raise ValueError("Received an invalid value for argument `units`, expected a "
                             f"positive integer, got {units!r}.")
        self.units = int(units)
        self.activation_name = activation
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = kernel_initializer
        self.recurrent_initializer = recurrent_initializer
        self.bias_initializer = bias_initializer
        self.dropout = min(1.0, max(0.0, float(dropout)))
        self.recurrent_dropout = min(1.0, max(0.0, float(recurrent_dropout)))
        self.seed = seed
        self.state_size = self.units
        self.output_size = self.units
        self._recurrent_mask = None
        self._loop_kernel = self._loop_bias = None

    def build(self, input_shape):
        n = self._gates * self.units
        options = self._weight_options
        self.kernel = self.add_weight(shape=(input_shape[-1], n), name="kernel",
                                      initializer=self.kernel_initializer, **options["kernel"])
        self.recurrent_kernel = self.add_weight(
            shape=(self.units, n), name="recurrent_kernel",
            initializer=initializers.get(self.recurrent_initializer), **options["recurrent"])
        if self.use_bias:
            self.bias = self.add_weight(shape=self._bias_shape(), name="bias",
                                        initializer=self._bias_init(), **options["bias"])
        else:
            self.bias = None
        self.built = True

    def _bias_shape(self):
        return (self._gates * self.units,)

    def _bias_init(self):
        return self.bias_initializer

    def get_initial_state(self, batch_size):
        return [array_ops.zeros(array_ops.stack([batch_size, self.units]), self._dtype)]

    def prepare(self, inputs, training):
        """Read the weights the loop body uses (once, before the loop), draw
        this call's dropout masks (one per sequence, as Keras) and return the
        inputs with the input mask applied."""
        self._loop_kernel = self.recurrent_kernel.read_value()
        self._loop_bias = self.bias[1] if self.bias is not None and \
            len(self.bias.shape.dims) == 2 else None
        self._recurrent_mask = None
        if (self.dropout == 0 and self.recurrent_dropout == 0) or not training:
            return inputs
        if self.recurrent_dropout > 0:
            ones = array_ops.ones_like(inputs[:, 0, :1])
            ones = tile_ops.tile(ones, [1, self.units])
            self._recurrent_mask = random_ops.dropout(ones, self.recurrent_dropout,
                                                      seed=self.seed)
        if self.dropout > 0:
            ones = array_ops.ones_like(inputs[:, :1, :])
            mask = random_ops.dropout(ones, self.dropout, seed=self.seed)
            inputs = math_ops.multiply(inputs, mask)
        return inputs

    def _recurrent_input(self, h):
        if self._recurrent_mask is None:
            return h
        return math_ops.multiply(h, self._recurrent_mask)

    def project(self, inputs):
        """inputs (time, batch, in) @ kernel (+ bias) -> (time, batch, gates * units)."""
        shape = array_ops.shape(inputs)
        flat = array_ops.reshape(inputs, [-1, self.kernel.shape.dims[0]])
        out = math_ops.matmul(flat, self.kernel)
        bias = self._input_bias()
        if bias is not None:
            out = math_ops.add(out, bias)
        n = self._gates * self.units
        steps = inputs.shape.dims[0] if inputs.shape.dims is not None else None
        if steps is not None:                       # keep the time axis static
            return array_ops.reshape(out, [steps, -1, n])
        return array_ops.reshape(out, array_ops.concat(
            [shape[:2], array_ops.constant([n])], 0))

    def _input_bias(self):
        return self.bias

    def call(self, inputs, states, training=False):
        """One step, Keras's `cell(x_t, states) -> (output, new_states)`;
        inputs (batch, features), states a list (or one tensor)."""
        as_list = isinstance(states, (list, tuple))
        states = list(states) if as_list else [states]
        inputs = self.prepare(array_ops.expand_dims(inputs, 1), training)[:, 0, :]
        projected = math_ops.matmul(inputs, self.kernel)
        bias = self._input_bias()
        if bias is not None:
            projected = math_ops.add(projected, bias)
        output, new_states = self.step(projected, states)
        return output, (new_states if as_list else new_states[0])

    def get_config(self):
        config = base_config(self)
        config.update({
            "units": self.units, "activation": self.activation_name,
            "use_bias": self.use_bias, "kernel_initializer": self.kernel_initializer,
            "recurrent_initializer": self.recurrent_initializer,
            "bias_initializer": self.bias_initializer, "dropout": self.dropout,
            "recurrent_dropout": self.recurrent_dropout, "seed": self.seed})
        for part, options in self._weight_options.items():
            for what, value in options.items():
                config[f"{part}_{what}"] = value
        return in_order(config, CELL_ORDER)


class SimpleRNNCell(_Cell):
    """`keras.layers.SimpleRNNCell(units, activation="tanh", ...)`."""

    def step(self, x, states):
        h = self._recurrent_input(states[0])
        output = self.activation(math_ops.add(x, math_ops.matmul(h, self._loop_kernel)))
        return output, [output]


class LSTMCell(_Cell):
    """`keras.layers.LSTMCell(units, activation="tanh", recurrent_activation="sigmoid",
    unit_forget_bias=True, ...)`; states [h, c]."""

    _gates = 4

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 unit_forget_bias=True, **kwargs):
        super().__init__(units, activation=activation, **kwargs)
        self.recurrent_activation_name = recurrent_activation
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = bool(unit_forget_bias)
        self.state_size = [self.units, self.units]

    def _bias_init(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        base, units = initializers.get(self.bias_initializer), self.units

        def init(shape, dtype=None):
            return array_ops.concat([base((units,), dtype), array_ops.ones([units], dtype),
                                     base((2 * units,), dtype)], 0)
        return init

    def get_initial_state(self, batch_size):
        return super().get_initial_state(batch_size) * 2

    def fused_loop(self, projected, states, return_sequences=True):
        """The whole time loop with a hand-written backward loop (layers/rnn/lstm_fused.py);
        the outputs are None without `return_sequences`."""
        dims = projected.shape.dims
        steps = dims[0] if dims is not None and dims[0] is not None \
            else array_ops.shape(projected)[0]
        hs, h, c = lstm_fused.lstm_sequence(projected, states[0], states[1],
                                            self._loop_kernel, steps, return_sequences)
        return hs, h, [h, c]

    def _fused_applies(self):
        """Keras's default activations and no recurrent dropout in this call."""
        return (self.activation_name == "tanh" and self.recurrent_activation_name == "sigmoid"
                and self._recurrent_mask is None)

    def step(self, x, states):
        h, c = self._recurrent_input(states[0]), states[1]
        z = math_ops.add(x, math_ops.matmul(h, self._loop_kernel))
        z_i, z_f, z_c, z_o = shape_ops.split(z, 4, axis=1)
        i = self.recurrent_activation(z_i)
        f = self.recurrent_activation(z_f)
        g = self.activation(z_c)
        o = self.recurrent_activation(z_o)
        c = math_ops.add(math_ops.multiply(f, c), math_ops.multiply(i, g))
        h = math_ops.multiply(o, self.activation(c))
        return h, [h, c]

    def get_config(self):
        config = super().get_config()
        config.update({"recurrent_activation": self.recurrent_activation_name,
                       "unit_forget_bias": self.unit_forget_bias})
        return in_order(config, CELL_ORDER)


class GRUCell(_Cell):
    """`keras.layers.GRUCell(units, activation="tanh", recurrent_activation="sigmoid",
    reset_after=True, ...)`; bias (2, 3 * units) with reset_after."""

    _gates = 3

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 reset_after=True, **kwargs):
        super().__init__(units, activation=activation, **kwargs)
        self.recurrent_activation_name = recurrent_activation
        self.recurrent_activation = activations.get(recurrent_activation)
        self.reset_after = bool(reset_after)

    def _bias_shape(self):
        n = 3 * self.units
        return (2, n) if self.reset_after else (n,)

    def _input_bias(self):
        if self.bias is None:
            return None
        return self.bias[0] if self.reset_after else self.bias

    def step(self, x, states):
        h_prev = states[0]
        h_in = self._recurrent_input(h_prev)
        u = self.units
        x_z, x_r, x_h = shape_ops.split(x, 3, axis=1)
        if self.reset_after:
            inner = math_ops.matmul(h_in, self._loop_kernel)
            if self.bias is not None:
                inner = math_ops.add(inner, self._loop_bias)
            in_z, in_r, in_h = shape_ops.split(inner, 3, axis=1)
            z = self.recurrent_activation(math_ops.add(x_z, in_z))
            r = self.recurrent_activation(math_ops.add(x_r, in_r))
            hh = math_ops.add(x_h, math_ops.multiply(r, in_h))
        else:
            inner = math_ops.matmul(h_in, self._loop_kernel[:, :2 * u])
            in_z, in_r = shape_ops.split(inner, 2, axis=1)
            z = self.recurrent_activation(math_ops.add(x_z, in_z))
            r = self.recurrent_activation(math_ops.add(x_r, in_r))
            hh = math_ops.add(x_h, math_ops.matmul(
                math_ops.multiply(r, h_in), self._loop_kernel[:, 2 * u:]))
        hh = self.activation(hh)
        one = array_ops.constant(1.0, hh.dtype)
        h = math_ops.add(math_ops.multiply(z, h_prev),
                         math_ops.multiply(math_ops.subtract(one, z), hh))
        return h, [h]

    def get_config(self):
        config = super().get_config()
        config.update({"recurrent_activation": self.recurrent_activation_name,
                       "reset_after": self.reset_after})
        return in_order(config, CELL_ORDER)
