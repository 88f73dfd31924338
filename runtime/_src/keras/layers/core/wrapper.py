"""`keras.layers.Wrapper(layer)`: a layer around another (calls it)."""

from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.layers.layer import Layer
from runtime._src.keras.layers.layer import base_config

__all__ = ["Wrapper"]


class Wrapper(Layer):
    """`keras.layers.Wrapper(layer)`: the base of layers around a layer; calling it
    calls the wrapped layer."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError("Layer wrapper must be initialized with a layer. "
                             f"Received: layer={layer}")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        if not self.layer.built:
            self.layer.build(input_shape)
        self.built = True

    def call(self, *args, **kwargs):
        return self.layer(*args, **kwargs)

    def get_config(self):
        return {**base_config(self), "layer": serialization.serialize_keras_object(self.layer)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        layer = serialization.deserialize_keras_object(config.pop("layer"), custom_objects,
                                                       module="keras.layers")
        return cls(layer, **config)
