"""Layers that wrap a layer: `Bidirectional` and `TimeDistributed`.

    Bidirectional(LSTM(8, return_sequences=True), merge_mode="concat")
        forward = a copy of the layer; backward = a copy with go_backwards=True;
        y = concat([forward(x), reverse_time(backward(x))], -1)
        (merge_mode "sum", "mul", "ave", or None for the pair [y_fwd, y_bwd])
    TimeDistributed(Dense(4))
        (batch, time, ...) -> the layer on each (batch * time, ...) slice
        -> (batch, time, ...)

As in Keras 3 the two copies are built from the wrapped layer's config
(named forward_<name> and backward_<name>); the wrapped layer itself holds no
weights. With return_sequences a masked step outputs zeros in both
directions (Keras forces `zero_output_for_mask`).
"""

from runtime._src.core import nest
from runtime._src.keras.layers.layer import Layer
from runtime._src.keras.layers.layer import ConfigurableLayer, base_config
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.ops import array_ops, math_ops, shape_ops

__all__ = ["Bidirectional", "TimeDistributed"]

_MERGE_MODES = ("sum", "mul", "ave", "concat", None)


def _copy(layer, name, **changes):
    config = dict(layer.get_config())
    config.update(name=name, **changes)
    return type(layer).from_config(config)


def _from_config(cls, config):
    """The wrapper from Keras 3's config: its `layer` (and a Bidirectional's
    `backward_layer`) are serialized layers."""
    config = dict(config)
    layer = serialization.deserialize_keras_object(config.pop("layer"))
    if isinstance(config.get("backward_layer"), dict):
        config["backward_layer"] = serialization.deserialize_keras_object(
            config["backward_layer"])
    return cls(layer, **config)


def _strip(name, prefix):
    return name.removeprefix(prefix)


class Bidirectional(ConfigurableLayer):
    """`keras.layers.Bidirectional(layer, merge_mode="concat", backward_layer=None)`."""

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None,
                 **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError("Please initialize `Bidirectional` layer with a "
                             f"`keras.layers.Layer` instance. Received: {layer}")
        if merge_mode not in _MERGE_MODES:
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode "
                             'should be one of {"sum", "mul", "ave", "concat", None}')
        super().__init__(**kwargs)
        self.forward_layer = _copy(layer, "forward_" + _strip(layer.name, "forward_"))
        if backward_layer is None:
            backward_layer = _copy(layer, "backward_" + _strip(layer.name, "backward_"),
                                   go_backwards=not layer.go_backwards)
        self.backward_layer = backward_layer
        if self.forward_layer.go_backwards == self.backward_layer.go_backwards:
            raise ValueError("Forward layer and backward layer should have different "
                             "`go_backwards` value.")
        for layer_ in (self.forward_layer, self.backward_layer):
            layer_.zero_output_for_mask = layer_.return_sequences
        self.merge_mode = merge_mode
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state

    def build(self, input_shape):
        for layer in (self.forward_layer, self.backward_layer):
            if not layer.built:         # a backward_layer from a config may come built
                layer.build(input_shape)
                layer.built = True
        self.built = True

    @property
    def stateful(self):
        return self.forward_layer.stateful

    def reset_state(self):
        """Zero the states of both directions' stateful layers."""
        for layer in (self.forward_layer, self.backward_layer):
            layer.reset_state()

    reset_states = reset_state

    def call(self, inputs, initial_state=None, mask=None, training=None):
        kwargs = {}
        if training is not None:
            kwargs["training"] = training
        if mask is not None:
            kwargs["mask"] = mask
        fwd_state = bwd_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            fwd_state, bwd_state = initial_state[:half], initial_state[half:]
        y = self.forward_layer(inputs, initial_state=fwd_state, **kwargs)
        y_rev = self.backward_layer(inputs, initial_state=bwd_state, **kwargs)
        states = ()
        if self.return_state:
            states = tuple(y[1:]) + tuple(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = shape_ops.reverse(y_rev, [1])
        output = self._merge(y, y_rev)
        if self.return_state:
            return (list(output) if self.merge_mode is None else [output]) + list(states)
        return output

    def _merge(self, y, y_rev):
        mode = self.merge_mode
        if mode == "concat":
            return array_ops.concat([y, y_rev], -1)
        if mode == "sum":
            return math_ops.add(y, y_rev)
        if mode == "ave":
            return math_ops.divide(math_ops.add(y, y_rev), array_ops.constant(2.0, y.dtype))
        if mode == "mul":
            return math_ops.multiply(y, y_rev)
        return [y, y_rev]

    def compute_mask(self, inputs, mask):
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        out = mask if self.return_sequences else None
        if self.return_state:
            sizes = self.forward_layer.cell.state_size
            return [out] + [None] * (2 * len(sizes) if isinstance(sizes, list) else 2)
        return out

    def get_config(self):
        config = base_config(self)
        ser = serialization.serialize_keras_object
        config.update({"merge_mode": self.merge_mode, "layer": ser(self.forward_layer),
                       "backward_layer": ser(self.backward_layer)})
        return config

    from_config = classmethod(_from_config)


class TimeDistributed(ConfigurableLayer):
    """`keras.layers.TimeDistributed(layer)`: `layer` on every time step."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError("Please initialize `TimeDistributed` layer with a "
                             f"`keras.layers.Layer` instance. Received: {layer}")
        super().__init__(**kwargs)
        self.layer = layer
        self.supports_masking = True

    def build(self, input_shape):
        if len(input_shape) < 3:
            raise ValueError("`TimeDistributed` Layer should be passed an `input_shape` "
                             f"with at least 3 dimensions, received: {input_shape}")
        if not self.layer.built:
            self.layer.build((None,) + tuple(input_shape[2:]))
            self.layer.built = True
        self.built = True

    def call(self, inputs, training=None, mask=None):
        dims = inputs.shape.dims
        shape = array_ops.shape(inputs)
        flat = array_ops.reshape(inputs, array_ops.concat(
            [array_ops.constant([-1]), shape[2:]], 0))
        kwargs = {} if training is None else {"training": training}
        out = self.layer(flat, **kwargs)
        out_rest = out.shape.dims[1:] if out.shape.dims is not None else None
        if out_rest is not None and None not in out_rest:
            lead = [d if d is not None else shape[i] for i, d in enumerate(dims[:2])]
            return array_ops.reshape(out, nest.flatten([lead, list(out_rest)]))
        return array_ops.reshape(out, array_ops.concat(
            [shape[:2], array_ops.shape(out)[1:]], 0))

    def get_config(self):
        config = base_config(self)
        config["layer"] = serialization.serialize_keras_object(self.layer)
        return config

    from_config = classmethod(_from_config)
