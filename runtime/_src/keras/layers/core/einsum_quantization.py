"""int8 / int4 weights for EinsumDense (`layer.quantize(mode)`), as Keras 3.15.

    int8:  kernel int8 (the float kernel's shape), one abs-max scale per
           output position (the kernel's axes absent from the output
           reduced), laid out like the output (`kernel_scale`); the inputs
           quantized over their axes absent from the output;
           y = einsum(q_x, q_k) / (s_x * s_k)
    int4:  the kernel seen as (rows, columns), rows the product of its
           reduced axes (a reshape, not a transpose), packed two a byte along
           the columns; per column scales (columns,), or scales and zero
           points (groups, columns) with g_idx (rows,) in groups of block_size
           rows; y = einsum(x, dequantized kernel)

The layout of the scales follows Keras's analysis of the equation
(`quantization_info`): the permutation, expanded and squeezed axes that
take a kept-dims scale of the inputs or of the kernel to the output's axes.
"""

import math
import string

import numpy as np

from runtime._src.keras.layers.core.quantization import (add_frozen_weight, drop_weight,
                                                          group_index, is_grouped,
                                                          mode_error, replace_quantized,
                                                          set_policy)
from runtime._src.keras.ops import core as kcore
from runtime._src.keras.ops import numpy as knp
from runtime._src.keras.quantizers import quantizers
from runtime._src.keras.quantizers.quantization_config import (QuantizationConfig,
                                                               get_block_size_for_layer)

__all__ = ["einsum_quantize", "einsum_quantized_build", "einsum_quantized_call",
           "quantization_info"]


def _specs(parts, ndim):
    """The equation's (input, kernel, output) labels, "..." given free letters."""
    in_spec, w_spec, out_spec, elided = parts
    if elided is not None:
        free = sorted(set(string.ascii_letters) - set(in_spec + w_spec + out_spec))
        extra = "".join(free[:ndim - len(in_spec)])
        in_spec, out_spec = (extra + in_spec, extra + out_spec) if elided == "left" else \
            (in_spec + extra, out_spec + extra)
    return in_spec, w_spec, out_spec


def _layout(spec, out_spec, index):
    """(reduced, transpose, expand, squeeze, index) of one operand's scale.

    A reduced axis takes the place of the next output axis the operand lacks;
    when there is none it is squeezed and goes where the previous one went
    (`index`, carried over as Keras carries it)."""
    reduced = [i for i, label in enumerate(spec) if label not in out_spec]
    expand = [i for i, label in enumerate(out_spec) if label not in spec]
    transpose = [spec.find(label) for label in out_spec if label in spec]
    squeeze = []
    for axis in reduced:
        if expand:
            index = expand.pop(0)
        else:
            squeeze.append(axis)
        transpose.insert(index, axis)
    return reduced, transpose, expand, squeeze, index


def quantization_info(parts, ndim):
    """{"input" / "kernel": (reduced, transpose, expand, squeeze), "gradient":
    the einsum taking the output's gradient to the input's}, for the equation's
    parts (input, kernel, output labels, the side "..." is on) and inputs of
    rank `ndim`."""
    in_spec, w_spec, out_spec = _specs(parts, ndim)
    index = out_spec.find(w_spec[-1])
    *inputs, index = _layout(in_spec, out_spec, index)
    *kernel, _ = _layout(w_spec, out_spec, index)
    return {"input": inputs, "kernel": kernel,
            "gradient": f"{out_spec},{w_spec}->{in_spec}"}


def _for_quant(scale, layout):
    _, transpose, expand, squeeze = layout
    if transpose:
        scale = knp.transpose(scale, transpose)
    if expand:
        scale = knp.expand_dims(scale, axis=expand)
    if squeeze:
        scale = knp.squeeze(scale, axis=squeeze)
    return scale


def _for_dequant(scale, layout):
    _, transpose, expand, squeeze = layout
    if squeeze:
        scale = knp.expand_dims(scale, axis=squeeze)
    if expand:
        scale = knp.squeeze(scale, axis=expand)
    if transpose:
        scale = knp.transpose(scale, sorted(range(len(transpose)), key=transpose.__getitem__))
    return scale


