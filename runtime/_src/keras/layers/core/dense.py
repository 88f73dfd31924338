"""`keras.layers.Dense(units, activation=None, use_bias=True)`:
y = activation(bias_add(x @ kernel, bias)), kernel (in, units) glorot-uniform,
bias (units,) zeros; x of rank > 2 is multiplied along its last axis.

The kernel-and-bias helpers here (`init_kernel_and_bias`, `add_kernel_and_bias`,
`kernel_and_bias_config`) serve Conv2D and EinsumDense too."""

import numbers

from runtime._src.keras.activations import activations
from runtime._src.keras.constraints import constraints
from runtime._src.keras.initializers import initializers
from runtime._src.keras.regularizers import regularizers
from runtime._src.keras.layers.core import float8_quantization, quantization
from runtime._src.keras.layers.core.lora import LoraMixin
from runtime._src.keras.layers.layer import InputSpec, Layer
from runtime._src.keras.ops import numpy as knp
from runtime._src.keras.quantizers import quantizers
from runtime._src.keras.saving.serialization_lib import serialize_keras_object as _serialize
from runtime._src.ops import array_ops, math_ops, nn_ops
from runtime._src.sparse.sparse_ops import sparse_dense_matmul
from runtime._src.sparse.sparse_tensor import SparseTensor

__all__ = ["Dense", "init_kernel_and_bias"]


class Dense(quantization.QuantizableKernel, LoraMixin, Layer):
    """`tf.keras.layers.Dense(units, activation=None, use_bias=True,
    kernel_initializer="glorot_uniform", bias_initializer="zeros",
    kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
    kernel_constraint=None, bias_constraint=None, lora_rank=None, lora_alpha=None,
    quantization_config=None)`; `quantize("int8" / "int4" / "float8")`
    (layers/core/quantization.py, float8_quantization.py); `enable_lora` (lora.py)."""

    supports_masking = True         # the input's mask passes on (Keras 3.15)
    _lora_alpha_on_build = False    # Keras 3.15's build enables LoRA with alpha = rank

    def __init__(self, units, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, **kwargs):
        self.quantization_config = quantization.config_argument(
            kwargs.pop("quantization_config", None))
        self._init_lora(kwargs)
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
        return {**super().get_config(), "units": self.units, **kernel_and_bias_config(self),
                "quantization_config": _serialize(self.quantization_config)}

    @property
    def kernel(self):
        """The kernel variable (int8 when quantized; int4: the unpacked values;
        with LoRA: kernel + (alpha / rank) * a @ b)."""
        kernel = self._kernel
        if self.quantization_mode == "int4" and kernel is not None:
            kernel = quantizers.unpack_int4(kernel, self.units, axis=-1)
        return self._lora_merged(kernel)

    @kernel.setter
    def kernel(self, value):
        self._kernel = value

    def build(self, input_shape):
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError(f'Layer "{self.name}": the last dimension of its input must be '
                             f"known to build the kernel; got input shape {input_shape}")
        mode = self.quantization_mode
        if mode == "float8":
            float8_quantization.float8_build(self)
        elif mode:
            quantization.dense_quantized_build(self, (input_dim, self.units), mode,
                                               self.quantization_config)
        add_kernel_and_bias(self, None if mode in ("int8", "int4") else (input_dim, self.units),
                            (self.units,))
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})
        self.built = True
        self._build_lora()

    _int_quantize = quantization.dense_quantize
    _int_requantized = quantization.dense_requantized

    def call(self, inputs, training=None):
        if self.quantization_mode == "float8":
            if self.lora_enabled:
                raise NotImplementedError("Currently, `_float8_call` doesn't support LoRA")
            return float8_quantization.float8_call(self, inputs, _float8_matmul, training)
        if self.quantization_mode:
            return quantization.dense_quantized_call(self, inputs)
        kernel = self.kernel
        if inputs.dtype != kernel.dtype:
            inputs = math_ops.cast(inputs, kernel.dtype)
        if isinstance(inputs, SparseTensor) and inputs.shape.rank == 2:
            outputs = sparse_dense_matmul(inputs, kernel)    # Keras 3 on TF: sparse inputs
        elif inputs.shape.rank == 2:
            outputs = math_ops.matmul(inputs, kernel)
        else:
            outputs = _matmul_last_axis(inputs, kernel, self.units)
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias)
        return self.activation(outputs)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)


def _float8_matmul(x, kernel):
    return knp.matmul(x, kernel)


def init_kernel_and_bias(layer, activation, use_bias, kernel_initializer, bias_initializer,
                         kernel_regularizer=None, bias_regularizer=None,
                         kernel_constraint=None, bias_constraint=None):
    """The attributes Dense and Conv2D share; `kernel` and `bias` are made by build()."""
    layer.activation = activations.get(activation)
    layer.use_bias = bool(use_bias)
    set_weight_options(layer, kernel_initializer, bias_initializer, kernel_regularizer,
                       bias_regularizer, kernel_constraint, bias_constraint)
    layer.kernel = None
    layer.bias = None


def set_weight_options(layer, kernel_initializer, bias_initializer, kernel_regularizer,
                       bias_regularizer, kernel_constraint, bias_constraint):
    """The kernel's and bias's initializers, regularizers and constraints as
    the layer's attributes (their identifiers resolved)."""
    layer.kernel_initializer = initializers.get(kernel_initializer)
    layer.bias_initializer = initializers.get(bias_initializer)
    layer.kernel_regularizer = regularizers.get(kernel_regularizer)
    layer.bias_regularizer = regularizers.get(bias_regularizer)
    layer.kernel_constraint = constraints.get(kernel_constraint)
    layer.bias_constraint = constraints.get(bias_constraint)


def weight_options_config(layer):
    """`set_weight_options`' attributes and the activity regularizer, serialized
    in Keras 3's order."""
    ser = _serialize
    return {"kernel_initializer": ser(layer.kernel_initializer),
            "bias_initializer": ser(layer.bias_initializer),
            "kernel_regularizer": ser(layer.kernel_regularizer),
            "bias_regularizer": ser(layer.bias_regularizer),
            "activity_regularizer": ser(layer.activity_regularizer),
            "kernel_constraint": ser(layer.kernel_constraint),
            "bias_constraint": ser(layer.bias_constraint)}


def add_kernel_and_bias(layer, kernel_shape, bias_shape):
    """Create `kernel` (unless kernel_shape is None) and `bias` when use_bias, with
    the layer's initializers, regularizers and constraints."""
    if kernel_shape is not None:
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








