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
`evaluate` / `predict` live in `runtime._src.keras.trainers.trainer`; saving with
`tf.saved_model.save(model, path)` writes a "serving_default" signature for
the input the model was first called with (batch dimension free).
"""

import json

from runtime._src.core import nest
from runtime._src.core.tensor import Tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.function.function import function
from runtime._src.keras.models import functional, functional_config
from runtime._src.keras.quantizers import quantization_config
from runtime._src.keras.backend import masking
from runtime._src.keras.saving import saving_lib as model_file, serialization_lib as serialization
from runtime._src.keras.utils import summary_utils as summary
from runtime._src.keras.trainers import trainer as training
from runtime._src.keras.layers.layer import Layer
from runtime._src.keras.layers.core.input_layer import InputLayer
from runtime._src.keras.backend.keras_tensor import KerasTensor
from runtime._src.keras.export.saved_model import export_saved_model
from runtime._src.keras.utils.naming import unique_name

__all__ = ["Model", "Functional", "Sequential"]


class Model(Layer, training.TrainingMixin, model_file.SavingMixin):
    """`tf.keras.Model`: subclass it, create layers in `__init__`, use them in `call`."""

    _keras_module = "keras"          # the "module" of its config, as Keras 3 writes it

    def __new__(cls, *args, **kwargs):
        if cls is Model and (args or "inputs" in kwargs or "outputs" in kwargs):
            return super().__new__(Functional, *args, **kwargs)
        return super().__new__(cls, *args, **kwargs)

    def __init__(self, *args, **kwargs):
        if _functional_arguments(args, kwargs):
            # A subclass called as Model(inputs, outputs) (Keras's "customize
            # what happens in fit" guide: its train_step over a functional
            # graph) becomes functional, keeping its methods, as in Keras 3.
            self.__class__ = _functional_subclass(type(self))
            Functional.__init__(self, *args, **kwargs)
            return
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
        if _overrides_build(self):
            super()._build_for(inputs)       # the user's build(input_shape)
        else:
            self._build_input_shape = nest.map_structure(
                lambda t: tuple(t.shape.dims) if isinstance(t, Tensor) else None, inputs)
            self.built = True

    def build(self, input_shape=None):
        """Create the weights for inputs of `input_shape` (with the batch
        dimension, None for any): the model is called once on a symbolic
        input of that shape (a list or dict of shapes for several inputs)."""
        if self.built and self.weights:
            return
        if input_shape is None:
            raise ValueError(f'Model "{self.name}": build() needs an input shape, e.g. '
                             "model.build((None, 3))")
        self(_symbolic_inputs(input_shape))

    def quantize(self, mode=None, config=None, filters=None, **kwargs):
        """Quantize the weights of its Dense, EinsumDense and (Reversible)Embedding
        layers to "int8", "int4" or "float8" (or as a
        `keras.quantizers.QuantizationConfig` says); `filters`: a regular
        expression, a list of them, or a callable choosing layers."""
        quantization_config.quantize_model(self, mode, config, filters, **kwargs)

    def get_config(self):
        """The constructor arguments (a subclassed model with only plain
        arguments gets them automatically, as a layer does)."""
        return Layer.get_config(self)

    get_config._automatic = True

    @classmethod
    def from_config(cls, config, custom_objects=None):
        if cls is Model or cls is Functional:
            inputs, outputs, name, trainable = functional_config.rebuild(config,
                                                                         custom_objects)
            return Functional(inputs, outputs, name=name, trainable=trainable)
        return cls(**config)

    def get_compile_config(self):
        """compile's arguments, serialized (None before compile)."""
        args = self._keras_state.compile_args
        if args is None:
            return None
        return {k: serialization.serialize_keras_object(v) for k, v in args.items()}

    def compile_from_config(self, config):
        """compile() with the arguments `get_compile_config` wrote."""
        args = {k: _deserialize_compile_arg(k, v) for k, v in config.items()
                if k in ("optimizer", "loss", "metrics", "loss_weights", "weighted_metrics",
                         "run_eagerly")}
        self.compile(**args)

    def to_json(self, **kwargs):
        """The model's architecture as JSON (Keras 3's layout; no weights)."""
        return json.dumps(serialization.serialize_keras_object(self), default=_json_default,
                          **kwargs)

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

    def export(self, filepath, format="tf_saved_model", verbose=None,  # noqa: A002
               input_signature=None, **kwargs):
        """Write the model's inference as a SavedModel with the endpoint "serve"
        (`keras.export.ExportArchive`); `tf.saved_model.load(filepath).serve(x)`
        and `keras.layers.TFSMLayer(filepath)` run it. ONNX: `runtime.onnx.from_keras`."""
        formats = ("tf_saved_model", "onnx", "openvino", "litert", "torch")
        if format not in formats:
            raise ValueError(f"Unrecognized format={format}. Supported formats are: "
                             f"{list(formats)}.")
        if format == "torch":
            raise ValueError("Torch export requires PyTorch backend.")
        if format != "tf_saved_model":
            raise ValueError(f"model.export(format={format!r}) is not available in this "
                             "runtime: export a SavedModel (format='tf_saved_model'), or ONNX "
                             "with runtime.onnx.from_keras(model, output_path=...)")
        export_saved_model(self, filepath, verbose, input_signature=input_signature, **kwargs)

    def summary(self, line_length=None, positions=None, print_fn=None, **kwargs):
        """Print Keras's table: each layer's name and type, output shape and
        number of weights, then the totals."""
        summary.print_summary(self, self.layers, line_length=line_length,
                              positions=positions, print_fn=print_fn)


