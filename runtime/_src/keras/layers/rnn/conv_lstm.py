"""`ConvLSTM1D`, `ConvLSTM2D`, `ConvLSTM3D`: an LSTM whose products are
convolutions, over sequences of (rows, ..., channels) frames, as Keras 3.

At each step, with gates i, f, c, o (kernel (k..., in, 4 * filters), recurrent
kernel (k..., filters, 4 * filters), the 4 parts in that order):

    x_g = conv(x_t, kernel_g, strides, padding, dilation) + bias_g
    h_g = conv(h, recurrent_kernel_g, padding="same")
    i, f, o = sigmoid(x_i + h_i), sigmoid(x_f + h_f), sigmoid(x_o + h_o)
    c = f * c + i * tanh(x_c + h_c);  h = o * tanh(c)

The states start at zeros of the convolution's output shape; the bias starts
at 1 for the forget gate (unit_forget_bias). `dropout` / `recurrent_dropout`
draw one mask per gate and sequence, as Keras. The time loop is RNN's.
"""

from runtime._src.keras.activations import activations
from runtime._src.keras.constraints import constraints
from runtime._src.keras.initializers import initializers
from runtime._src.keras.regularizers import regularizers
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.layers.layer import Layer
from runtime._src.keras.layers.core.dense import set_weight_options
from runtime._src.keras.layers.convolutional.conv3d import conv3d, from_last, same_pads
from runtime._src.keras.utils.argument_validation import ntuple
from runtime._src.keras.utils.argument_validation import _data_format
from runtime._src.keras.layers.rnn.rnn import RNN
from runtime._src.ops import array_ops, conv_ops, random_ops, shape_ops

__all__ = ["ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D", "ConvLSTMCell"]


def _conv(x, kernel, strides, padding, dilation):
    """A channels_last convolution of rank 1, 2 or 3."""
    rank = len(strides)
    if rank == 3:
        return conv3d(x, kernel, strides, padding, dilation)
    if rank == 2:
        return conv_ops.conv2d(x, kernel, strides=list(strides), padding=padding.upper(),
                               dilations=list(dilation))
    return conv_ops.conv1d(x, kernel, stride=strides[0], padding=padding.upper(),
                           dilations=dilation[0])


