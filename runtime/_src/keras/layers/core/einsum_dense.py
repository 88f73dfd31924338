"""`keras.layers.EinsumDense(equation, output_shape, activation=None,
bias_axes=None)`: y = einsum(equation, x, kernel) (+ bias), the kernel's shape
read off the equation, as Keras 3.

    EinsumDense("ab,bc->ac", output_shape=64)              a Dense layer
    EinsumDense("abc,cde->abde", output_shape=(None, 8, 16), bias_axes="de")
    EinsumDense("...b,bc->...c", output_shape=64)          any leading axes

Equations are "X,Y->Z", "...X,Y->...Z" or "X...,Y->Z..." (letters only). A
kernel axis takes its size from the output (output_shape, the batch axis
left out) when the output has that letter, else from the input. The bias
covers the output axes from the first of `bias_axes` on (size 1 on those not
in bias_axes). The glorot/he/lecun initializers count fan-in over the kernel
axes shared with the input and fan-out over those shared with the output.
"""

import re

from runtime._src.keras.activations import activations
from runtime._src.keras.initializers import initializers
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.layers.core import (einsum_quantization, float8_quantization,
                                             quantization)
from runtime._src.keras.layers.core.dense import weight_options_config
from runtime._src.keras.layers.core.lora import LoraMixin
from runtime._src.keras.layers.layer import InputSpec, Layer
from runtime._src.keras.quantizers import quantizers
from runtime._src.ops import array_ops
from runtime._src.ops.einsum_ops import einsum

__all__ = ["EinsumDense"]


def _split(equation):
    """(input spec, weight spec, output spec, "left" / "right" / None elided)."""
    text = equation.replace("...", "0")
    for pattern, elided in (("([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)$", None),
                            ("0([a-zA-Z]+),([a-zA-Z]+)->0([a-zA-Z]+)$", "left"),
                            ("([a-zA-Z]{2,})0,([a-zA-Z]+)->([a-zA-Z]+)0$", "right")):
        match = re.match(pattern, text)
        if match:
            return match.group(1), match.group(2), match.group(3), elided
    raise ValueError(f"Invalid einsum equation '{equation}'. Equations must be in the form "
                     "[X],[Y]->[Z], ...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....")


def analyze(equation, bias_axes, input_shape, output_shape):
    """(kernel shape, bias shape or None, full output shape, input axes, output axes)
    of the kernel."""
    in_spec, w_spec, out_spec, elided_side = _split(equation)
    input_shape = list(input_shape)
    elided = len(input_shape) - len(in_spec)
    full = [output_shape] if isinstance(output_shape, int) else list(output_shape)
    full.insert(0, input_shape[0])
    if elided > 0 and elided_side == "left":
        for i in range(1, elided):
            full.insert(1, input_shape[i])
    elif elided > 0:
        full.extend(input_shape[len(input_shape) - elided:])
    left = elided_side == "left"
    in_map = {d: (i + elided - len(input_shape)) if left else i for i, d in enumerate(in_spec)}
    out_map = {d: (i + elided) if left else i for i, d in enumerate(out_spec)}
    for d in in_spec:
        if d in out_map and full[out_map[d]] is not None and \
                full[out_map[d]] != input_shape[in_map[d]]:
            raise ValueError(f"Input shape and output shape do not match at shared dimension "
                             f"'{d}'. Input shape is {input_shape[in_map[d]]}, and output "
                             f"shape is {full[out_map[d]]}.")
    kernel, in_axes, out_axes = [], [], []
    for i, d in enumerate(w_spec):
        if d in out_map:
            kernel.append(full[out_map[d]])
            out_axes.append(i)
        elif d in in_map:
            kernel.append(input_shape[in_map[d]])
            in_axes.append(i)
        else:
            raise ValueError(f"Weight dimension '{d}' did not have a match in either the "
                             f"input spec '{in_spec}' or the output spec '{out_spec}'. For "
                             "this layer, the weight must be fully specified.")
    bias = None
    if bias_axes is not None:
        for d in bias_axes:
            if d not in out_spec:
                raise ValueError(f"Bias dimension '{d}' was requested, but is not part of "
                                 f"the output spec '{out_spec}'")
        offset = elided if left else 0
        sizes = {d: full[i + offset] for i, d in enumerate(out_spec)}
        first = min(out_spec.find(d) for d in bias_axes)
        bias = [sizes[d] if d in bias_axes else 1 for d in out_spec[first:]]
        if not left:
            bias += [1] * max(elided, 0)
    return kernel, bias, full, in_axes, out_axes


