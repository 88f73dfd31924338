"""The core layers: `Dense`, `Flatten`, `Dropout`, `ReLU`, `Softmax`, `Embedding`.

    Dense(units, activation=None, use_bias=True)
        y = activation(bias_add(x @ kernel, bias)), kernel (in, units) glorot-uniform,
        bias (units,) zeros; x of rank > 2 is multiplied along its last axis
    Flatten()            (batch, d1, d2, ...) -> (batch, d1 * d2 * ...); (n,) -> (n, 1)
    Dropout(rate)        tf.nn.dropout(x, rate) when training=True, x otherwise
    ReLU(max_value=None, negative_slope=0.0, threshold=0.0)
    Softmax(axis=-1)     softmax(x), masked entries (mask False) get probability ~0
    Embedding(input_dim, output_dim)
        gather(embeddings, ids), embeddings (input_dim, output_dim) uniform in
        [-0.05, 0.05]
    Reshape(target_shape)  (batch, ...) -> (batch, *target_shape), one -1 allowed
    Activation(activation) activation(x), by name or callable
    Lambda(function, output_shape=None, arguments=None)  function(x, **arguments)
"""

import inspect
import math
import numbers

from runtime._src.core import dtypes, nest
from runtime._src.core.tensor import Tensor
from runtime._src.function.control_flow import cond
from runtime._src.keras.activations import activations
from runtime._src.keras.constraints import constraints
from runtime._src.keras.initializers import initializers
from runtime._src.keras.regularizers import regularizers
from runtime._src.keras.layers.layer import InputSpec, Layer
from runtime._src.keras.saving.serialization_lib import deserialize_keras_object
from runtime._src.keras.saving.serialization_lib import serialize_keras_object as _serialize
from runtime._src.ops import array_ops, math_ops, nn_ops, random_ops

__all__ = ["Dense", "Flatten", "Dropout", "ReLU", "Softmax", "Embedding", "Reshape",
           "Activation", "Lambda", "init_kernel_and_bias"]


class Dense(Layer):
    """`tf.keras.layers.Dense(units, activation=None, use_bias=True,
    kernel_initializer="glorot_uniform", bias_initializer="zeros",
    kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
    kernel_constraint=None, bias_constraint=None)`."""

    def __init__(self, units, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, **kwargs):
        kwargs.pop("quantization_config", None)
        kwargs.pop("lora_rank", None)
        super().__init__(**kwargs)
        if not isinstance(units, numbers.Integral) or isinstance(units, bool) or units <= 0:
            raise ValueError("Received an invalid value for `units`, expected a positive "
                             f"integer. Received: units={units!r}")
        self.units = int(units)
        init_kernel_and_bias(self, activation, use_bias, kernel_initializer, bias_initializer,
                             kernel_regularizer, bias_regularizer, kernel_constraint,
                             bias_constraint)
        self.input_spec = InputSpec(min_ndim=2)

    def get_config(self):
        return {**super().get_config(), "units": self.units, **kernel_and_bias_config(self)}

    def build(self, input_shape):
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError(f'Layer "{self.name}": the last dimension of its input must be '
                             f"known to build the kernel; got input shape {input_shape}")
        add_kernel_and_bias(self, (input_dim, self.units), (self.units,))
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})
        self.built = True

    def call(self, inputs):
        if inputs.dtype != self.kernel.dtype:
            inputs = math_ops.cast(inputs, self.kernel.dtype)
        if inputs.shape.rank == 2:
            outputs = math_ops.matmul(inputs, self.kernel)
        else:
            outputs = _matmul_last_axis(inputs, self.kernel, self.units)
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias)
        return self.activation(outputs)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)


def init_kernel_and_bias(layer, activation, use_bias, kernel_initializer, bias_initializer,
                         kernel_regularizer=None, bias_regularizer=None,
                         kernel_constraint=None, bias_constraint=None):
    """The attributes Dense and Conv2D share; `kernel` and `bias` are made by build()."""
    layer.activation = activations.get(activation)
    layer.use_bias = bool(use_bias)
    layer.kernel_initializer = initializers.get(kernel_initializer)
    layer.bias_initializer = initializers.get(bias_initializer)
    layer.kernel_regularizer = regularizers.get(kernel_regularizer)
    layer.bias_regularizer = regularizers.get(bias_regularizer)
    layer.kernel_constraint = constraints.get(kernel_constraint)
    layer.bias_constraint = constraints.get(bias_constraint)
    layer.kernel = None
    layer.bias = None


