"""int8 / int4 weights for Dense and Embedding (`layer.quantize(mode)`), as
Keras 3.15.

    Dense int8:   kernel int8 (in, units), kernel_scale (units,); the inputs
                  quantized per row (the config's activation quantizer, by
                  default AbsMaxQuantizer()), y = (q_x @ q_k) / (s_x * s_k)
    Dense int4:   kernel int8 (in, ceil(units / 2)), two int4 a byte along the
                  last axis; per channel (block_size None / -1) kernel_scale
                  (units,), y = x @ q_k / s_k; in groups of block_size input
                  rows kernel_scale and kernel_zero (groups, units) and g_idx
                  (in,), y = x @ ((q_k - zero) * scale)
    Embedding:    embeddings int8 (in, out) with embeddings_scale (in,), or
                  packed int4 (in, ceil(out / 2)) with per-row scales, or
                  scales and zero points (in, groups) and g_idx (out,)

The quantized weights are not trainable; the gradient reaching the inputs
of Dense is that of x @ dequantized kernel (the rounding of the inputs
passes it through unchanged), as Keras's custom gradient.
"""

import math

import numpy as np

from runtime._src.keras.dtype_policies import dtype_policy as policies
from runtime._src.keras.layers.core import float8_quantization
from runtime._src.keras.ops import core as kcore
from runtime._src.keras.ops import numpy as knp
from runtime._src.keras.quantizers import quantizers
from runtime._src.keras.quantizers.quantization_config import (QuantizationConfig,
                                                               get_block_size_for_layer)
from runtime._src.keras.saving import serialization_lib

__all__ = ["config_argument", "dense_quantize", "dense_quantized_build", "dense_quantized_call",
           "embedding_quantize", "embedding_quantized_build", "embedding_quantized_call",
           "saved_weights_order", "set_policy", "add_frozen_weight", "drop_weight",
           "group_index", "is_grouped", "mode_error", "quantized_matmul"]

_SPEC = {"int8": ("kernel", "bias", "kernel_scale"),
         "int4": ("kernel", "bias", "kernel_scale", "kernel_zero", "g_idx"),
         "float8": ("kernel", "bias") + float8_quantization.FLOAT8_WEIGHTS}
_EMBEDDING_SPEC = {"int8": ("embeddings", "embeddings_scale"),
                   "int4": ("embeddings", "embeddings_scale", "embeddings_zero", "g_idx")}


class QuantizableKernel:
    """`_quantize`, `_saved_weights_order` and `_lora_requantized` of a layer with
    one quantizable kernel (Dense, EinsumDense). The class that defines
    `_int_quantize(layer, mode, config)` and `_int_requantized(layer, delta)` owns
    them: as Keras, its subclasses must quantize themselves."""

    def _quantize(self, mode, type_check, config):
        owner = next(c for c in type(self).__mro__ if "_int_quantize" in c.__dict__)
        if type_check and type(self) is not owner:
            raise self._not_implemented_error("quantize")
        if mode == "float8":
            self.quantization_config = config
            float8_quantization.float8_build(self)
            set_policy(self, mode, config)
        else:
            self._int_quantize(mode, config)

    def _saved_weights_order(self):
        order = saved_weights_order(self)
        return self._lora_saved_order(order) if self.lora_enabled else order

    def _lora_requantized(self):
        return self._int_requantized(self._lora_delta())


def mode_error(mode, modes=policies.QUANTIZATION_MODES):
    return NotImplementedError(f"Invalid quantization mode. Expected one of {modes}. "
                               f"Received: quantization_mode={mode}")


def is_grouped(block_size):
    return block_size is not None and block_size > 0


def add_frozen_weight(layer, name, shape, dtype=None, initializer="ones"):
    variable = layer.add_weight(name=name, shape=shape, initializer=initializer,
                                dtype=dtype, trainable=False)
    setattr(layer, name, variable)
    return variable


def group_index(n, block_size):
    return np.floor_divide(np.arange(n, dtype="float32"), block_size)


def set_policy(layer, mode, config):
    if layer._quantized_policy is not None:
        return
    if mode == "int4":
        block_size = get_block_size_for_layer(layer, config)
        mode = f"int4/{-1 if block_size is None else block_size}"
    layer._quantized_policy = policies.get(f"{mode}_from_{layer.dtype_policy.name}")


