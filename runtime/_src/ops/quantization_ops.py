"""`tf.quantization`'s fake quantization: float32 values snapped to the grid
of `2**num_bits` levels spanning a range whose zero is nudged onto the grid,
with TF's straight-through gradients (1 inside the nudged range, 0 outside;
the range's own gradients sum what fell below and above it). Values are TF
2.21's bit for bit: the same float32 steps in the same order
(`fake_quant_with_min_max_args` and `..._per_channel` multiply by
`levels / (max - min)`, `..._vars` divides by the scale, as TF's kernels do).

    >>> import runtime as tf
    >>> tf.quantization.fake_quant_with_min_max_args([0.3, 7.0], min=-6.0, max=6.0).numpy()
    array([0.28235295, 5.9764705 ], dtype=float32)

`quantize_and_dequantize_v2` (and v1) quantize symmetrically to `num_bits`
signed or unsigned integers over a given range, or the input's own.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops import shape_rules as rules

__all__ = ["fake_quant_with_min_max_args", "fake_quant_with_min_max_args_gradient",
           "fake_quant_with_min_max_vars", "fake_quant_with_min_max_vars_gradient",
           "fake_quant_with_min_max_vars_per_channel",
           "fake_quant_with_min_max_vars_per_channel_gradient", "quantize_and_dequantize",
           "quantize_and_dequantize_v2"]

F32 = np.float32


def _levels(num_bits, narrow_range):
    if not 2 <= num_bits <= 16:
        raise InvalidArgumentError("num_bits must be between 2 and 16, inclusive")
    return (1 if narrow_range else 0), (1 << num_bits) - 1


def _nudge(lo, hi, qmin, qmax):
    """TF's nudged range: (nudged_min, nudged_max, scale, zero point's offset
    `qmin - zero_point`), elementwise over float32 lo, hi."""
    lo, hi = np.asarray(lo, F32), np.asarray(hi, F32)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = (hi - lo) / F32(qmax - qmin)
        from_min = F32(qmin) - lo / scale
    zero = np.where(from_min < qmin, F32(qmin),
                    np.where(from_min > qmax, F32(qmax), _round_half_away(from_min)))
    offset = (F32(qmin) - zero).astype(F32)
    return offset * scale, (F32(qmax) - zero).astype(F32) * scale, scale, offset


def _round_half_away(x):
    """std::round: halves away from zero."""
    x = np.asarray(x, F32)
    whole = np.trunc(x)
    half = np.abs(x - whole) == F32(0.5)
    return np.where(half, whole + np.sign(x), np.round(x)).astype(F32)


def _snap(x, lo, hi, qmin, qmax, divide):
    """The fake-quantized x (float32, lo/hi broadcast against it)."""
    nmin, nmax, scale, offset = _nudge(lo, hi, qmin, qmax)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        shifted = np.minimum(np.maximum(x, nmin), nmax) - nmin
        if divide:
            steps = shifted / scale
        else:
            steps = shifted * (F32(qmax - qmin) / (np.asarray(hi, F32) - np.asarray(lo, F32)))
        return ((np.floor(steps + F32(0.5)) + offset) * scale).astype(F32)


def _inside(x, lo, hi, qmin, qmax):
    nmin, nmax, _, _ = _nudge(lo, hi, qmin, qmax)
    return (x >= nmin) & (x <= nmax), x < nmin, x > nmax


def _float32_input(op, x):
    x = convert_to_tensor(x, dtype=dtypes.float32)
    return x


# --- with the range as attributes ----------------------------------------------------------

def _check_args_range(lo, hi):
    if not lo < hi:
        raise InvalidArgumentError(f"min has to be smaller than max, was: {lo:g} >= {hi:g}")


@define_op("FakeQuantWithMinMaxArgs", infer=rules.same_as_first)
def _fake_quant_args(x, min, max, num_bits, narrow_range):  # noqa: A002
    qmin, qmax = _levels(num_bits, narrow_range)
    _check_args_range(min, max)
    return _snap(x, min, max, qmin, qmax, divide=False)


@define_op("FakeQuantWithMinMaxArgsGradient", infer=rules.same_as_first)
def _fake_quant_args_gradient(grad, x, min, max, num_bits, narrow_range):  # noqa: A002
    qmin, qmax = _levels(num_bits, narrow_range)
    _check_args_range(min, max)
    return np.where(_inside(x, min, max, qmin, qmax)[0], grad, F32(0)).astype(F32)


@define_grad("FakeQuantWithMinMaxArgs")
def _fake_quant_args_grad(op, grad):
    return [apply("FakeQuantWithMinMaxArgsGradient", (grad, op.inputs[0]), dict(op.attrs))]


not_differentiable("FakeQuantWithMinMaxArgsGradient")


def _args_attrs(lo, hi, num_bits, narrow_range):
    what = "FakeQuantWithMinMaxArgs"
    return {"min": float(lo), "max": float(hi),
            "num_bits": rules.static_int(num_bits, what, "num_bits"),
            "narrow_range": rules.static_bool(narrow_range, what, "narrow_range")}


def fake_quant_with_min_max_args(inputs, min=-6, max=6,  # noqa: A002 - TF's names
                                 num_bits=8, narrow_range=False, name=None):
    """`inputs` (float32) fake-quantized to `2**num_bits` levels over
    [min, max] nudged so that 0 is a level."""
    return apply("FakeQuantWithMinMaxArgs", (_float32_input("fake_quant", inputs),),
                 _args_attrs(min, max, num_bits, narrow_range))


def fake_quant_with_min_max_args_gradient(gradients, inputs,
                                          min=-6, max=6,  # noqa: A002 - TF's names
                                          num_bits=8, narrow_range=False, name=None):
    """The gradient of fake_quant_with_min_max_args: `gradients` where
    `inputs` is inside the nudged range, 0 elsewhere."""
    return apply("FakeQuantWithMinMaxArgsGradient",
                 (convert_to_tensor(gradients, dtype=dtypes.float32),
                  _float32_input("fake_quant", inputs)),
                 _args_attrs(min, max, num_bits, narrow_range))


# --- with the range as tensors -------------------------------------------------------------

def _infer_vars(inputs, attrs):
    x, lo, hi = inputs[-3:] if len(inputs) == 4 else inputs
    if lo.shape.rank not in (None, 0) or hi.shape.rank not in (None, 0):
        raise ValueError(f"FakeQuantWithMinMaxVars: min and max must be scalars, got shapes "
                         f"{lo.shape} and {hi.shape}")
    return [(dtypes.float32, x.shape)]


@define_op("FakeQuantWithMinMaxVars", infer=_infer_vars)
def _fake_quant_vars(x, lo, hi, num_bits, narrow_range):
    qmin, qmax = _levels(num_bits, narrow_range)
    return _snap(x, lo, hi, qmin, qmax, divide=True)


def _infer_vars_gradient(inputs, attrs):
    _, x, lo, hi = inputs
    return [(dtypes.float32, x.shape), (dtypes.float32, lo.shape), (dtypes.float32, hi.shape)]


@define_op("FakeQuantWithMinMaxVarsGradient", infer=_infer_vars_gradient, num_outputs=3)
def _fake_quant_vars_gradient(grad, x, lo, hi, num_bits, narrow_range):
    qmin, qmax = _levels(num_bits, narrow_range)
    inside, below, above = _inside(x, lo, hi, qmin, qmax)
    return (np.where(inside, grad, F32(0)).astype(F32),
            np.sum(np.where(below, grad, F32(0)), dtype=F32),
            np.sum(np.where(above, grad, F32(0)), dtype=F32))


@define_grad("FakeQuantWithMinMaxVars")
def _fake_quant_vars_grad(op, grad):
    return list(apply("FakeQuantWithMinMaxVarsGradient", (grad,) + tuple(op.inputs),
                      dict(op.attrs)))


def _per_channel_shapes(op, x, lo, hi):
    depth = x.shape[-1] if x.shape.rank else None
    for what, t in (("min", lo), ("max", hi)):
        if t.shape.rank is not None and t.shape.rank != 1:
            raise ValueError(f"{op}: {what} must be a vector, got shape {t.shape}")
        if depth is not None and t.shape.rank == 1 and t.shape[0] not in (None, depth):
            raise InvalidArgumentError(f"{what} has incorrect size, expected {depth} was "
                                       f"{t.shape[0]}")


def _infer_per_channel(inputs, attrs):
    x, lo, hi = inputs[-3:]
    _per_channel_shapes("FakeQuantWithMinMaxVarsPerChannel", x, lo, hi)
    if len(inputs) == 4:
        return [(dtypes.float32, x.shape), (dtypes.float32, lo.shape),
                (dtypes.float32, hi.shape)]
    return [(dtypes.float32, x.shape)]


def _check_depth(x, lo, hi):
    depth = np.shape(x)[-1] if np.ndim(x) else None
    for what, t in (("min", lo), ("max", hi)):
        if np.ndim(t) != 1 or np.shape(t)[0] != depth:
            raise InvalidArgumentError(f"{what} has incorrect size, expected {depth} was "
                                       f"{np.size(t)}")


@define_op("FakeQuantWithMinMaxVarsPerChannel", infer=_infer_per_channel)
def _fake_quant_per_channel(x, lo, hi, num_bits, narrow_range):
    qmin, qmax = _levels(num_bits, narrow_range)
    _check_depth(x, lo, hi)
    return _snap(x, lo, hi, qmin, qmax, divide=False)


@define_op("FakeQuantWithMinMaxVarsPerChannelGradient", infer=_infer_per_channel,
           num_outputs=3)
def _fake_quant_per_channel_gradient(grad, x, lo, hi, num_bits, narrow_range):
    qmin, qmax = _levels(num_bits, narrow_range)
    _check_depth(x, lo, hi)
    inside, below, above = _inside(x, lo, hi, qmin, qmax)
    def per_channel(mask):        # each channel's values contiguous, summed pairwise
        picked = np.where(mask, grad, F32(0)).astype(F32)
        return np.sum(picked.reshape(-1, np.shape(x)[-1]).T.copy(), axis=1, dtype=F32)
    return np.where(inside, grad, F32(0)).astype(F32), per_channel(below), per_channel(above)


@define_grad("FakeQuantWithMinMaxVarsPerChannel")
def _fake_quant_per_channel_grad(op, grad):
    return list(apply("FakeQuantWithMinMaxVarsPerChannelGradient", (grad,) + tuple(op.inputs),
                      dict(op.attrs)))


not_differentiable("FakeQuantWithMinMaxVarsGradient", "FakeQuantWithMinMaxVarsPerChannelGradient")


def _vars_attrs(op, num_bits, narrow_range):
    return {"num_bits": rules.static_int(num_bits, op, "num_bits"),
            "narrow_range": rules.static_bool(narrow_range, op, "narrow_range")}


def _vars_inputs(inputs, lo, hi):
    return tuple(convert_to_tensor(t, dtype=dtypes.float32) for t in (inputs, lo, hi))


def fake_quant_with_min_max_vars(inputs, min, max,  # noqa: A002 - TF's names
                                 num_bits=8, narrow_range=False, name=None):
    """fake_quant_with_min_max_args with the range as float32 scalar tensors
    (trainable: their gradients sum the gradient below and above the range)."""
    return apply("FakeQuantWithMinMaxVars", _vars_inputs(inputs, min, max),
                 _vars_attrs("FakeQuantWithMinMaxVars", num_bits, narrow_range))


def fake_quant_with_min_max_vars_gradient(gradients, inputs, min, max,  # noqa: A002
                                          num_bits=8, narrow_range=False, name=None):
    """(backprops_wrt_input, backprop_wrt_min, backprop_wrt_max) of
    fake_quant_with_min_max_vars."""
    grads = convert_to_tensor(gradients, dtype=dtypes.float32)
    return tuple(apply("FakeQuantWithMinMaxVarsGradient",
                       (grads,) + _vars_inputs(inputs, min, max),
                       _vars_attrs("FakeQuantWithMinMaxVarsGradient", num_bits, narrow_range)))


def fake_quant_with_min_max_vars_per_channel(inputs, min, max,  # noqa: A002 - TF's names
                                             num_bits=8, narrow_range=False, name=None):
    """fake_quant_with_min_max_vars with one range per channel (the last
    dimension of `inputs`; `min` and `max` vectors of its size)."""
    return apply("FakeQuantWithMinMaxVarsPerChannel", _vars_inputs(inputs, min, max),
                 _vars_attrs("FakeQuantWithMinMaxVarsPerChannel", num_bits, narrow_range))


def fake_quant_with_min_max_vars_per_channel_gradient(gradients, inputs,
                                                      min, max,  # noqa: A002
                                                      num_bits=8, narrow_range=False,
                                                      name=None):
    """(backprops_wrt_input, backprop_wrt_min, backprop_wrt_max) of the
    per-channel fake quantization, the range's per channel."""
    grads = convert_to_tensor(gradients, dtype=dtypes.float32)
    return tuple(apply("FakeQuantWithMinMaxVarsPerChannelGradient",
                       (grads,) + _vars_inputs(inputs, min, max),
                       _vars_attrs("FakeQuantWithMinMaxVarsPerChannelGradient", num_bits,
                                   narrow_range)))



