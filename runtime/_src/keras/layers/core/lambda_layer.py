"""`keras.layers.Lambda(function, output_shape=None, arguments=None)`:
function(x, **arguments) as a layer."""

import inspect
from runtime._src.core import nest
from runtime._src.keras.layers.layer import Layer
from runtime._src.keras.saving.serialization_lib import deserialize_keras_object
from runtime._src.keras.saving.serialization_lib import serialize_keras_object as _serialize

__all__ = ["Lambda"]


class Lambda(Layer):
    """`tf.keras.layers.Lambda(function, output_shape=None, mask=None,
    arguments=None)`: `function(inputs, **arguments)` as a layer (also given
    `training=` / `mask=` when its signature names them). `output_shape` is
    the shape after the batch axis (a tuple), or a function of the whole
    input shape; by default the traced call's shape."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.arguments = dict(arguments or {})
        self.function = function
        self.mask = mask
        self._output_shape = output_shape
        names = inspect.getfullargspec(function).args
        self._fn_expects_training_arg = "training" in names
        self._fn_expects_mask_arg = "mask" in names

    def get_config(self):
        """The function by name (a `def`, restored through `custom_objects`); a
        lambda cannot be saved: its code would have to run from the file."""
        if getattr(self.function, "__name__", "<lambda>") == "<lambda>":
            raise ValueError(
                f"Lambda layer '{self.name}': its function is a Python lambda, which "
                "runtime.keras cannot save (loading it would run code from the file, which "
                "Keras's safe_mode forbids too). Define the function with `def`, register it "
                "with @tf.keras.saving.register_keras_serializable(), or write a Layer "
                "subclass.")
        shape = self._output_shape
        return {**super().get_config(), "function": _serialize(self.function),
                "arguments": self.arguments,
                "output_shape": _serialize(shape) if callable(shape) else shape}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["function"] = deserialize_keras_object(config["function"])
        if isinstance(config.get("output_shape"), dict):
            config["output_shape"] = deserialize_keras_object(config["output_shape"])
        return cls(**config)

    def call(self, inputs, mask=None, training=None):
        kwargs = dict(self.arguments)
        if self._fn_expects_mask_arg:
            kwargs["mask"] = mask
        if self._fn_expects_training_arg:
            kwargs["training"] = training
        return self.function(inputs, **kwargs)

    def compute_output_shape(self, input_shape):
        if self._output_shape is None:
            raise NotImplementedError("We could not automatically infer the shape of the "
                                      "Lambda's output. Please specify the `output_shape` "
                                      "argument for this Lambda layer.")
        if callable(self._output_shape):
            return self._output_shape(input_shape)
        batch = nest.flatten(input_shape)[0]
        return (batch,) + tuple(self._output_shape)
