"""`keras.layers.ReversibleEmbedding(input_dim, output_dim, tie_weights=True,
logit_soft_cap=None)`: an Embedding that also maps vectors back to logits
over the vocabulary (a language model's input and output layer in one).

    layer(ids)                  the embedding rows, as Embedding
    layer(x, reverse=True)      x @ embeddings^T (tie_weights) or
                                x @ reverse_embeddings (output_dim, input_dim);
                                with logit_soft_cap c: c * tanh(logits / c)

`quantize("int8" / "int4")` quantizes the table as Embedding's and the
untied reverse table per input_dim column (`reverse_embeddings_scale`; int4
packed along output_dim, in groups of block_size rows with a float32
`reverse_embeddings_zero`); the reverse call quantizes x per row unless the
config's activation quantizer is None (Keras 3.15's int4 default).
"""

import math

import numpy as np

from runtime._src.core import dtypes
from runtime._src.keras.layers.core import quantization
from runtime._src.keras.layers.core.embedding import Embedding
from runtime._src.keras.ops import core as kcore
from runtime._src.keras.ops import numpy as knp
from runtime._src.keras.quantizers import quantizers
from runtime._src.keras.quantizers.quantization_config import (QuantizationConfig,
                                                               get_block_size_for_layer)
from runtime._src.ops import einsum_ops, math_ops

__all__ = ["ReversibleEmbedding"]


class ReversibleEmbedding(Embedding):
    """See the module docstring."""

    def __init__(self, input_dim, output_dim, tie_weights=True,
                 embeddings_initializer="uniform", embeddings_regularizer=None,
                 embeddings_constraint=None, mask_zero=False, reverse_dtype=None,
                 logit_soft_cap=None, **kwargs):
        super().__init__(input_dim, output_dim, embeddings_initializer=embeddings_initializer,
                         embeddings_regularizer=embeddings_regularizer,
                         embeddings_constraint=embeddings_constraint, mask_zero=mask_zero,
                         **kwargs)
        self.tie_weights, self.reverse_dtype = bool(tie_weights), reverse_dtype
        self.logit_soft_cap = logit_soft_cap

    def build(self, input_shape=None):
        super().build(input_shape)
        if self.quantization_mode:
            _reverse_quantized_build(self, self.quantization_mode, self.quantization_config)
        elif not self.tie_weights:
            self.reverse_embeddings = self.add_weight(
                shape=(self.output_dim, self.input_dim),
                initializer=self.embeddings_initializer, name="reverse_embeddings")
        self.built = True

    def call(self, inputs, reverse=False):
        if not reverse:
            return super().call(inputs)
        if self.quantization_mode:
            return self._soft_cap(_reverse_quantized_call(self, inputs))
        kernel = self.reverse_embeddings.read_value() if not self.tie_weights else \
            self._lora_merged(self._embeddings.read_value())       # with LoRA: merged
        if self.reverse_dtype is not None:
            dtype = dtypes.as_dtype(self.reverse_dtype)
            inputs, kernel = math_ops.cast(inputs, dtype), math_ops.cast(kernel, dtype)
        logits = math_ops.matmul(inputs, kernel, transpose_b=self.tie_weights) \
            if inputs.shape.rank == 2 else einsum_ops.tensordot(
                inputs, kernel, [[inputs.shape.rank - 1], [1 if self.tie_weights else 0]])
        return self._soft_cap(logits)

    def _soft_cap(self, logits):
        if self.logit_soft_cap is not None:
            cap = self.logit_soft_cap
            logits = math_ops.tanh(logits / cap) * cap
        return logits

    def _quantize(self, mode, type_check, config):
        if type_check and type(self) is not ReversibleEmbedding:
            raise self._not_implemented_error("quantize")
        reverse = None if self.tie_weights or mode not in ("int8", "int4") else \
            _quantized_reverse(self.reverse_embeddings.numpy(), mode, config)
        if reverse is not None:
            quantization.drop_weight(self, self.reverse_embeddings)
        quantization.embedding_quantize(self, mode, config)
        _reverse_quantized_build(self, mode, config)
        for name, value in zip(_REVERSE, reverse or ()):
            if value is not None:
                variable = getattr(self, name)
                variable.assign(kcore.cast(value, variable.dtype.name))

    def _saved_weights_order(self):
        order = quantization.saved_weights_order(self)
        order = order and order + [getattr(self, n) for n in _REVERSE
                                   if getattr(self, n, None) is not None]
        if not self.lora_enabled:
            return order
        saved = self._lora_saved_order(order)       # the table with LoRA merged
        if order is None and not self.tie_weights:
            saved.append(self.reverse_embeddings)
        return saved

    def compute_output_shape(self, input_shape, reverse=False):
        if reverse:
            return tuple(input_shape[:-1]) + (self.input_dim,)
        return super().compute_output_shape(input_shape)

    def get_config(self):
        return {**super().get_config(), "tie_weights": self.tie_weights,
                "reverse_dtype": self.reverse_dtype, "logit_soft_cap": self.logit_soft_cap}