# --- quantize and dequantize ---------------------------------------------------------------

_ROUND_MODES = ("HALF_TO_EVEN", "HALF_UP")


def _qdq_levels(signed, num_bits, narrow_range):
    if signed:
        return -(1 << (num_bits - 1)) + (1 if narrow_range else 0), (1 << (num_bits - 1)) - 1
    return 0, (1 << num_bits) - 1


def _qdq_slice(x, lo, hi, qmin, qmax, range_given, round_mode):
    """One slice quantized to [qmin, qmax] over [lo, hi] (the scale that fits
    the tighter side, as TF), then dequantized, in x's dtype."""
    t = x.dtype.type
    if not range_given:
        lo, hi = (x.min(), x.max()) if x.size else (t(0), t(0))
    lo, hi = t(lo), t(hi)
    big = np.finfo(x.dtype).max
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        from_min = t(qmin) / lo if qmin * lo > 0 else big
        from_max = t(qmax) / hi if qmax * hi > 0 else big
        if from_min < from_max:
            scale, inverse = from_min, lo / t(qmin)
            hi = t(qmax) * inverse
        else:
            scale, inverse = from_max, hi / t(qmax)
            lo = t(qmin) * inverse
        y = (np.clip(x, lo, hi) if range_given else x) * scale
        rounded = np.rint(y) if round_mode == "HALF_TO_EVEN" else np.floor(y + t(0.5))
        return (rounded * inverse).astype(x.dtype)


