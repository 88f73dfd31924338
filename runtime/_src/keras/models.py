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
from runtime._src.core.tensor import Tensor
from runtime._src.core.tensor_shape import TensorShape, TensorSpec
from runtime._src.function.function import function
from runtime._src.keras import functional, masking, summary, training
from runtime._src.keras.base_layer import Layer
from runtime._src.keras.input_layer import InputLayer
from runtime._src.keras.keras_tensor import KerasTensor
from runtime._src.keras.naming import unique_name

__all__ = ["Model", "Functional", "Sequential"]


class Model(Layer, training.TrainingMixin):
    """`tf.keras.Model`: subclass it, create layers in `__init__`, use them in `call`."""

    def __new__(cls, *args, **kwargs):
        if cls is Model and (args or "inputs" in kwargs or "outputs" in kwargs):
            return super().__new__(Functional)
        return super().__new__(cls)

    def __init__(self, *args, **kwargs):
        if args or "inputs" in kwargs or "outputs" in kwargs:
            raise TypeError(f"{type(self).__name__}: a subclassed Model takes no inputs and "
                            "outputs; build functional models with "
                            "tf.keras.Model(inputs, outputs)")
        super().__init__(**kwargs)
        self._keras_state = training.TrainingState()

    def get_layer(self, name=None, index=None):
        """The layer called `name` (or at position `index` of `layers`)."""
        if index is not None and name is not None:
            raise ValueError("Provide only a layer name or a layer index. Received: "
                             f"index={index}, name={name}.")
        layers = self.layers
        if index is not None:
            if len(layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model "
                                 f"only has {len(layers)} layers.")
            return layers[index]
        if name is not None:
            for layer in layers:
                if layer.name == name:
                    return layer
            raise ValueError(f"No such layer: {name}. Existing layers are: "
                             f"{[layer.name for layer in layers]}.")
        raise ValueError("Provide either a layer name or layer index at `get_layer`.")

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

    def summary(self, line_length=None, positions=None, print_fn=None, **kwargs):
        """Print Keras's table: each layer's name and type, output shape and
        number of weights, then the totals."""
        summary.print_summary(self, self.layers, line_length=line_length,
                              positions=positions, print_fn=print_fn)


class Functional(Model):
    """`tf.keras.Model(inputs, outputs, name=None)`: the layers called on
    KerasTensors from `inputs` (an `Input`, or a list or dict of them) up to
    `outputs` (a KerasTensor, or a list or dict of them). Calling the model
    runs those layer calls on real tensors, in the same structures."""

    def __init__(self, inputs, outputs, name=None, trainable=True, **kwargs):
        Layer.__init__(self, name=name or unique_name("functional"), trainable=trainable,
                       **kwargs)
        self._keras_state = training.TrainingState()
        if isinstance(inputs, tuple):
            inputs = list(inputs)
        if isinstance(outputs, tuple):
            outputs = list(outputs)
        for t in nest.flatten(inputs):
            if not isinstance(t, KerasTensor) or t._keras_history is None or \
                    not isinstance(t._keras_history[0], InputLayer):
                raise ValueError("All `inputs` values must be KerasTensors made by "
                                 f"`tf.keras.Input`. Received: inputs={inputs!r} including "
                                 f"invalid value {t!r} of type {type(t)}")
        self._inputs_struct, self._outputs_struct = inputs, outputs
        self.inputs = nest.flatten(inputs)
        self.outputs = nest.flatten(outputs)
        self._operations, self._nodes, self._node_depths = functional.map_graph(
            self.inputs, self.outputs)
        self.output_names = [t._keras_history[0].name for t in self.outputs]
        self._keras_state.input_specs = nest.map_structure(
            lambda t: TensorSpec(TensorShape(list(t.shape)), t.dtype), inputs)
        self.built = True

    @property
    def layers(self):
        return [op for op in self._operations if isinstance(op, Layer)]

    @property
    def input(self):
        return self._inputs_struct

    @property
    def output(self):
        return self._outputs_struct

    def _flatten_inputs(self, inputs):
        if isinstance(self._inputs_struct, dict) and not isinstance(inputs, dict) \
                and len(self.inputs) > 1:
            names = sorted(self._inputs_struct)
            flat = nest.flatten(inputs)
            if len(flat) != len(names):
                raise ValueError(
                    f'Layer "{self.name}" expects {len(names)} named input(s) with keys '
                    f"{names}, but it received {len(flat)} input tensors. Pass inputs as a "
                    f"dict, e.g. `layer({{'{names[0]}': ...}})`.")
            return flat
        if isinstance(inputs, dict):
            if not isinstance(self._inputs_struct, dict):
                by_name = {t.name: t for t in self.inputs}
                missing = [t.name for t in self.inputs if t.name not in inputs]
                if missing:
                    raise ValueError(f'Layer "{self.name}": missing input(s) {missing}; '
                                     f"received keys {sorted(inputs)}")
                return [inputs[name] for name in by_name]
            missing = sorted(set(self._inputs_struct) - set(inputs))
            if missing:
                raise ValueError(f'Layer "{self.name}": missing input(s) {missing}; '
                                 f"received keys {sorted(inputs)}")
            return [inputs[k] for k in sorted(self._inputs_struct)]
        flat = nest.flatten(inputs)
        if len(flat) != len(self.inputs):
            raise ValueError(f'Layer "{self.name}" expects {len(self.inputs)} input(s), but '
                             f"it received {len(flat)} input tensors. Inputs received: "
                             f"{inputs!r}")
        return flat

    def _check_input_shapes(self, flat):
        for i, (expected, x) in enumerate(zip(self.inputs, flat)):
            dims = getattr(getattr(x, "shape", None), "dims", None)
            if dims is None:
                continue
            if len(dims) != len(expected.shape) or any(
                    e is not None and d is not None and e != d
                    for e, d in zip(expected.shape, dims)):
                raise ValueError(f"Input {i} with name '{expected.name}' of layer "
                                 f"'{self.name}' is incompatible with the layer: expected "
                                 f"shape={expected.shape}, found shape={tuple(dims)}")

    def call(self, inputs, training=None, mask=None):
        flat = self._flatten_inputs(inputs)
        self._check_input_shapes(flat)
        values = functional.run_graph(self._nodes, self.inputs, flat, self.outputs)
        return nest.pack_sequence_as(self._outputs_struct, values)

    def _branching(self):
        """Whether the graph is more than a chain (summary adds "Connected to")."""
        depths = {}
        for node in self._nodes:
            depths.setdefault(self._node_depths[node], []).append(node)
        if any(len(v) > 1 or (len(v) == 1 and len(v[0].input_tensors) > 1)
               for v in depths.values()):
            return True
        node_ids = {id(n) for n in self._nodes}
        return any(sum(id(n) in node_ids for n in layer._inbound_nodes) > 1
                   for layer in self._operations)

    def summary(self, line_length=None, positions=None, print_fn=None, **kwargs):
        summary.print_summary(self, self._operations,
                              relevant_nodes=self._nodes if self._branching() else None,
                              line_length=line_length, positions=positions,
                              print_fn=print_fn)