def drop_weight(layer, variable):
    layer._own_weights = [w for w in layer._own_weights if w is not variable]


def replace_quantized(layer, old, build, prefix, mode, config, value, scale, zero):
    """Drop the float weight `old`, `build()` the quantized weights, and store
    `value` in `layer._<prefix>`, `scale` (and `zero`) in `<prefix>_scale`
    (`<prefix>_zero`); then set the quantized dtype policy."""
    drop_weight(layer, old)
    build()
    getattr(layer, f"_{prefix}").assign(value)
    getattr(layer, f"{prefix}_scale").assign(scale)
    if zero is not None:
        getattr(layer, f"{prefix}_zero").assign(zero)
    set_policy(layer, mode, config)


def config_argument(config):
    """A layer's `quantization_config` argument: None, a QuantizationConfig or
    its serialized dict."""
    if isinstance(config, dict):
        config = serialization_lib.deserialize_keras_object(config, module="keras.quantizers")
    if config is not None and not isinstance(config, QuantizationConfig):
        raise ValueError("Argument `quantization_config` must be an instance of "
                         f"`QuantizationConfig`. Received: {config!r}")
    return config


def saved_weights_order(layer):
    """The layer's weights in the order Keras 3.15 saves a quantized layer's
    (its variable_serialization_spec), None when it is not quantized."""
    mode = layer.quantization_mode
    if mode is None:
        return None
    spec = _EMBEDDING_SPEC if hasattr(layer, "_embeddings") else _SPEC
    names = ["_" + n if n in ("kernel", "embeddings") else n for n in spec[mode]]
    return [getattr(layer, n) for n in names if getattr(layer, n, None) is not None]


# --- Dense ----------------------------------------------------------------------------