def add_kernel_and_bias(layer, kernel_shape, bias_shape):
    """Create `kernel` (and `bias` when use_bias) with the layer's initializers,
    regularizers and constraints."""
    layer.kernel = layer.add_weight(shape=kernel_shape, initializer=layer.kernel_initializer,
                                    regularizer=layer.kernel_regularizer,
                                    constraint=layer.kernel_constraint, name="kernel")
    if layer.use_bias:
        layer.bias = layer.add_weight(shape=bias_shape, initializer=layer.bias_initializer,
                                      regularizer=layer.bias_regularizer,
                                      constraint=layer.bias_constraint, name="bias")


def kernel_and_bias_config(layer):
    """The config entries `init_kernel_and_bias` set, as Keras 3 writes them."""
    return {"activation": activations.serialize(layer.activation), "use_bias": layer.use_bias,
            "kernel_initializer": _serialize(layer.kernel_initializer),
            "bias_initializer": _serialize(layer.bias_initializer),
            "kernel_regularizer": _serialize(layer.kernel_regularizer),
            "bias_regularizer": _serialize(layer.bias_regularizer),
            "kernel_constraint": _serialize(layer.kernel_constraint),
            "bias_constraint": _serialize(layer.bias_constraint)}


def _matmul_last_axis(inputs, kernel, units):
    """inputs (..., in) @ kernel (in, units) -> (..., units)."""
    shape = array_ops.shape(inputs)
    flat = array_ops.reshape(inputs, [-1, kernel.shape.dims[0]])
    out = math_ops.matmul(flat, kernel)
    out_shape = array_ops.concat([shape[:-1], array_ops.constant([units])], 0)
    return array_ops.reshape(out, out_shape)


class Flatten(Layer):
    """`tf.keras.layers.Flatten()`: keep the batch axis, flatten the rest."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format
        self.input_spec = InputSpec(min_ndim=1)

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format or "channels_last"}

    def call(self, inputs):
        rank = inputs.shape.rank
        if rank == 1:
            return array_ops.expand_dims(inputs, 1)
        dims = inputs.shape.dims
        if dims is not None and None not in dims[1:]:
            return array_ops.reshape(inputs, [-1, math.prod(dims[1:])])
        batch = array_ops.shape(inputs)[:1]
        return array_ops.reshape(inputs, array_ops.concat(
            [batch, array_ops.constant([-1])], 0))

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        return (input_shape[0], None if None in rest else math.prod(rest))


class Dropout(Layer):
    """`tf.keras.layers.Dropout(rate, noise_shape=None, seed=None)`: active
    only when called with `training=True` (directly or from an enclosing
    layer's call)."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(rate, numbers.Real) or not 0 <= rate <= 1:
            raise ValueError("Invalid value received for argument `rate`. Expected a float "
                             f"value between 0 and 1. Received: rate={rate!r}")
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed,
                "noise_shape": self.noise_shape}

    def call(self, inputs, training=False):
        if self.rate == 0:
            return inputs
        if isinstance(training, Tensor):
            return cond(training, lambda: self._drop(inputs),
                        lambda: math_ops.identity(inputs))
        if training:
            return self._drop(inputs)
        return inputs

    def _drop(self, inputs):
        if self.rate == 1:
            return array_ops.zeros_like(inputs)
        return random_ops.dropout(inputs, self.rate, noise_shape=self.noise_shape,
                                  seed=self.seed)

    def compute_output_shape(self, input_shape):
        return input_shape


class ReLU(Layer):
    """`tf.keras.layers.ReLU(max_value=None, negative_slope=0.0, threshold=0.0)`:
    `keras.activations.relu` with these arguments: x above threshold (TF 2.21:
    [0, 0, 2] for [0, 1, 2] and threshold 1), clipped at max_value,
    negative_slope * (x - threshold) below threshold."""

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        for arg, value in (("max_value", max_value), ("negative_slope", negative_slope),
                           ("threshold", threshold)):
            if value is not None and value < 0:
                raise ValueError(f"{arg} of a ReLU layer cannot be a negative value. "
                                 f"Received: {arg}={value}")
        self.max_value = max_value
        self.negative_slope = negative_slope
        self.threshold = threshold

    def get_config(self):
        return {**super().get_config(), "max_value": self.max_value,
                "negative_slope": self.negative_slope, "threshold": self.threshold}

    def call(self, inputs):
        return activations.relu(inputs, negative_slope=self.negative_slope,
                                max_value=self.max_value, threshold=self.threshold)

    def compute_output_shape(self, input_shape):
        return input_shape


