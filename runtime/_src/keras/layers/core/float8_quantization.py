"""float8 training for Dense and EinsumDense (`layer.quantize("float8")`), as
Keras 3.15.

The float kernel stays. Six trainable float32 variables, never autocast,
hold delayed scales: `inputs_scale` / `inputs_amax_history`, `kernel_scale`
/ `kernel_amax_history` and `outputs_grad_scale` / `outputs_grad_amax_history`
(histories of `amax_history_length`, 1024 by default). The inputs and the
kernel are cast through float8_e4m3fn with their scale before the matmul (or
einsum); the output's gradient through float8_e5m2. In training the
"gradients" of the scale and history variables are their new values (the
scale from the history's max, the history rolled with max |x| first), and
the optimizer assigns them (their `overwrite_with_gradient`). The bias is
rounded to bfloat16 under a float32 policy, as Keras does.
"""

import ml_dtypes

from runtime._src.keras.dtype_policies import dtype_policy as policies
from runtime._src.keras.ops import core as kcore
from runtime._src.keras.ops import numpy as knp
from runtime._src.keras.quantizers import quantizers

__all__ = ["float8_build", "float8_call", "FLOAT8_WEIGHTS"]

FLOAT8_WEIGHTS = ("inputs_scale", "inputs_amax_history", "kernel_scale", "kernel_amax_history",
                  "outputs_grad_scale", "outputs_grad_amax_history")
_E4M3_MAX = float(ml_dtypes.finfo(ml_dtypes.float8_e4m3fn).max)
_E5M2_MAX = float(ml_dtypes.finfo(ml_dtypes.float8_e5m2).max)


def float8_build(layer):
    """The six scale and amax-history variables of float8 training."""
    length = getattr(layer.dtype_policy, "amax_history_length",
                     policies.QuantizedFloat8DTypePolicy.default_amax_history_length)
    for name in FLOAT8_WEIGHTS:
        history = name.endswith("history")
        setattr(layer, name, layer.add_weight(
            name=name, shape=(length,) if history else (),
            initializer="zeros" if history else "ones", dtype="float32", trainable=True,
            autocast=False, overwrite_with_gradient=True))


def _new_state(x, scale, history, dtype_max):
    new_scale = quantizers.compute_float8_scale(knp.max(history, axis=0), scale,
                                                kcore.cast(dtype_max, "float32"))
    return new_scale, quantizers.compute_float8_amax_history(x, history)


def _qdq_inputs(layer, training):
    @kcore.custom_gradient
    def qdq(x, scale, history):
        state = _new_state(x, scale, history, _E4M3_MAX) if training else (None, None)
        out = quantizers.quantize_and_dequantize(x, scale, "float8_e4m3fn", layer.compute_dtype)

        def grad(upstream):
            return upstream, state[0], state[1]
        return out, grad
    return qdq


def _qdq_output_gradient(layer):
    @kcore.custom_gradient
    def qdq(y, scale, history):
        def grad(upstream):
            new_scale, new_history = _new_state(upstream, scale, history, _E5M2_MAX)
            return (quantizers.quantize_and_dequantize(upstream, scale, "float8_e5m2",
                                                       layer.compute_dtype),
                    new_scale, new_history)
        return kcore.convert_to_tensor(y), grad
    return qdq


def float8_call(layer, inputs, product, training=None):
    """activation(product(qdq(x), qdq(kernel)) + bias), `product` the layer's
    matmul or einsum, with float8 training's gradients."""
    read = kcore.convert_to_tensor
    qdq = _qdq_inputs(layer, training)
    x = product(qdq(inputs, read(layer.inputs_scale), read(layer.inputs_amax_history)),
                qdq(read(layer._kernel), read(layer.kernel_scale),
                    read(layer.kernel_amax_history)))
    x = _qdq_output_gradient(layer)(x, read(layer.outputs_grad_scale),
                                    read(layer.outputs_grad_amax_history))
    if layer.bias is not None:
        bias = read(layer.bias)
        if layer.compute_dtype == "float32":
            bias = kcore.cast(kcore.cast(bias, "bfloat16"), bias.dtype.name)
        x = knp.add(x, bias)
    return layer.activation(x)
