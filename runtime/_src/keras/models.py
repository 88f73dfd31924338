"""`Model` (subclass it and write `call`) and `Sequential` (a stack of layers).

    class MyModel(Model):
        def __init__(self):
            super().__init__()
            self.dense1 = layers.Dense(4)
            self.dense2 = layers.Dense(5)

        def call(self, inputs, training=True):
            y = self.dense2(self.dense1(inputs))
            return tf.nn.dropout(y, 0.2) if training else y

    model = Sequential([layers.Flatten(), layers.Dense(128, activation="relu"),
                        layers.Dropout(0.2), layers.Dense(10)])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    history = model.fit(x, y, batch_size=32, epochs=5)

A Model is a Layer, so `tf.function(model)` traces its call and a
`@tf.function` on `call` makes every call a graph. `compile` / `fit` /
`evaluate` / `predict` live in `runtime._src.keras.training`; saving with
`tf.saved_model.save(model, path)` writes a "serving_default" signature for
the input the model was first called with (batch dimension free).
"""

from runtime._src.core import nest
from runtime._src.core.context import init_scope
from runtime._src.core.tensor import Tensor
from runtime._src.core.tensor_shape import TensorShape, TensorSpec
from runtime._src.function.function import function
from runtime._src.keras import training
from runtime._src.keras.base_layer import Layer
from runtime._src.ops import array_ops

__all__ = ["Model", "Sequential"]


class Model(Layer, training.TrainingMixin):
    """`tf.keras.Model`: subclass it, create layers in `__init__`, use them in `call`."""

    def __init__(self, *args, **kwargs):
        if args or "inputs" in kwargs or "outputs" in kwargs:
            raise TypeError("Model: the functional API (Model(inputs, outputs)) is not "
                            "supported; subclass Model and define call(), or use Sequential")
        super().__init__(**kwargs)
        self._keras_state = training.TrainingState()

    def call(self, inputs, training=None):
        raise NotImplementedError("When subclassing the `Model` class, you should implement "
                                  "a `call()` method.")

    def _build_for(self, inputs):
        if self._keras_state.input_specs is None:
            self._keras_state.input_specs = nest.map_structure(_batch_free_spec, inputs)
        super()._build_for(inputs)

    def _default_save_signature(self):
        """The function `tf.saved_model.save` saves as "serving_default": the
        model on inputs like its first call's (any batch size), in inference
        mode, returning {"output_0": outputs} like Keras."""
        specs = self._keras_state.input_specs
        if specs is None:
            raise ValueError(f'Model "{self.name}" cannot be saved before it is built: call '
                             "it on a batch of inputs (or fit it) first")
        model = self

        def serve(inputs):
            outputs = model(inputs, training=False)
            flat = nest.flatten(outputs)
            return {f"output_{i}": t for i, t in enumerate(flat)}
        return function(serve, input_signature=[specs])

    def summary(self, print_fn=print):
        """Print each layer's name, type and number of weights."""
        rows = [(f"{layer.name} ({type(layer).__name__})",
                 sum(_size(w) for w in layer.weights)) for layer in self.layers]
        width = max([len(r[0]) for r in rows] + [20])
        print_fn(f'Model: "{self.name}"')
        print_fn(f"{'Layer (type)':<{width}}  Param #")
        for text, count in rows:
            print_fn(f"{text:<{width}}  {count}")
        print_fn(f"Total params: {sum(_size(w) for w in self.weights)}")


def _size(variable):
    n = 1
    for d in variable.shape.dims:
        n *= d
    return n


def _batch_free_spec(x):
    if not isinstance(x, Tensor) or x.shape.dims is None:
        raise ValueError(f"Model: cannot record the input signature of {x!r}")
    return TensorSpec(TensorShape([None] + list(x.shape.dims[1:])), x.dtype)


class Sequential(Model):
    """`tf.keras.Sequential(layers=None, name=None)`: each layer feeds the next."""

    def __init__(self, layers=None, name=None, trainable=True):
        super().__init__(name=name, trainable=trainable)
        self._layers = []
        for layer in layers or ():
            self.add(layer)

    def add(self, layer):
        if not isinstance(layer, Layer):
            raise TypeError("The added layer must be an instance of class Layer. Received: "
                            f"layer={layer!r} of type {type(layer)}.")
        self._layers.append(layer)
        self.built = False
        self._build_from_input_shape()

    def _build_from_input_shape(self):
        """Build at once when the first layer was given `input_shape` (Keras
        does too): the weights exist, and the model saves, before any call."""
        shape = self._layers[0]._batch_input_shape
        if shape is None or None in shape[1:]:
            return
        with init_scope():
            self(array_ops.zeros((1,) + tuple(shape[1:])))

    def pop(self):
        if not self._layers:
            raise TypeError("There are no layers in the model.")
        layer = self._layers.pop()
        return layer

    @property
    def layers(self):
        return list(self._layers)

    def call(self, inputs, training=None):
        x = inputs
        for layer in self._layers:
            x = layer(x, training=training) if training is not None else layer(x)
        return x