def _rows_and_columns(shape, reduced):
    rows = math.prod(d for i, d in enumerate(shape) if i in reduced)
    return rows, math.prod(shape) // rows


def _scale_shape(shape, layout):
    reduced, transpose, expand, squeeze = layout
    dims = [1 if i in reduced else d for i, d in enumerate(shape)]
    dims = [dims[i] for i in transpose]
    for axis in sorted(expand):
        dims.insert(axis, 1)
    for axis in sorted(squeeze, reverse=True):
        dims.pop(axis)
    return tuple(dims)


def einsum_quantized_build(layer, kernel_shape, mode, config=None):
    """The quantized kernel variables of an EinsumDense layer."""
    info = quantization_info(layer._equation_parts, layer.input_spec.ndim)
    layer._quantization_info = info
    kernel_shape = tuple(kernel_shape)
    layer.quantization_axis = tuple(info["input"][0])
    if mode == "int8":
        layer.inputs_quantizer = QuantizationConfig.activation_quantizer_or_default(
            config, quantizers.AbsMaxQuantizer())
        layer._kernel = add_frozen_weight(layer, "kernel", kernel_shape, "int8", "zeros")
        add_frozen_weight(layer, "kernel_scale", _scale_shape(kernel_shape, info["kernel"]))
        return
    if mode != "int4":
        raise mode_error(mode)
    layer.inputs_quantizer = QuantizationConfig.activation_quantizer_or_default(config, None)
    layer.original_kernel_shape = kernel_shape
    rows, columns = _rows_and_columns(kernel_shape, info["kernel"][0])
    block_size = get_block_size_for_layer(layer, config)
    layer._int4_block_size = block_size if block_size not in (None, -1) else None
    layer._int4_unpacked_column_size = columns
    layer._kernel = add_frozen_weight(layer, "kernel", (rows, (columns + 1) // 2), "int8", "zeros")
    groups = (math.ceil(rows / block_size), columns) if is_grouped(block_size) else (columns,)
    add_frozen_weight(layer, "kernel_scale", groups)
    if is_grouped(block_size):
        add_frozen_weight(layer, "kernel_zero", groups, "int8", "zeros")
        add_frozen_weight(layer, "g_idx", (rows,), "float32", "zeros").assign(
            group_index(rows, block_size))


def einsum_quantize(layer, mode, config):
    """Replace the built EinsumDense layer's float kernel by `mode`'s."""
    layer.quantization_config = config
    kernel = layer._kernel
    shape = tuple(kernel.shape.as_list())
    info = quantization_info(layer._equation_parts, layer.input_spec.ndim)
    value, scale, zero = _quantized_values(kernel.numpy(), info, mode, config,
                                           getattr(config, "block_size", None))
    replace_quantized(layer, kernel, lambda: einsum_quantized_build(layer, shape, mode, config),
                      "kernel", mode, config, value, scale, zero)


def einsum_requantized(layer, delta):
    """(kernel, scale, zero or None) of the quantized EinsumDense kernel with
    `delta` added to its dequantized values, quantized again (what Keras 3.15
    saves for a LoRA layer)."""
    kernel = kcore.convert_to_tensor(layer._kernel)
    scale = kcore.convert_to_tensor(layer.kernel_scale)
    grouped = getattr(layer, "kernel_zero", None) is not None
    info, compute = layer._quantization_info, layer.compute_dtype
    if layer.quantization_mode == "int8":
        float_kernel = knp.divide(kcore.cast(kernel, compute), _for_dequant(scale, info["kernel"]))
    else:
        float_kernel = _int4_float_kernel(
            layer, kernel, scale, kcore.convert_to_tensor(layer.kernel_zero) if grouped else None,
            kcore.convert_to_tensor(layer.g_idx) if grouped else None, compute)
    merged = knp.add(float_kernel, delta).numpy()
    value, scale, zero = _quantized_values(merged, info, layer.quantization_mode, None,
                                           getattr(layer, "_int4_block_size", None))
    return tuple(None if t is None else np.asarray(t) for t in (value, scale, zero))


def _quantized_values(kernel, info, mode, config, block_size):
    """(value, scale, zero or None) of the float `kernel` (numpy) in `mode`."""
    reduced = info["kernel"][0]
    zero = None
    if mode == "int8":
        quantizer = QuantizationConfig.weight_quantizer_or_default(
            config, quantizers.AbsMaxQuantizer(axis=tuple(reduced)))
        value, scale = quantizer(kernel, to_numpy=True)
        scale = _for_quant(scale, info["kernel"])
    elif mode == "int4":
        flat = np.reshape(kernel, _rows_and_columns(kernel.shape, reduced))
        if is_grouped(block_size):
            value, scale, zero = quantizers.abs_max_quantize_grouped_with_zero_point(
                flat, block_size=block_size)
        else:
            value, scale = quantizers.abs_max_quantize(flat, axis=0, value_range=(-8, 7),
                                                       dtype="int8", to_numpy=True)
            scale = knp.squeeze(scale, axis=0)
        value = quantizers.pack_int4(np.asarray(value), axis=-1)[0]
    else:
        raise mode_error(mode)
    return value, scale, zero


def _int4_float_kernel(layer, packed, scale, zero, g_idx, compute):
    kernel = quantizers.unpack_int4(packed, layer._int4_unpacked_column_size, axis=-1)
    if zero is None:
        kernel = knp.divide(kcore.cast(kernel, compute), scale)
    else:
        kernel = kcore.cast(quantizers.dequantize_with_sz_map(
            kcore.cast(kernel, scale.dtype.name), scale, zero, g_idx, group_axis=0), compute)
    return knp.reshape(kernel, layer.original_kernel_shape)


def _int_einsum(equation, x, kernel, compute):
    return kcore.cast(knp.einsum(equation, kcore.cast(x, "int32"), kcore.cast(kernel, "int32")),
                      compute)


def _forward(layer, x, kernel, scale, zero, g_idx):
    """(y, the dequantized kernel for the gradient) of the quantized einsum."""
    compute, info, eq = layer.compute_dtype, layer._quantization_info, layer.equation
    if layer.quantization_mode == "int8":
        float_kernel = knp.divide(kcore.cast(kernel, compute),
                                  _for_dequant(scale, info["kernel"]))
        if not layer.inputs_quantizer:
            return knp.divide(knp.einsum(eq, x, kcore.cast(kernel, compute)),
                              scale), float_kernel
        q, x_scale = layer.inputs_quantizer(x, axis=layer.quantization_axis)
        x_scale = _for_quant(x_scale, info["input"])
        return knp.divide(_int_einsum(eq, q, kernel, compute),
                          knp.multiply(x_scale, scale)), float_kernel
    float_kernel = _int4_float_kernel(layer, kernel, scale, zero, g_idx, compute)
    if zero is None and layer.inputs_quantizer:
        q, x_scale = layer.inputs_quantizer(x, axis=layer.quantization_axis)
        x_scale = _for_quant(x_scale, info["input"])
        y = kcore.cast(knp.einsum(eq, kcore.cast(q, compute), float_kernel), compute)
        return knp.divide(y, x_scale), float_kernel
    return knp.einsum(eq, x, float_kernel), float_kernel


def einsum_quantized_call(layer, inputs):
    """einsum(x, the quantized kernel) (+ bias, activation)."""
    kernel = kcore.convert_to_tensor(layer._kernel)
    scale = kcore.convert_to_tensor(layer.kernel_scale)
    grouped = getattr(layer, "kernel_zero", None) is not None
    zero = kcore.convert_to_tensor(layer.kernel_zero) if grouped else None
    g_idx = kcore.convert_to_tensor(layer.g_idx) if grouped else None

    @kcore.custom_gradient
    def einsum(x, scale):
        y, float_kernel = _forward(layer, x, kernel, scale, zero, g_idx)

        def grad(upstream):
            return knp.einsum(layer._quantization_info["gradient"], upstream,
                              float_kernel), None
        return y, grad

    x = einsum(inputs, scale)
    if getattr(layer, "lora_enabled", False):
        x = layer._lora_output(x, knp.einsum(layer.equation, inputs, layer.lora_kernel_a))
    if layer.bias is not None:
        x = knp.add(x, layer.bias)
    return layer.activation(x)