def _functional_arguments(args, kwargs):
    """Keras 3's test for Model(inputs, outputs) arguments."""
    return (len(args) == 2 or (len(args) == 1 and "outputs" in kwargs)
            or ("inputs" in kwargs and "outputs" in kwargs))


def _functional_subclass(cls):
    """`cls` (a Model subclass) with Functional beneath it, so that
    `cls(inputs, outputs)` builds a functional model with `cls`'s methods.

    Made once per class and kept on the class itself (not in a table of this
    module), so a user's class and its functional form go together when the
    user drops the class."""
    if issubclass(cls, Functional):
        return cls
    made = cls.__dict__.get("_keras_functional_form")
    if made is None:
        made = type(cls.__name__, (cls, Functional),
                    {"__module__": cls.__module__, "__qualname__": cls.__qualname__})
        cls._keras_functional_form = made
    return made


class Functional(Model):
    """`tf.keras.Model(inputs, outputs, name=None)`: the layers called on
    KerasTensors from `inputs` (an `Input`, or a list or dict of them) up to
    `outputs` (a KerasTensor, or a list or dict of them). Calling the model
    runs those layer calls on real tensors, in the same structures."""

    _keras_module = "keras.src.models.functional"     # as Keras 3 writes it
    _layers_saved_first = True     # Keras 3's saving walk visits `layers` first

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

    def get_config(self):
        return functional_config.functional_config(self)

    def get_build_config(self):
        return None

    @property
    def input(self):
        return self._inputs_struct

    @property
    def output(self):
        return self._outputs_struct

    @property
    def input_shape(self):
        """The inputs' shapes (batch dimension None): a tuple, or a list of
        them for several inputs, as Keras 3."""
        return _shapes_of(self.inputs)

    @property
    def output_shape(self):
        return _shapes_of(self.outputs)

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


def _deserialize_compile_arg(key, value):
    """A compile argument back from its config (names stay names)."""
    if key in ("loss_weights", "run_eagerly") or value is None or isinstance(value, str):
        return value
    module = {"optimizer": "keras.optimizers", "loss": "keras.losses"}.get(key,
                                                                         "keras.metrics")
    if isinstance(value, list):
        return [_deserialize_compile_arg(key, v) for v in value]
    if isinstance(value, dict) and "class_name" not in value:
        return {k: _deserialize_compile_arg(key, v) for k, v in value.items()}
    return serialization.deserialize_keras_object(value, module=module)


def _overrides_build(model):
    """Whether a subclass of Model defines its own build."""
    for cls in type(model).__mro__:
        if cls in (Model, Functional, Sequential):
            return False
        if "build" in cls.__dict__:
            return True
    return False


def _is_shape(value):
    return isinstance(value, (list, tuple)) and all(
        d is None or isinstance(d, int) for d in value)


def _symbolic_inputs(input_shape):
    """KerasTensors of `input_shape` (one shape, or a list / dict of shapes)."""
    if isinstance(input_shape, TensorShape):
        input_shape = input_shape.as_list()
    if _is_shape(input_shape):
        return KerasTensor(tuple(input_shape), "float32")
    if isinstance(input_shape, dict):
        return {k: _symbolic_inputs(v) for k, v in input_shape.items()}
    if isinstance(input_shape, (list, tuple)):
        return [_symbolic_inputs(v) for v in input_shape]
    raise ValueError(f"build: cannot interpret input_shape={input_shape!r}; give a tuple "
                     "such as (None, 3), or a list or dict of them")


def _json_default(value):
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"to_json: cannot write {value!r} ({type(value).__name__}) as JSON")


def _shapes_of(tensors):
    shapes = [tuple(t.shape) for t in tensors]
    return shapes[0] if len(shapes) == 1 else shapes


def _batch_free_spec(x):
    if not isinstance(x, Tensor) or x.shape.dims is None:
        raise ValueError(f"Model: cannot record the input signature of {x!r}")
    return TensorSpec(TensorShape([None] + list(x.shape.dims[1:])), x.dtype)


