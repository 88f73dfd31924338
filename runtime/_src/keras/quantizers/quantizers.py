"""`keras.quantizers`: Keras 3.15's int8 abs-max quantizer, int4 nibble
packing and the float8 scale bookkeeping, over `keras.ops`.

    q, scale = abs_max_quantize(x, axis=-1)       # int8 q, x ~= q / scale
    packed, shape, n = pack_int4(q4, axis=0)       # two int4 per byte
    unpack_int4(packed, n, axis=0)                 # back

`get` / `serialize` / `deserialize` resolve `Quantizer` and `AbsMaxQuantizer`
by name or config.
"""

import inspect

import ml_dtypes
import numpy as np

from runtime._src.keras.ops import core as kcore
from runtime._src.keras.ops import numpy as knp
from runtime._src.keras.ops.operation import standardize_dtype
from runtime._src.keras.saving import serialization_lib
from runtime._src.keras.utils.naming import to_snake_case
from runtime._src.ops import quantization_ops

__all__ = ["AbsMaxQuantizer", "Quantizer", "abs_max_quantize",
           "abs_max_quantize_grouped_with_zero_point", "compute_float8_amax_history",
           "compute_float8_scale", "deserialize", "fake_quant_with_min_max_vars", "get", "pack_int4", "quantize_and_dequantize",
           "serialize", "unpack_int4"]

_EPSILON = 1e-7


class Quantizer:
    """`keras.quantizers.Quantizer(output_dtype="int8")`: the base class; calling it
    returns its input."""

    _keras_module = "keras.quantizers"

    def __init__(self, output_dtype="int8"):
        self.output_dtype = output_dtype

    def __call__(self, x):
        return x

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def get_config(self):
        raise NotImplementedError(f"{self} does not implement get_config()")


def abs_max_quantize(inputs, axis, value_range=(-127, 127), dtype="int8", epsilon=_EPSILON,
                     to_numpy=False):
    """`keras.quantizers.abs_max_quantize(inputs, axis, value_range=(-127, 127),
    dtype="int8", epsilon=1e-7, to_numpy=False)`: (round(x * scale) clipped to
    value_range, in `dtype`; scale = value_range[1] / (max |x| along axis + epsilon),
    kept dims, in x's dtype)."""
    if to_numpy:
        x = np.asarray(inputs)
        scale = np.divide(value_range[1], np.max(np.abs(x), axis=axis, keepdims=True) + epsilon)
        out = np.clip(np.round(x * scale), value_range[0], value_range[1]).astype(dtype)
        return (kcore.convert_to_tensor(out),
                kcore.convert_to_tensor(scale, dtype=standardize_dtype(x.dtype)))
    inputs = kcore.convert_to_tensor(inputs)
    scale = knp.divide(value_range[1],
                       knp.add(knp.max(knp.abs(inputs), axis=axis, keepdims=True), epsilon))
    scale = kcore.cast(scale, inputs.dtype.name)
    out = knp.clip(knp.round(knp.multiply(inputs, scale)), value_range[0], value_range[1])
    return kcore.cast(out, dtype), scale


