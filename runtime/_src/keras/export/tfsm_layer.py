"""`keras.layers.TFSMLayer(filepath, call_endpoint="serve",
call_training_endpoint=None, trainable=True, name=None, dtype=None)`: a
SavedModel's endpoint as a layer (inference only, as Keras 3's); the reloaded
variables are its weights, trainable when `trainable` is."""

from runtime._src.keras.layers.layer import Layer
from runtime._src.saved_model import load as saved_model_load

__all__ = ["TFSMLayer"]


class TFSMLayer(Layer):
    """Reload a SavedModel (`model.export`, `tf.saved_model.save`) as a layer."""

    def __init__(self, filepath, call_endpoint="serve", call_training_endpoint=None,
                 trainable=True, name=None, dtype=None):
        super().__init__(trainable=trainable, name=name, dtype=dtype)
        self._reloaded_obj = saved_model_load(filepath)
        self.filepath = filepath
        self.call_endpoint = call_endpoint
        self.call_training_endpoint = call_training_endpoint
        self.call_endpoint_fn = self._endpoint(call_endpoint)
        self.call_training_endpoint_fn = (None if call_training_endpoint is None
                                          else self._endpoint(call_training_endpoint))
        for variable in self._reloaded_obj.variables:
            variable._trainable = bool(trainable and variable.trainable)
            self._own_weights.append(variable)
        self.built = True

    def _endpoint(self, name):
        fn = getattr(self._reloaded_obj, name, None)
        if fn is None:
            signatures = getattr(self._reloaded_obj, "signatures", {})
            fn = signatures.get(name)
        if fn is None:
            raise ValueError(f"The endpoint '{name}' is neither an attribute of the reloaded "
                             f"SavedModel, nor an entry in the `signatures` field of the "
                             f"reloaded SavedModel. Select another endpoint via the "
                             f"`call_endpoint` argument. Available endpoints for this "
                             f"SavedModel: {list(signatures)}")
        return fn

    def call(self, inputs, training=False, **kwargs):
        if training and self.call_training_endpoint_fn is not None:
            return self.call_training_endpoint_fn(inputs, **kwargs)
        return self.call_endpoint_fn(inputs, **kwargs)

    def get_config(self):
        return {**super().get_config(), "filepath": self.filepath,
                "call_endpoint": self.call_endpoint,
                "call_training_endpoint": self.call_training_endpoint}