class Sequential(Model):
    """`tf.keras.Sequential(layers=None, name=None)`: each layer feeds the next."""

    _keras_module = "keras"
    _layers_saved_first = True     # Keras 3's saving walk visits `layers` first

    def __init__(self, layers=None, name=None, trainable=True, **kwargs):
        kwargs.pop("dtype", None)
        super().__init__(name=name, trainable=trainable, **kwargs)
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
        if shape is None:
            return
        self(KerasTensor(shape, dtype))
        self._symbolic_io()       # the layers' `input`/`output`, from the Input's tensor

    def pop(self):
        if not self._layers:
            raise TypeError("There are no layers in the model.")
        layer = self._layers.pop()
        return layer

    @property
    def layers(self):
        return list(self._layers)

    def build(self, input_shape=None):
        """Build every layer for inputs of `input_shape` (batch dimension first)."""
        if input_shape is None:
            if self._input_layer is None:
                raise ValueError("You must provide an `input_shape` argument.")
            input_shape = self._input_layer.batch_shape
        if not self._layers:
            raise ValueError(f'Sequential model "{self.name}" has no layers to build')
        if self.built and self.weights:
            return
        self._build_input_shape = tuple(input_shape)
        self(_symbolic_inputs(input_shape))

    def get_config(self):
        layers = []
        shape = self._build_shape()
        if self._input_layer is not None:
            layers.append(serialization.serialize_keras_object(self._input_layer))
        elif shape is not None:
            layers.append({"module": "keras.layers", "class_name": "InputLayer",
                           "config": {"batch_shape": shape, "dtype": "float32",
                                      "sparse": False, "ragged": False,
                                      "name": "input_layer", "optional": False},
                           "registered_name": None})
        layers.extend(serialization.serialize_keras_object(layer) for layer in self._layers)
        config = {"name": self.name, "trainable": self.trainable,
                  "dtype": serialization.dtype_policy_config(self.dtype), "layers": layers}
        if shape is not None:
            config["build_input_shape"] = shape
        return config

    def _build_shape(self):
        if self._input_layer is not None:
            return tuple(self._input_layer.batch_shape)
        shape = getattr(self, "_build_input_shape", None)
        if shape is None and self._layers:
            shape = getattr(self._layers[0], "_build_input_shape", None)
        return None if shape is None else tuple(shape)

    def get_build_config(self):
        return None

    @classmethod
    def from_config(cls, config, custom_objects=None):
        model = cls(name=config.get("name"), trainable=config.get("trainable", True))
        for entry in config["layers"]:
            entry = {k: v for k, v in entry.items() if k != "build_config"}
            model.add(serialization.deserialize_keras_object(entry, custom_objects,
                                                             module="keras.layers"))
        shape = config.get("build_input_shape")
        if shape is not None and not model.weights:
            model.build(tuple(shape))
        return model

    @property
    def inputs(self):
        """[the Input's KerasTensor] of a Sequential built from an `Input`."""
        return [self._symbolic_io()[0]]

    @property
    def outputs(self):
        return [self._symbolic_io()[1]]

    @property
    def input_shape(self):
        return tuple(self._symbolic_io()[0].shape)

    @property
    def output_shape(self):
        return tuple(self._symbolic_io()[1].shape)

    def _symbolic_io(self):
        """(input, output) KerasTensors of the layers called on the Input (or,
        as Keras, on an Input made from the first layer's `input_shape`)."""
        io = getattr(self, "_io_cache", None)
        if io is None or io[2] != len(self._layers):
            x = y = self._symbolic_input()
            for layer in self._layers:       # each layer's node, as in a functional model
                y = layer(y)
            io = self._io_cache = (x, y, len(self._layers))
        return io[:2]

    def _symbolic_input(self):
        if self._input_layer is not None:
            return self._input_layer.output
        shape = self._layers[0]._batch_input_shape if self._layers else None
        if shape is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined input: "
                                 "start it with tf.keras.Input(shape) to give it one")
        return InputLayer(batch_shape=shape, dtype="float32").output

    def call(self, inputs, training=None):
        x, mask = inputs, None
        for layer in self._layers:
            kwargs = {} if training is None else {"training": training}
            x, mask = masking.call_masked(layer, x, mask, **kwargs)
        if self.__dict__.pop("_names_to_take", False):
            for _ in self._layers:            # the layers' symbolic outputs
                unique_name("keras_tensor")
            unique_name("functional")          # the Functional Keras builds inside
        return x

    def _build_for(self, inputs):
        """Built by a call on data: Keras 3 builds a Functional on an InputLayer
        then, taking the names that takes (input_layer, keras_tensor per tensor,
        functional), so later objects get Keras's numbers (keras_tensor_5)."""
        if not self.built and not any(isinstance(t, KerasTensor) for t in nest.flatten(inputs)):
            if self._input_layer is None:
                unique_name("input_layer")
            unique_name("keras_tensor")
            self._names_to_take = True
        super()._build_for(inputs)
