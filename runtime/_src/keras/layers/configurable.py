"""`get_config` helpers for the layers that keep their constructor arguments
(the recurrent, attention, pooling and preprocessing layers).

    config = base_config(layer)      # name, trainable, dtype (Layer's own part)
    config.update({"units": layer.units, ...})

`base_config` uses `Layer.get_config` where the base class has one, so the
layers here pick up whatever the base adds.
"""

from runtime._src.keras.layers.layer import Layer

__all__ = ["base_config", "ConfigurableLayer"]


def base_config(layer):
    """The config entries every layer has: name, trainable, dtype."""
    parent = getattr(Layer, "get_config", None)
    if parent is not None:
        try:
            config = dict(parent(layer))
        except NotImplementedError:
            config = {}
        if config:
            return config
    return {"name": layer.name, "trainable": layer.trainable, "dtype": layer.dtype}


class ConfigurableLayer(Layer):
    """A Layer whose `get_config()` lists the constructor arguments, so
    `type(layer).from_config(layer.get_config())` builds an equal layer."""

    _config_keys = ()

    def get_config(self):
        config = base_config(self)
        for key in self._config_keys:
            config[key] = getattr(self, key)
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)