def _qdq_kernel(x, lo, hi, signed_input, num_bits, range_given, round_mode, narrow_range,
                axis):
    qmin, qmax = _qdq_levels(signed_input, num_bits, narrow_range)
    if range_given and np.any(np.asarray(lo) > np.asarray(hi)):
        raise InvalidArgumentError(f"Invalid range: input_min {np.asarray(lo)} > input_max "
                                   f"{np.asarray(hi)}")
    if axis == -1:
        return _qdq_slice(x, lo, hi, qmin, qmax, range_given, round_mode)
    moved = np.moveaxis(x, axis, 0)
    parts = [_qdq_slice(moved[i], np.asarray(lo)[i], np.asarray(hi)[i], qmin, qmax,
                        range_given, round_mode) for i in range(moved.shape[0])]
    return np.moveaxis(np.stack(parts) if parts else moved, 0, axis)


def _infer_qdq(inputs, attrs):
    x, lo, hi = inputs
    need = 0 if attrs["axis"] == -1 else 1
    for what, t in (("input_min", lo), ("input_max", hi)):
        if t.shape.rank is not None and t.shape.rank != need:
            raise InvalidArgumentError(f"{what} must be a {'scalar' if not need else 'vector'}"
                                       f" (axis={attrs['axis']}), got shape {t.shape}")
    return [(x.dtype, x.shape)]


