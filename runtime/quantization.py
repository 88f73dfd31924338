"""`tf.quantization`: fake quantization (with the range as attributes, scalar
tensors or one per channel) and quantize-then-dequantize, with TF's values
bit for bit and TF's straight-through gradients (runtime/_src/ops/quantization_ops.py).
The quantized dtypes (`qint8`...) and the ops that produce them (`quantize`,
`dequantize`, `quantized_concat`) are not here.

    >>> import runtime as tf
    >>> tf.quantization.fake_quant_with_min_max_vars([0.3, 7.0], -6.0, 6.0).numpy()
    array([0.28235295, 5.9764705 ], dtype=float32)
"""

from runtime._src.ops.quantization_ops import (
    fake_quant_with_min_max_args, fake_quant_with_min_max_args_gradient,
    fake_quant_with_min_max_vars, fake_quant_with_min_max_vars_gradient,
    fake_quant_with_min_max_vars_per_channel, fake_quant_with_min_max_vars_per_channel_gradient,
    quantize_and_dequantize, quantize_and_dequantize_v2)

__all__ = ["fake_quant_with_min_max_args", "fake_quant_with_min_max_args_gradient",
           "fake_quant_with_min_max_vars", "fake_quant_with_min_max_vars_gradient",
           "fake_quant_with_min_max_vars_per_channel",
           "fake_quant_with_min_max_vars_per_channel_gradient", "quantize_and_dequantize",
           "quantize_and_dequantize_v2"]