class Softmax(Layer):
    """`tf.keras.layers.Softmax(axis=-1)`; `mask` (True = keep) pushes masked
    logits down by 1e9 first, as Keras does."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}

    def call(self, inputs, mask=None):
        if mask is not None:
            penalty = math_ops.multiply(
                math_ops.subtract(array_ops.constant(1.0, inputs.dtype),
                                  math_ops.cast(mask, inputs.dtype)),
                array_ops.constant(-1e9, inputs.dtype))
            inputs = math_ops.add(inputs, penalty)
        return activations.softmax(inputs, axis=self.axis)

    def compute_output_shape(self, input_shape):
        return input_shape


class Embedding(Layer):
    """`tf.keras.layers.Embedding(input_dim, output_dim,
    embeddings_initializer="uniform", mask_zero=False)`: row `i` of the table
    for each id `i`; mask_zero=True makes id 0 padding (backend/masking.py)."""

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None, mask_zero=False,
                 **kwargs):
        kwargs.pop("input_length", None)
        kwargs.pop("quantization_config", None)
        kwargs.pop("lora_rank", None)
        super().__init__(**kwargs)
        for arg, value in (("input_dim", input_dim), ("output_dim", output_dim)):
            if not isinstance(value, numbers.Integral) or value <= 0:
                raise ValueError(f"Both `input_dim` and `output_dim` should be positive, "
                                 f"Received input_dim = {input_dim} and "
                                 f"output_dim = {output_dim}")
        self.input_dim = int(input_dim)
        self.output_dim = int(output_dim)
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.mask_zero = bool(mask_zero)
        self.embeddings = None

    def get_config(self):
        return {**super().get_config(), "input_dim": self.input_dim,
                "output_dim": self.output_dim,
                "embeddings_initializer": _serialize(self.embeddings_initializer),
                "embeddings_regularizer": _serialize(self.embeddings_regularizer),
                "activity_regularizer": _serialize(self.activity_regularizer),
                "embeddings_constraint": _serialize(self.embeddings_constraint),
                "mask_zero": self.mask_zero}

    def compute_mask(self, inputs, mask=None):
        """True where the id is not 0 (with mask_zero=True), else None."""
        if not self.mask_zero:
            return None
        return math_ops.not_equal(inputs, array_ops.zeros_like(inputs))

    def build(self, input_shape=None):
        self.embeddings = self.add_weight(shape=(self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer,
                                          constraint=self.embeddings_constraint,
                                          name="embeddings")
        self.built = True

    def call(self, inputs):
        if inputs.dtype not in (dtypes.int32, dtypes.int64):
            inputs = math_ops.cast(inputs, dtypes.int32)
        return array_ops.gather(self.embeddings, inputs)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape) + (self.output_dim,)


class Reshape(Layer):
    """`tf.keras.layers.Reshape(target_shape)`: each sample reshaped to
    `target_shape` (one entry may be -1, inferred from the size)."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)

    def get_config(self):
        return {**super().get_config(), "target_shape": self.target_shape}

    def _resolved(self, sample_shape):
        """target_shape with its -1 filled in from `sample_shape` (None if unknown)."""
        target = self.target_shape
        unknown = [i for i, d in enumerate(target) if d == -1]
        if len(unknown) > 1:
            raise ValueError("There must be at most one unknown dimension (-1) in "
                             f"`target_shape`. Received: target_shape={target}.")
        if None in sample_shape:
            return tuple(None if d == -1 else d for d in target)
        size = math.prod(sample_shape)
        known = math.prod(d for d in target if d != -1)
        if (unknown and (known == 0 or size % known)) or (not unknown and size != known):
            raise ValueError("The total size of the tensor must be unchanged. Received: "
                             f"input_shape={tuple(sample_shape)}, target_shape={target}")
        return tuple(size // known if d == -1 else d for d in target)

    def call(self, inputs):
        dims = inputs.shape.dims
        if dims is not None:
            resolved = self._resolved(dims[1:])
            if None not in resolved:
                return array_ops.reshape(inputs, [-1, *resolved])
        batch = array_ops.shape(inputs)[:1]
        return array_ops.reshape(inputs, array_ops.concat(
            [batch, array_ops.constant(list(self.target_shape))], 0))

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + self._resolved(tuple(input_shape[1:]))


class Activation(Layer):
    """`tf.keras.layers.Activation(activation)`: the activation (a name such as
    "relu", or a callable) applied to the input."""

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def get_config(self):
        return {**super().get_config(),
                "activation": activations.serialize(self.activation)}

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return input_shape


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