class EinsumDense(quantization.QuantizableKernel, LoraMixin, Layer):
    """See the module docstring; `lora_rank`, `lora_alpha` and `enable_lora`: lora.py."""

    def __init__(self, equation, output_shape, activation=None, bias_axes=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, **kwargs):
        self._init_lora(kwargs)
        self.quantization_config = quantization.config_argument(
            kwargs.pop("quantization_config", None))
        super().__init__(**kwargs)
        self._equation_parts = _split(equation)      # (input, kernel, output, elided)
        self.equation, self.bias_axes = equation, bias_axes
        self.partial_output_shape = (output_shape,) if isinstance(output_shape, int) \
            else tuple(output_shape)
        self.activation = activations.get(activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer
        self.kernel_constraint, self.bias_constraint = kernel_constraint, bias_constraint
        self.full_output_shape = None
        self._kernel = None

    @property
    def kernel(self):
        """The kernel variable (int8 when quantized; int4: the unpacked values
        in the float kernel's shape; with LoRA: kernel + (alpha / rank) * a @ b)."""
        kernel = self._kernel
        if self.quantization_mode == "int4" and kernel is not None:
            unpacked = quantizers.unpack_int4(kernel, self._int4_unpacked_column_size,
                                              axis=-1)
            kernel = array_ops.reshape(unpacked, self.original_kernel_shape)
        return self._lora_merged(kernel)

    @kernel.setter
    def kernel(self, value):
        self._kernel = value

    _int_quantize = einsum_quantization.einsum_quantize
    _int_requantized = einsum_quantization.einsum_requantized

    def build(self, input_shape):
        kernel, bias, full, in_axes, out_axes = analyze(
            self.equation, self.bias_axes, input_shape, self.partial_output_shape)
        self.full_output_shape = tuple(full)
        self.input_spec = InputSpec(ndim=len(input_shape))
        init = self.kernel_initializer
        if isinstance(init, initializers.VarianceScaling) and (
                init.input_axes is None or init.output_axes is None):
            config = {**init.get_config(), "input_axes": in_axes, "output_axes": out_axes}
            init = type(init).from_config(config)
        if self.quantization_mode == "float8":
            float8_quantization.float8_build(self)
        if self.quantization_mode in ("int8", "int4"):
            einsum_quantization.einsum_quantized_build(self, kernel, self.quantization_mode,
                                                       self.quantization_config)
        else:
            self.kernel = self.add_weight(shape=tuple(kernel), initializer=init,
                                          name="kernel", regularizer=self.kernel_regularizer,
                                          constraint=self.kernel_constraint)
        self.bias = None if bias is None else self.add_weight(
            shape=tuple(bias), initializer=self.bias_initializer, name="bias",
            regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.built = True
        self._build_lora()

    def call(self, inputs, training=None):
        if self.quantization_mode == "float8":
            if self.lora_enabled:
                raise NotImplementedError("Currently, `_float8_call` doesn't support LoRA")
            return float8_quantization.float8_call(
                self, inputs, lambda x, kernel: einsum(self.equation, x, kernel), training)
        if self.quantization_mode:
            return einsum_quantization.einsum_quantized_call(self, inputs)
        x = einsum(self.equation, inputs, self._lora_merged(self._kernel.read_value()))
        if self.bias is not None:
            x = x + self.bias.read_value()
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        return tuple(analyze(self.equation, self.bias_axes, input_shape,
                             self.partial_output_shape)[2])

    def get_config(self):
        ser = serialization.serialize_keras_object
        return {**super().get_config(), "output_shape": self.partial_output_shape,
                "equation": self.equation, "activation": activations.serialize(self.activation),
                "bias_axes": self.bias_axes, **weight_options_config(self),
                "quantization_config": ser(self.quantization_config)}