define_op("QuantizeAndDequantizeV2", infer=_infer_qdq)(_qdq_kernel)
define_op("QuantizeAndDequantizeV4", infer=_infer_qdq)(_qdq_kernel)


@define_grad("QuantizeAndDequantizeV2")
def _qdq_v2_grad(op, grad):
    return [grad, None, None]        # TF: straight through, no range gradients


def _infer_qdq_v4_grad(inputs, attrs):
    return [(inputs[1].dtype, inputs[1].shape), (inputs[2].dtype, inputs[2].shape),
            (inputs[3].dtype, inputs[3].shape)]


@define_op("QuantizeAndDequantizeV4Grad", infer=_infer_qdq_v4_grad, num_outputs=3)
def _qdq_v4_grad_kernel(grad, x, lo, hi, axis):
    if axis != -1:
        shape = [1] * np.ndim(x)
        shape[axis] = -1
        lo, hi = np.reshape(lo, shape), np.reshape(hi, shape)
    inside = (x >= lo) & (x <= hi)
    return (np.where(inside, grad, 0).astype(grad.dtype), np.zeros_like(np.asarray(lo)),
            np.zeros_like(np.asarray(hi)))


@define_grad("QuantizeAndDequantizeV4")
def _qdq_v4_grad(op, grad):
    # TF: the gradient where the input is inside [input_min, input_max], 0
    # outside; zeros for the range
    return list(apply("QuantizeAndDequantizeV4Grad", (grad,) + tuple(op.inputs),
                      {"axis": op.attrs["axis"]}))