def dense_quantized_build(layer, kernel_shape, mode, config=None):
    """The quantized kernel variables of a Dense layer with `kernel_shape`."""
    inputs_dim, units = kernel_shape
    if mode == "int8":
        layer.inputs_quantizer = QuantizationConfig.activation_quantizer_or_default(
            config, quantizers.AbsMaxQuantizer())
        layer._kernel = add_frozen_weight(layer, "kernel", kernel_shape, "int8", "zeros")
        add_frozen_weight(layer, "kernel_scale", (units,))
    elif mode == "int4":
        layer.inputs_quantizer = QuantizationConfig.activation_quantizer_or_default(
            config, None)
        layer._kernel = add_frozen_weight(layer, "kernel", (inputs_dim, (units + 1) // 2),
                                          "int8", "zeros")
        block_size = get_block_size_for_layer(layer, config)
        layer._int4_block_size = block_size
        groups = (units,) if not is_grouped(block_size) else \
            (math.ceil(inputs_dim / block_size), units)
        add_frozen_weight(layer, "kernel_scale", groups)
        if is_grouped(block_size):
            add_frozen_weight(layer, "kernel_zero", groups, "int8", "zeros")
            add_frozen_weight(layer, "g_idx", (inputs_dim,), "float32", "zeros").assign(
                group_index(inputs_dim, block_size))
    else:
        raise mode_error(mode)
    layer._orig_output_dim = units


def dense_quantize(layer, mode, config):
    """Replace the built Dense layer's float kernel by `mode`'s."""
    layer.quantization_config = config
    kernel = layer._kernel
    shape = tuple(kernel.shape.as_list())
    block_size = getattr(config, "block_size", None) if mode == "int4" else None
    zero = None
    if mode == "int8":
        quantizer = QuantizationConfig.weight_quantizer_or_default(
            config, quantizers.AbsMaxQuantizer(axis=0))
        value, scale = quantizer(kernel.numpy(), to_numpy=True)
        scale = knp.squeeze(scale, axis=0)
    elif mode == "int4" and not is_grouped(block_size):
        quantizer = QuantizationConfig.weight_quantizer_or_default(
            config, quantizers.AbsMaxQuantizer(axis=0, value_range=(-8, 7)))
        value, scale = quantizer(kernel.numpy(), to_numpy=True)
        scale = knp.squeeze(scale, axis=0)
    elif mode == "int4":
        value, scale, zero = quantizers.abs_max_quantize_grouped_with_zero_point(
            kernel.numpy(), block_size=block_size)
    else:
        raise mode_error(mode)
    if mode == "int4":
        value = quantizers.pack_int4(np.asarray(value), axis=-1)[0]
    replace_quantized(layer, kernel, lambda: dense_quantized_build(layer, shape, mode, config),
                      "kernel", mode, config, value, scale, zero)


def quantized_matmul(x, kernel, compute_dtype):
    if x.dtype.is_integer:                # quantized inputs: exact int32 sums
        return kcore.cast(knp.matmul(kcore.cast(x, "int32"), kcore.cast(kernel, "int32")),
                          compute_dtype)
    return knp.matmul(x, kcore.cast(kernel, compute_dtype))


def _dense_dequantized_kernel(layer, kernel, scale, zero, g_idx, compute):
    if zero is None:
        return kcore.cast(knp.divide(kcore.cast(kernel, scale.dtype.name), scale), compute)
    kernel = quantizers.dequantize_with_sz_map(kcore.cast(kernel, scale.dtype.name), scale,
                                               zero, g_idx, group_axis=0)
    return kcore.cast(kernel, compute)


def dense_quantized_call(layer, inputs):
    """x @ the quantized kernel (+ bias, activation)."""
    compute = layer.compute_dtype
    kernel = kcore.convert_to_tensor(layer._kernel)
    if layer.quantization_mode == "int4":
        kernel = quantizers.unpack_int4(kernel, layer._orig_output_dim, axis=-1)
    grouped = getattr(layer, "kernel_zero", None) is not None
    scale = kcore.convert_to_tensor(layer.kernel_scale)
    zero = kcore.convert_to_tensor(layer.kernel_zero) if grouped else None
    g_idx = kcore.convert_to_tensor(layer.g_idx) if grouped else None

    @kcore.custom_gradient
    def matmul(x, scale):
        x_dtype = x.dtype.name

        def grad(upstream):       # in the scale's dtype (float32 under a mixed policy)
            float_kernel = _dense_dequantized_kernel(layer, kernel, scale, zero, g_idx,
                                                     scale.dtype.name)
            upstream = kcore.cast(upstream, scale.dtype.name)
            return kcore.cast(knp.matmul(upstream, knp.transpose(float_kernel)),
                              x_dtype), None
        if grouped:
            return quantized_matmul(x, _dense_dequantized_kernel(layer, kernel, scale, zero, g_idx,
                                                        compute), compute), grad
        out_scale = scale
        if layer.inputs_quantizer:
            x, x_scale = layer.inputs_quantizer(x, axis=-1)
            out_scale = knp.multiply(out_scale, x_scale)
        return knp.divide(quantized_matmul(x, kernel, compute), out_scale), grad

    x = matmul(inputs, scale)
    if getattr(layer, "lora_enabled", False):
        x = layer._lora_output(x, knp.matmul(inputs, layer.lora_kernel_a))
    if layer.bias is not None:
        x = knp.add(x, layer.bias)
    return layer.activation(x)


def dense_requantized(layer, delta):
    """(kernel, scale, zero or None) of the quantized Dense kernel with `delta`
    added to its dequantized values, quantized again as `dense_quantize` does
    (what Keras 3.15 saves for a LoRA layer)."""
    mode = layer.quantization_mode
    kernel = kcore.convert_to_tensor(layer._kernel)
    if mode == "int4":
        kernel = quantizers.unpack_int4(kernel, layer._orig_output_dim, axis=-1)
    grouped = getattr(layer, "kernel_zero", None) is not None
    scale = kcore.convert_to_tensor(layer.kernel_scale)
    zero = kcore.convert_to_tensor(layer.kernel_zero) if grouped else None
    g_idx = kcore.convert_to_tensor(layer.g_idx) if grouped else None
    merged = knp.add(_dense_dequantized_kernel(layer, kernel, scale, zero, g_idx,
                                               layer.compute_dtype), delta).numpy()
    if grouped:
        value, scale, zero = quantizers.abs_max_quantize_grouped_with_zero_point(
            merged, block_size=layer._int4_block_size)
    else:
        value, scale = quantizers.abs_max_quantize(
            merged, axis=0, value_range=(-8, 7) if mode == "int4" else (-127, 127),
            to_numpy=True)
        scale = np.squeeze(np.asarray(scale), axis=0)
    if mode == "int4":
        value = quantizers.pack_int4(np.asarray(value), axis=-1)[0]
    return np.asarray(value), np.asarray(scale), None if zero is None else np.asarray(zero)


# --- Embedding ------------------------------------------------------------------------


def embedding_quantized_build(layer, shape, mode, config=None):
    """The quantized table variables of an Embedding layer of `shape`."""
    rows, cols = shape
    if mode == "int8":
        layer._embeddings = add_frozen_weight(layer, "embeddings", shape, "int8", "zeros")
        add_frozen_weight(layer, "embeddings_scale", (rows,))
    elif mode == "int4":
        layer._embeddings = add_frozen_weight(layer, "embeddings", (rows, (cols + 1) // 2),
                                              "int8", "zeros")
        block_size = get_block_size_for_layer(layer, config)
        layer._int4_block_size = block_size
        groups = (rows,) if not is_grouped(block_size) else (rows, math.ceil(cols / block_size))
        add_frozen_weight(layer, "embeddings_scale", groups)
        if is_grouped(block_size):
            add_frozen_weight(layer, "embeddings_zero", groups, "int8", "zeros")
            add_frozen_weight(layer, "g_idx", (cols,), "float32", "zeros").assign(
                group_index(cols, block_size))
    else:
        raise mode_error(mode)
    layer._orig_output_dim = cols


def embedding_quantize(layer, mode, config):
    """Replace the built Embedding layer's float table by `mode`'s."""
    layer.quantization_config = config
    table = layer._embeddings
    block_size = getattr(config, "block_size", None) if mode == "int4" else None
    value, scale, zero = _embedding_values(table.numpy(), mode, config, block_size)
    shape = (layer.input_dim, layer.output_dim)
    replace_quantized(layer, table, lambda: embedding_quantized_build(layer, shape, mode, config),
                      "embeddings", mode, config, value, scale, zero)


def embedding_requantized(layer, delta):
    """(table, scale, zero or None) of the quantized Embedding table with `delta`
    added to its dequantized rows, quantized again (what Keras 3.15 saves for a
    LoRA layer)."""
    rows = embedding_quantized_call(layer, knp.arange(layer.input_dim, dtype="int32"))
    merged = knp.add(rows, delta).numpy()
    block_size = getattr(layer, "_int4_block_size", None)
    values = _embedding_values(merged, layer.quantization_mode, None, block_size)
    return tuple(None if t is None else np.asarray(t) for t in values)


def _embedding_values(table, mode, config, block_size):
    """(value, scale, zero or None) of the float `table` (numpy) in `mode`."""
    zero = None
    if mode in ("int8", "int4") and not is_grouped(block_size):
        default = quantizers.AbsMaxQuantizer(axis=-1) if mode == "int8" else \
            quantizers.AbsMaxQuantizer(axis=-1, value_range=(-8, 7))
        quantizer = QuantizationConfig.weight_quantizer_or_default(config, default)
        value, scale = quantizer(table, to_numpy=True)
        scale = knp.squeeze(scale, axis=-1)
    elif mode == "int4":
        value, scale, zero = quantizers.abs_max_quantize_grouped_with_zero_point(
            np.transpose(table), block_size=block_size)
        value, scale, zero = (np.transpose(np.asarray(t)) for t in (value, scale, zero))
    else:
        raise mode_error(mode, ("int8", "int4"))
    if mode == "int4":
        value = quantizers.pack_int4(np.asarray(value), axis=-1)[0]
    return value, scale, zero


def embedding_quantized_call(layer, ids):
    """The dequantized rows of `ids`."""
    if ids.dtype.name not in ("int32", "int64"):
        ids = kcore.cast(ids, "int32")
    compute = layer.compute_dtype
    table = kcore.convert_to_tensor(layer._embeddings)
    if layer.quantization_mode == "int4":
        table = quantizers.unpack_int4(table, layer._orig_output_dim, axis=-1)
    rows = knp.take(table, ids, axis=0)
    scale = knp.take(layer.embeddings_scale, ids, axis=0)
    if getattr(layer, "embeddings_zero", None) is None:
        return knp.divide(kcore.cast(rows, compute), knp.expand_dims(scale, axis=-1))
    zero = knp.take(layer.embeddings_zero, ids, axis=0)
    return quantizers.dequantize_with_sz_map(kcore.cast(rows, compute), scale, zero,
                                             layer.g_idx, group_axis=-1)
