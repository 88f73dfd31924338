"""`tf.nn.RNNCellResidualWrapper`, `RNNCellDeviceWrapper` and
`RNNCellDropoutWrapper`: TF's wrappers of a recurrent cell (a Keras cell or
any with `call` and `state_size`), themselves cells:

    ResidualWrapper(cell)                 output = inputs + cell's output
    DeviceWrapper(cell, "/cpu:0")         the cell run under tf.device
    DropoutWrapper(cell, input_keep_prob=0.8, output_keep_prob=1.0,
                   state_keep_prob=1.0)   dropout (x / keep * mask) on the cell's
                                          inputs, outputs and new states

As TF's, dropout applies at every call (there is no training flag); with
`variational_recurrent` one mask, drawn when the wrapper is made ([1, size],
so `input_size` is needed for the inputs), serves every step.
"""

from runtime._src.core import dtypes, nest
from runtime._src.core.devices import device
from runtime._src.keras.layers.layer import Layer, base_config
from runtime._src.keras.layers.rnn.rnn import _cell_call, _initial_state, _output_size
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.ops import array_ops, math_ops, random_ops

__all__ = ["RNNCellResidualWrapper", "RNNCellDeviceWrapper", "RNNCellDropoutWrapper"]


class _CellWrapper(Layer):
    """A cell around `cell`: its state and output sizes, initial state and build."""

    def __init__(self, cell, **kwargs):
        super().__init__(**kwargs)
        if "call" not in dir(cell) or "state_size" not in dir(cell):
            raise TypeError(f"The parameter cell is not a RNNCell: {cell!r}")
        self.cell = cell

    @property
    def state_size(self):
        return self.cell.state_size

    @property
    def output_size(self):
        return _output_size(self.cell)

    def get_initial_state(self, batch_size=None):
        return _initial_state(self.cell, batch_size, self.compute_dtype)

    def build(self, input_shape):
        if isinstance(self.cell, Layer) and not self.cell.built:
            self.cell.build(tuple(input_shape))
        self.built = True

    def call(self, inputs, states, training=False):
        outputs, new_states = _cell_call(self.cell, inputs, states, training)
        return self._after(inputs, outputs, new_states)

    def get_config(self):
        return {**base_config(self), "cell": serialization.serialize_keras_object(self.cell)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        cell = serialization.deserialize_keras_object(config.pop("cell"), custom_objects)
        return cls(cell, **config)


class RNNCellResidualWrapper(_CellWrapper):
    """The cell's output plus its inputs (`residual_fn(inputs, outputs)` if given)."""

    def __init__(self, cell, residual_fn=None, **kwargs):
        super().__init__(cell, **kwargs)
        self._residual_fn = residual_fn

    def _after(self, inputs, outputs, new_states):
        if self._residual_fn is not None:
            return self._residual_fn(inputs, outputs), new_states
        return nest.map_structure(math_ops.add, inputs, outputs), new_states


class RNNCellDeviceWrapper(_CellWrapper):
    """The cell run under `tf.device(device)`."""

    def __init__(self, cell, device, **kwargs):
        super().__init__(cell, **kwargs)
        self._device = device

    def call(self, inputs, states, training=False):
        with device(self._device):
            return _cell_call(self.cell, inputs, states, training)

    def get_config(self):
        return {**super().get_config(), "device": self._device}


class RNNCellDropoutWrapper(_CellWrapper):
    """Dropout on the cell's inputs, outputs and new states (keep probabilities
    in (0, 1]; 1 keeps everything)."""

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None, **kwargs):
        super().__init__(cell, **kwargs)
        self._keep = {}
        for name, value in (("input", input_keep_prob), ("output", output_keep_prob),
                            ("state", state_keep_prob)):
            value = float(value)
            if not 0.0 < value <= 1.0:
                raise ValueError(f"Parameter {name}_keep_prob must be between 0 and 1: {value}")
            self._keep[name] = value
        self._seed, self._filter = seed, dropout_state_filter_visitor
        self._masks = None
        if variational_recurrent:
            if dtype is None or (input_size is None and self._keep["input"] < 1.0):
                raise ValueError("When variational_recurrent=True, dtype must be provided "
                                 "(and input_size when input_keep_prob < 1)")
            sizes = {"input": input_size, "output": _output_size(cell),
                     "state": cell.state_size}
            self._masks = {k: nest.map_structure(lambda n, k=k: self._mask(k, n, dtype), v)
                           for k, v in sizes.items() if v is not None and self._keep[k] < 1.0}

    def _mask(self, kind, size, dtype):
        keep = self._keep[kind]
        draw = random_ops.uniform([1, int(size)], dtype=dtypes.as_dtype(dtype), seed=self._seed)
        return math_ops.floor(math_ops.add(draw, keep))

    def _dropped(self, kind, value, mask=None):
        """`value` / keep * mask, the mask drawn now unless variational."""
        keep = self._keep[kind]
        if keep == 1.0:
            return value
        if mask is None:
            draw = random_ops.uniform(array_ops.shape(value), dtype=value.dtype, seed=self._seed)
            mask = math_ops.floor(math_ops.add(draw, keep))
        return math_ops.multiply(math_ops.truediv(value, keep), mask)

    def _fixed(self, kind, count):
        masks = (self._masks or {}).get(kind)
        masks = masks if isinstance(masks, (list, tuple)) else [masks]
        return list(masks) * count if len(masks) == 1 else list(masks)

    def call(self, inputs, states, training=False):
        inputs = self._dropped("input", inputs, self._fixed("input", 1)[0])
        outputs, new_states = _cell_call(self.cell, inputs, states, training)
        listed = isinstance(new_states, (list, tuple))
        new_states = list(new_states) if listed else [new_states]
        masks, kept = self._fixed("state", len(new_states)), self._filter
        new_states = [s if kept is not None and not kept(s) else self._dropped("state", s, m)
                      for s, m in zip(new_states, masks)]
        outputs = self._dropped("output", outputs, self._fixed("output", 1)[0])
        return outputs, new_states if listed else new_states[0]

    def get_config(self):
        return {**super().get_config(), "input_keep_prob": self._keep["input"],
                "output_keep_prob": self._keep["output"], "state_keep_prob": self._keep["state"],
                "seed": self._seed}