def abs_max_quantize_grouped_with_zero_point(inputs, block_size, value_range=(-8, 7),
                                             dtype="int8", epsilon=_EPSILON, to_numpy=False):
    """`keras.quantizers.abs_max_quantize_grouped_with_zero_point(inputs, block_size,
    value_range=(-8, 7), dtype="int8", epsilon=1e-7, to_numpy=False)`: asymmetric
    quantization of a 2-D kernel in groups of `block_size` rows (the last group
    padded by zeros): (quantized, scale, int8 zero point), scale =
    (max - min + epsilon) / (qmax - qmin) per group and column, in x's dtype."""
    inputs = kcore.convert_to_tensor(inputs)
    if len(inputs.shape) != 2:
        raise ValueError("abs_max_quantize_grouped_with_zero_point expects a 2-D tensor. "
                         f"Received: inputs.shape={tuple(inputs.shape.as_list())}")
    rows, cols = inputs.shape.as_list()
    groups = -(-rows // block_size)
    qmin, qmax = value_range
    padded = knp.concatenate([inputs, knp.zeros((groups * block_size - rows, cols),
                                                inputs.dtype.name)], axis=0)
    blocks = knp.reshape(padded, (groups, block_size, cols))
    low = knp.min(blocks, axis=1, keepdims=True)
    high = knp.max(blocks, axis=1, keepdims=True)
    scale = knp.divide(high - low + epsilon, qmax - qmin)
    zero = knp.clip(knp.round(knp.divide(-low, scale)) + qmin, qmin, qmax)
    out = knp.clip(knp.round(knp.divide(blocks, scale)) + zero, qmin, qmax)
    out = knp.reshape(kcore.cast(out, dtype), (groups * block_size, cols))[:rows]
    return (out, kcore.cast(knp.squeeze(scale, axis=1), inputs.dtype.name),
            kcore.cast(knp.squeeze(zero, axis=1), "int8"))


class AbsMaxQuantizer(Quantizer):
    """`keras.quantizers.AbsMaxQuantizer(axis=None, value_range=(-127, 127),
    epsilon=1e-7, output_dtype="int8")`: calling it with x (and an axis, else the
    constructor's, else -1) returns `abs_max_quantize`'s (quantized, scale)."""

    _keras_module = "keras.quantizers"

    def __init__(self, axis=None, value_range=(-127, 127), epsilon=_EPSILON,
                 output_dtype="int8"):
        Quantizer.__init__(self, output_dtype=output_dtype)
        self.axis = None if axis is None else tuple((axis,) if isinstance(axis, int) else axis)
        self.value_range, self.epsilon = value_range, epsilon
        if output_dtype == "int8" and (value_range[0] < -128 or value_range[1] > 127):
            raise ValueError("Quantizer with output_dtype='int8' requires value_range to be "
                             f"within the interval [-128, 127]. Received: "
                             f"value_range={value_range}")

    def __call__(self, x, axis=None, to_numpy=False):
        axis = self.axis if axis is None else axis
        return abs_max_quantize(x, -1 if axis is None else axis, self.value_range,
                                self.output_dtype, self.epsilon, to_numpy)

    def get_config(self):
        config = {"value_range": self.value_range, "epsilon": self.epsilon,
                  "output_dtype": self.output_dtype}
        if self.axis is not None:
            config["axis"] = self.axis
        return config


def compute_float8_scale(amax, scale, dtype_max, margin=0):
    """`keras.quantizers.compute_float8_scale(amax, scale, dtype_max, margin=0)`:
    the new scale amax / dtype_max * 2**margin; the old `scale` where amax is 0 or
    not finite."""
    old = knp.reciprocal(scale)
    positive = knp.greater(amax, 0.0)
    safe_amax = knp.where(positive, amax, knp.ones_like(amax))
    factor = knp.divide(knp.divide(dtype_max, safe_amax), 2 ** margin)
    factor = knp.where(positive, factor, old)
    factor = knp.where(knp.isfinite(amax), factor, old)
    return knp.reciprocal(factor)


def compute_float8_amax_history(x, amax_history):
    """`keras.quantizers.compute_float8_amax_history(x, amax_history)`: the history
    rolled one step left, max |x| written first."""
    amax_history = kcore.convert_to_tensor(amax_history)
    amax = kcore.cast(knp.max(knp.abs(x)), amax_history.dtype.name)
    return kcore.scatter_update(knp.roll(amax_history, shift=-1), [[0]],
                                knp.reshape(amax, [1]))


def quantize_and_dequantize(inputs, scale, quantized_dtype, compute_dtype):
    """`keras.quantizers.quantize_and_dequantize(inputs, scale, quantized_dtype,
    compute_dtype)`: inputs / scale clipped to the float dtype's finite range,
    rounded to `quantized_dtype` ("float8_e4m3fn", "float8_e5m2", ...) and
    multiplied back by scale, in `compute_dtype`."""
    limit = float(ml_dtypes.finfo(standardize_dtype(quantized_dtype)).max)
    scale = kcore.cast(scale, compute_dtype)
    x = knp.divide(inputs, scale)
    x = knp.clip(x, kcore.cast(-limit, compute_dtype), kcore.cast(limit, compute_dtype))
    x = kcore.cast(x, quantized_dtype)
    return knp.multiply(kcore.cast(x, compute_dtype), scale)


def dequantize_with_sz_map(weights, scale, zero, g_idx, group_axis=-1):
    """(weights - zero) * scale, the scale and zero point of each position's
    group (`g_idx`, float group numbers) taken along `group_axis`."""
    groups = kcore.cast(g_idx, "int32")
    scales = knp.take(scale, groups, axis=group_axis)
    zeros = kcore.cast(knp.take(zero, groups, axis=group_axis), scales.dtype.name)
    return knp.multiply(knp.subtract(weights, zeros), scales)


def fake_quant_with_min_max_vars(inputs, min_vals, max_vals, num_bits=8, narrow_range=False,
                                 axis=None):
    """`keras.quantizers.fake_quant_with_min_max_vars(inputs, min_vals, max_vals,
    num_bits=8, narrow_range=False, axis=None)`: TF's fake quantization (float32,
    range nudged so 0 is a level; per channel along `axis` when given), in the
    inputs' dtype; min and max get gradients."""
    inputs = kcore.convert_to_tensor(inputs)
    dtype = inputs.dtype.name
    low, high = kcore.convert_to_tensor(min_vals), kcore.convert_to_tensor(max_vals)
    x = kcore.cast(inputs, "float32")
    if axis is None:
        out = quantization_ops.fake_quant_with_min_max_vars(
            x, kcore.cast(knp.reshape(low, ()), "float32"),
            kcore.cast(knp.reshape(high, ()), "float32"), num_bits=int(num_bits),
            narrow_range=narrow_range)
        return kcore.cast(out, dtype)
    rank = len(inputs.shape)
    axis = axis + rank if axis < 0 else axis
    out = quantization_ops.fake_quant_with_min_max_vars_per_channel(
        knp.swapaxes(x, axis, rank - 1), kcore.cast(low, "float32"),
        kcore.cast(high, "float32"), num_bits=int(num_bits), narrow_range=narrow_range)
    return knp.swapaxes(kcore.cast(out, dtype), rank - 1, axis)


def _check_pack_dtype(dtype):
    if dtype not in ("int8", "uint8"):
        raise ValueError(f"Expected dtype to be 'int8' or 'uint8', but got '{dtype}'.")


def pack_int4(arr, axis=0, dtype="int8"):
    """`keras.quantizers.pack_int4(arr, axis=0, dtype="int8")`: (packed, its shape,
    the original length): pairs along `axis` (odd lengths padded by a 0) in one
    byte, the first in the low nibble; `arr` must already have dtype `dtype`."""
    _check_pack_dtype(dtype)
    got = standardize_dtype(arr.dtype)
    if got != dtype:
        raise TypeError(f"Expected {dtype} tensor for packing, got {got}.")
    values = np.moveaxis(np.asarray(arr), axis, 0)
    n = values.shape[0]
    if n % 2:
        values = np.concatenate([values, np.zeros((1,) + values.shape[1:], values.dtype)])
    nibbles = values.astype(np.uint8) & np.uint8(0x0F)
    packed = (nibbles[::2] | (nibbles[1::2] << np.uint8(4))).view(dtype)
    packed = np.moveaxis(packed, 0, axis)
    return kcore.convert_to_tensor(packed), tuple(packed.shape), n


def unpack_int4(packed, orig_len, axis=0, dtype="int8"):
    """`keras.quantizers.unpack_int4(packed, orig_len, axis=0, dtype="int8")`: the
    inverse of `pack_int4` (signed nibbles in [-8, 7] for int8), cut to `orig_len`."""
    _check_pack_dtype(dtype)
    packed = kcore.convert_to_tensor(packed)
    if packed.dtype.name not in ("int8", "uint8"):
        raise TypeError(f"Expected int8 or uint8 tensor for unpacking, got {packed.dtype.name}")
    rank = len(packed.shape)
    axis = axis + rank if axis < 0 else axis
    perm = [axis] + [i for i in range(rank) if i != axis]
    moved = knp.transpose(packed, perm)
    mask = kcore.cast(0x0F, packed.dtype.name)
    halves = [knp.bitwise_and(moved, mask),
              knp.bitwise_and(knp.right_shift(moved, 4), mask)]
    if dtype == "int8":
        eight = kcore.cast(8, packed.dtype.name)
        halves = [knp.subtract(knp.bitwise_xor(h, eight), eight) for h in halves]
    stacked = knp.stack([kcore.cast(h, dtype) for h in halves], axis=1)
    out = knp.reshape(stacked, (-1,) + tuple(moved.shape.as_list()[1:]))[:orig_len]
    return knp.transpose(out, [perm.index(i) for i in range(rank)])


ALL_OBJECTS = (Quantizer, AbsMaxQuantizer)
ALL_OBJECTS_DICT = {cls.__name__: cls for cls in ALL_OBJECTS}
ALL_OBJECTS_DICT.update({to_snake_case(cls.__name__): cls for cls in ALL_OBJECTS})
for _cls in ALL_OBJECTS:
    serialization_lib.register_builtin("keras.quantizers", _cls)


def serialize(initializer):
    """`keras.quantizers.serialize(quantizer)`: its Keras config dict."""
    return serialization_lib.serialize_keras_object(initializer)


def deserialize(config, custom_objects=None):
    """`keras.quantizers.deserialize(config, custom_objects=None)`."""
    return serialization_lib.deserialize_keras_object(
        config, custom_objects={**ALL_OBJECTS_DICT, **(custom_objects or {})})


def get(identifier, **kwargs):
    """`keras.quantizers.get(identifier, **kwargs)`: None, a quantizer from a config
    dict or a class name (built with kwargs), or a callable as is."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = deserialize(identifier)
    elif isinstance(identifier, str):
        obj = ALL_OBJECTS_DICT.get(identifier, None)
    else:
        obj = identifier
    if not callable(obj):
        raise ValueError(f"Could not interpret quantizer identifier: {identifier}")
    return obj(**kwargs) if inspect.isclass(obj) else obj