def _batch_free_spec(x):
    if not isinstance(x, Tensor) or x.shape.dims is None:
        raise ValueError(f"Model: cannot record the input signature of {x!r}")
    return TensorSpec(TensorShape([None] + list(x.shape.dims[1:])), x.dtype)


class Sequential(Model):
    """`tf.keras.Sequential(layers=None, name=None)`: each layer feeds the next."""

    def __init__(self, layers=None, name=None, trainable=True):
        super().__init__(name=name, trainable=trainable)
        self._layers = []
        self._input_layer = None
        for layer in layers or ():
            self.add(layer)

    def add(self, layer):
        if isinstance(layer, KerasTensor) and layer._keras_history is not None:
            layer = layer._keras_history[0]      # Sequential([Input(shape), ...])
        if not isinstance(layer, Layer):
            raise TypeError("The added layer must be an instance of class Layer. Received: "
                            f"layer={layer!r} of type {type(layer)}.")
        if isinstance(layer, InputLayer):
            if self._layers or self._input_layer is not None:
                raise ValueError("Sequential model: an InputLayer may only be the first "
                                 f"layer; got {layer.name!r} after other layers")
            self._input_layer = layer
            return
        self._layers.append(layer)
        self.built = False
        self._build_from_input_shape()

    def _build_from_input_shape(self):
        """Build at once when the model starts with an Input or the first layer
        was given `input_shape` (Keras does too): the weights exist, and the
        model saves, before any call. The layers are called on a KerasTensor,
        so their output shapes keep a free batch dimension."""
        if self._input_layer is not None:
            shape, dtype = self._input_layer.batch_shape, self._input_layer.dtype
        else:
            shape, dtype = self._layers[0]._batch_input_shape, "float32"
        if shape is None or None in shape[1:]:
            return
        self(KerasTensor(shape, dtype))

    def pop(self):
        if not self._layers:
            raise TypeError("There are no layers in the model.")
        layer = self._layers.pop()
        return layer

    @property
    def layers(self):
        return list(self._layers)

    def call(self, inputs, training=None):
        x, mask = inputs, None
        for layer in self._layers:
            kwargs = {} if training is None else {"training": training}
            x, mask = masking.call_masked(layer, x, mask, **kwargs)
        return x