not_differentiable("QuantizeAndDequantizeV4Grad")


def _qdq(op, input, input_min, input_max, signed_input, num_bits, range_given, round_mode,
         narrow_range, axis):
    x = convert_to_tensor(input)
    if x.dtype not in (dtypes.float16, dtypes.float32, dtypes.float64):
        raise TypeError(f"{op}: input must be float16, float32 or float64, got {x.dtype.name}")
    if round_mode not in _ROUND_MODES:
        raise ValueError(f"{op}: round_mode must be one of {list(_ROUND_MODES)}, got "
                         f"{round_mode!r}")
    if axis is None:
        axis = -1
    elif axis < 0:
        if x.shape.rank is None:
            raise ValueError("input should have known rank to use negative axis.")
        axis %= x.shape.rank
    lo = convert_to_tensor(input_min, dtype=x.dtype)
    hi = convert_to_tensor(input_max, dtype=x.dtype)
    attrs = {"signed_input": rules.static_bool(signed_input, op, "signed_input"),
             "num_bits": rules.static_int(num_bits, op, "num_bits"),
             "range_given": rules.static_bool(range_given, op, "range_given"),
             "round_mode": round_mode,
             "narrow_range": rules.static_bool(narrow_range, op, "narrow_range"), "axis": axis}
    return apply(op, (x, lo, hi), attrs)


def quantize_and_dequantize(input, input_min, input_max, signed_input=True, num_bits=8,
                            range_given=False, round_mode="HALF_TO_EVEN", name=None,
                            narrow_range=False, axis=None):
    """`input` quantized to `num_bits` integers over [input_min, input_max]
    (or its own range) and back; its gradient passes straight through
    (deprecated in TF for quantize_and_dequantize_v2)."""
    return _qdq("QuantizeAndDequantizeV2", input, input_min, input_max, signed_input,
                num_bits, range_given, round_mode, narrow_range, axis)


def quantize_and_dequantize_v2(input, input_min, input_max, signed_input=True, num_bits=8,
                               range_given=False, round_mode="HALF_TO_EVEN", name=None,
                               narrow_range=False, axis=None):
    """quantize_and_dequantize whose gradient is 0 where the input is outside
    [input_min, input_max]."""
    return _qdq("QuantizeAndDequantizeV4", input, input_min, input_max, signed_input,
                num_bits, range_given, round_mode, narrow_range, axis)