_REVERSE = ("reverse_embeddings", "reverse_embeddings_scale", "reverse_embeddings_zero")


def _quantized_reverse(table, mode, config):
    """(packed or int8 values, scale, zero or None) of the untied reverse table
    (output_dim, input_dim), one scale per column."""
    block_size = getattr(config, "block_size", None) if mode == "int4" else None
    if quantization.is_grouped(block_size):
        value, scale, zero = quantizers.abs_max_quantize_grouped_with_zero_point(
            table, block_size=block_size)
    else:
        default = quantizers.AbsMaxQuantizer(axis=0) if mode == "int8" else \
            quantizers.AbsMaxQuantizer(axis=0, value_range=(-8, 7))
        quantizer = QuantizationConfig.weight_quantizer_or_default(config, default)
        value, scale = quantizer(table, to_numpy=True)
        scale, zero = knp.squeeze(scale, axis=0), None
    if mode == "int4":
        value = quantizers.pack_int4(np.asarray(value), axis=0)[0]
    return value, scale, zero


def _reverse_quantized_build(layer, mode, config):
    layer.inputs_quantizer = QuantizationConfig.activation_quantizer_or_default(
        config, quantizers.AbsMaxQuantizer(axis=-1))
    if layer.tie_weights:
        return
    rows = layer.output_dim if mode == "int8" else (layer.output_dim + 1) // 2
    block_size = get_block_size_for_layer(layer, config) if mode == "int4" else None
    scale = (math.ceil(layer.output_dim / block_size), layer.input_dim) \
        if quantization.is_grouped(block_size) else (layer.input_dim,)
    quantization.add_frozen_weight(layer, "reverse_embeddings", (rows, layer.input_dim), "int8",
                                   "zeros")
    quantization.add_frozen_weight(layer, "reverse_embeddings_scale", scale)
    if quantization.is_grouped(block_size):
        quantization.add_frozen_weight(layer, "reverse_embeddings_zero", scale, None, "zeros")


def _reverse_quantized_call(layer, inputs):
    """inputs @ the dequantized (tied or reverse) table, as Keras 3.15."""
    compute = layer.compute_dtype
    grouped = getattr(layer, "_int4_block_size", None) not in (None, -1)
    if layer.tie_weights:
        kernel = knp.transpose(layer._embeddings)
        scale, zero = layer.embeddings_scale, getattr(layer, "embeddings_zero", None)
        if grouped:
            scale, zero = knp.transpose(scale), knp.transpose(zero)
    else:
        kernel, scale = layer.reverse_embeddings, layer.reverse_embeddings_scale
        zero = getattr(layer, "reverse_embeddings_zero", None)
    if layer.quantization_mode == "int4":
        kernel = quantizers.unpack_int4(kernel, layer.output_dim, axis=0)
    if layer.inputs_quantizer:
        inputs, inputs_scale = layer.inputs_quantizer(inputs)
    else:
        inputs_scale = knp.ones((1,), dtype=compute)
    if grouped:
        kernel = quantizers.dequantize_with_sz_map(kcore.cast(kernel, compute), scale, zero,
                                                   layer.g_idx, group_axis=0)
        return knp.divide(quantization.quantized_matmul(inputs, kernel, compute), inputs_scale)
    return knp.divide(quantization.quantized_matmul(inputs, kernel, compute),
                      knp.multiply(inputs_scale, scale))