class ConvLSTMCell(Layer):
    """One step of a ConvLSTM (channels last inside; see the module docstring)."""

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid",
                 data_format=None, dilation_rate=1, activation="tanh",
                 recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", unit_forget_bias=True, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(**kwargs)
        set_weight_options(self, kernel_initializer, bias_initializer, kernel_regularizer,
                           bias_regularizer, kernel_constraint, bias_constraint)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.rank, self.filters = rank, int(filters)
        self.kernel_size = ntuple(kernel_size, rank, "kernel_size")
        self.strides = ntuple(strides, rank, "strides")
        self.dilation_rate = ntuple(dilation_rate, rank, "dilation_rate")
        self.padding = str(padding).lower()
        if self.padding not in ("valid", "same"):
            raise ValueError("The `padding` argument must be one of 'valid', 'same'. "
                             f"Received: padding={padding!r}")
        self.data_format = _data_format(data_format)
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias, self.unit_forget_bias = bool(use_bias), bool(unit_forget_bias)
        self.dropout, self.recurrent_dropout = float(dropout), float(recurrent_dropout)
        self.seed = seed
        self.state_size = [self.filters, self.filters]
        self.output_size = self.filters
        self._masks = None

    def build(self, input_shape):
        first = self.data_format == "channels_first"
        self.spatial_dims = tuple(input_shape[2:] if first else input_shape[1:-1])
        if None in self.spatial_dims:
            raise ValueError("ConvLSTM layers only support static input shapes for the "
                             f"spatial dimension. Received invalid input shape: "
                             f"input_shape={input_shape}")
        self.input_dim = input_shape[1 if first else -1]
        n = 4 * self.filters
        self.kernel = self.add_weight(shape=self.kernel_size + (self.input_dim, n),
                                      initializer=self.kernel_initializer, name="kernel",
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            shape=self.kernel_size + (self.filters, n), initializer=self.recurrent_initializer,
            name="recurrent_kernel", regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint)
        self.bias = None
        if self.use_bias:
            init = self.bias_initializer
            if self.unit_forget_bias:
                base, f = self.bias_initializer, self.filters

                def init(shape, dtype=None):
                    return array_ops.concat([base((f,), dtype), array_ops.ones([f], dtype),
                                             base((2 * f,), dtype)], 0)
            self.bias = self.add_weight(shape=(n,), initializer=init, name="bias",
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        self.built = True

    def output_spatial(self):
        sizes = []
        for n, k, s, d in zip(self.spatial_dims, self.kernel_size, self.strides,
                              self.dilation_rate):
            if self.padding == "same":
                sizes.append(same_pads(n, k, s, d)[2])
            else:
                sizes.append((n - d * (k - 1) - 1) // s + 1)
        return tuple(sizes)

    def get_initial_state(self, batch_size=None):
        shape = array_ops.concat([array_ops.reshape(batch_size, [1]), array_ops.constant(
            list(self.output_spatial()) + [self.filters])], 0)
        zeros = array_ops.reshape(array_ops.zeros(shape, self.compute_dtype),
                                  [-1, *self.output_spatial(), self.filters])   # static
        return [zeros, zeros]

    def draw_masks(self, x, h_like, training):
        """One dropout mask per gate for the inputs and for h (None when unused)."""
        def masks(like, rate):
            if not training or rate == 0:
                return None
            ones = array_ops.ones_like(like)
            return [random_ops.dropout(ones, rate, seed=self.seed) for _ in range(4)]
        self._masks = (masks(x, self.dropout), masks(h_like, self.recurrent_dropout))

    def call(self, inputs, states, training=False):
        h, c = states[0], states[1]
        x_masks, h_masks = self._masks or (None, None)
        kernels = shape_ops.split(self.kernel.read_value(), 4, axis=-1)
        recurrent = shape_ops.split(self.recurrent_kernel.read_value(), 4, axis=-1)
        biases = shape_ops.split(self.bias.read_value(), 4) if self.use_bias else [None] * 4
        ones = (1,) * self.rank
        parts = []
        for g in range(4):
            x = inputs if x_masks is None else inputs * x_masks[g]
            hg = h if h_masks is None else h * h_masks[g]
            xg = _conv(x, kernels[g], self.strides, self.padding, self.dilation_rate)
            if biases[g] is not None:
                xg = xg + biases[g]
            parts.append(xg + _conv(hg, recurrent[g], ones, "same", ones))
        i = self.recurrent_activation(parts[0])
        f = self.recurrent_activation(parts[1])
        c = f * c + i * self.activation(parts[2])
        o = self.recurrent_activation(parts[3])
        h = o * self.activation(c)
        return h, [h, c]


class _ConvLSTM(RNN):
    _rank = 2
    _cell_keys = ("filters", "kernel_size", "strides", "padding", "data_format",
                  "dilation_rate", "use_bias", "unit_forget_bias", "dropout",
                  "recurrent_dropout", "seed")

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, return_sequences=False,
                 return_state=False, go_backwards=False, stateful=False, **kwargs):
        cell = ConvLSTMCell(self._rank, filters, kernel_size, strides, padding, data_format,
                            dilation_rate, activation, recurrent_activation, use_bias,
                            kernel_initializer, recurrent_initializer, bias_initializer,
                            unit_forget_bias, dropout, recurrent_dropout, seed,
                            kernel_regularizer, recurrent_regularizer, bias_regularizer,
                            kernel_constraint, recurrent_constraint, bias_constraint,
                            name="conv_lstm_cell")
        if activity_regularizer is not None:
            kwargs["activity_regularizer"] = activity_regularizer
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, **kwargs)
        self._init_args = {"activation": activation,
                           "recurrent_activation": recurrent_activation,
                           "kernel_initializer": kernel_initializer,
                           "recurrent_initializer": recurrent_initializer,
                           "bias_initializer": bias_initializer}

    @property
    def filters(self):
        return self.cell.filters

    def build(self, input_shape):
        self.cell.build((input_shape[0],) + tuple(input_shape[2:]))
        self._build_states(input_shape)
        self.built = True

    def call(self, sequences, initial_state=None, mask=None, training=False):
        x = sequences
        if self.cell.data_format == "channels_first":     # (b, t, c, ...) -> (b, t, ..., c)
            x = array_ops.transpose(x, [0, 1, *range(3, self._rank + 3), 2])
        batch = array_ops.shape(x)[0]
        if initial_state is None and self.stateful:
            initial_state = self._stored_states(x)
        states = initial_state or self.cell.get_initial_state(batch)
        self.cell.draw_masks(x[:, 0], states[0], training)
        saved, self.cell.data_format = self.cell.data_format, "channels_last"
        try:
            out = super().call(x, initial_state=list(states), mask=mask, training=training)
        finally:
            self.cell.data_format, self.cell._masks = saved, None
        if saved != "channels_first":
            return out
        outs = out if isinstance(out, list) else [out]
        outs = [from_last(o, "channels_first") if o.shape.rank == self._rank + 2 else
                array_ops.transpose(o, [0, 1, self._rank + 2, *range(2, self._rank + 2)])
                for o in outs]
        return outs if isinstance(out, list) else outs[0]

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        cell = self.cell
        spatial = tuple(sequences_shape[3:] if cell.data_format == "channels_first"
                        else sequences_shape[2:-1])
        cell.spatial_dims = spatial
        state = cell.output_spatial() + (cell.filters,) if cell.data_format == \
            "channels_last" else (cell.filters,) + cell.output_spatial()
        batch = sequences_shape[0]
        out = (batch, sequences_shape[1]) + state if self.return_sequences else (batch,) + state
        if self.return_state:
            return [out, (batch,) + state, (batch,) + state]
        return out

    def get_config(self):
        """Keras 3.15's keys, in its order."""
        config = super().get_config()
        config.pop("cell", None)
        activity = config.pop("activity_regularizer", None)
        cell, ser = self.cell, serialization.serialize_keras_object
        config.update({k: getattr(cell, k) for k in self._cell_keys[:6]})
        config.update({
            "activation": self._init_args["activation"],
            "recurrent_activation": self._init_args["recurrent_activation"],
            "use_bias": cell.use_bias,
            "kernel_initializer": ser(cell.kernel_initializer),
            "recurrent_initializer": ser(cell.recurrent_initializer),
            "bias_initializer": ser(cell.bias_initializer),
            "unit_forget_bias": cell.unit_forget_bias,
            "kernel_regularizer": ser(cell.kernel_regularizer),
            "recurrent_regularizer": ser(cell.recurrent_regularizer),
            "bias_regularizer": ser(cell.bias_regularizer),
            "activity_regularizer": activity,
            "kernel_constraint": ser(cell.kernel_constraint),
            "recurrent_constraint": ser(cell.recurrent_constraint),
            "bias_constraint": ser(cell.bias_constraint),
            "dropout": cell.dropout, "recurrent_dropout": cell.recurrent_dropout,
            "seed": cell.seed})
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(**config)


class ConvLSTM1D(_ConvLSTM):
    """`keras.layers.ConvLSTM1D(filters, kernel_size, strides=1, padding="valid",
    return_sequences=False, return_state=False, ...)`: (batch, time, steps, channels)."""

    _rank = 1


class ConvLSTM2D(_ConvLSTM):
    """`keras.layers.ConvLSTM2D(filters, kernel_size, strides=1, padding="valid",
    return_sequences=False, return_state=False, ...)`: (batch, time, rows, cols,
    channels)."""

    _rank = 2


class ConvLSTM3D(_ConvLSTM):
    """`keras.layers.ConvLSTM3D(filters, kernel_size, ...)`: (batch, time, d, h, w,
    channels)."""

    _rank = 3
