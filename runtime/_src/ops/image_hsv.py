"""`tf.image` colour spaces and colour adjustments as TensorFlow 2.21 computes
them: `rgb_to_hsv` / `hsv_to_rgb` (the RGBToHSV and HSVToRGB ops),
`adjust_hue` and `adjust_saturation` (the fused AdjustHue and AdjustSaturation
ops), `adjust_gamma`, and the YIQ and YUV conversions (a 3x3 matrix on the
last axis).

    rgb_to_hsv(image)               # [..., 3] float: hue in [0, 1), saturation, value
    adjust_hue(image, 0.25)         # hue turned a quarter round
    adjust_saturation(image, 2.0)   # saturation doubled (clipped to 1)
    adjust_gamma(image, 2.2)        # gain * image ** gamma

As in TF, RGBToHSV has a gradient (TF's: ties broken red, green, blue), the
gradient through HSVToRGB is None, and one through AdjustHue or
AdjustSaturation is a LookupError; the YIQ/YUV conversions and adjust_gamma
are ordinary ops with gradients.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops.einsum_ops import tensordot
from runtime._src.ops.image_color import convert_image_dtype
from runtime._src.ops.manipulation_ops import stack
from runtime._src.ops.math_ops import (cast, logical_and, maximum, minimum, multiply,
                                       pow as pow_)
from runtime._src.ops.special_math_ops import divide_no_nan

__all__ = ["rgb_to_hsv", "hsv_to_rgb", "adjust_hue", "adjust_saturation", "adjust_gamma",
           "rgb_to_yiq", "yiq_to_rgb", "rgb_to_yuv", "yuv_to_rgb"]

_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)


def _infer_rgb(inputs, attrs):
    x = inputs[0]
    if x.dtype not in _FLOATS:
        raise TypeError(f"images must be float16, float32 or float64, got {x.dtype.name}")
    dims = x.shape.dims
    if dims is not None and (not dims or dims[-1] not in (None, 3)):
        channels = dims[-1] if dims else 0
        raise ValueError(f"input must have 3 channels but input only has {channels} "
                         f"channels.")
    for extra in inputs[1:]:
        if extra.shape.rank not in (None, 0):
            raise ValueError(f"the adjustment must be a scalar, got shape {extra.shape}")
    return [(x.dtype, x.shape)]


def _hsv(x):
    """Hue, saturation and value of float RGB pixels (TF's formulas, in the
    pixels' dtype)."""
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v = np.maximum(np.maximum(r, g), b)
    span = v - np.minimum(np.minimum(r, g), b)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(v > 0, span / v, 0).astype(x.dtype)
        norm = x.dtype.type(1) / (x.dtype.type(6) * span)
        h = np.where(r == v, norm * (g - b),
                     np.where(g == v, norm * (b - r) + x.dtype.type(2.0 / 6.0),
                              norm * (r - g) + x.dtype.type(4.0 / 6.0)))
    h = np.where(span > 0, h, 0).astype(x.dtype)
    return np.where(h < 0, h + x.dtype.type(1), h), s, v


@define_op("RGBToHSV", infer=_infer_rgb)
def _rgb_to_hsv(x):
    return np.stack(_hsv(x), axis=-1)


@define_grad("RGBToHSV")
def _rgb_to_hsv_grad(op, grad):
    """TF's derivative: value follows the largest channel and the other two
    outputs the analytic derivative, ties broken as TF breaks them; like TF,
    a channel at 0 (or below) passes no saturation gradient, and hue passes
    none where the value is not positive."""
    x = op.inputs[0]
    f = x.dtype
    rgb = [x[..., 0], x[..., 1], x[..., 2]]
    r, g, b = rgb
    v = maximum(maximum(r, g), b)
    low = minimum(minimum(r, g), b)

    def mask(a, b_):
        return cast(logical_and(a, b_), f)
    top = [mask(r >= b, r >= g), mask(g > r, g >= b), mask(b > r, b > g)]
    bottom = [mask(r < b, r < g), mask(g <= r, g < b), mask(b <= r, b <= g)]
    zero = f.np_dtype.type(0)
    # saturation = 1 - low / v
    ds = [divide_no_nan(t * low, v * v) - cast(c > zero, f) * divide_no_nan(m, v)
          for t, m, c in zip(top, bottom, rgb)]
    # hue = num / (6 (v - low)) + a constant per case
    num = top[0] * (g - b) + top[1] * (b - r) + top[2] * (r - g)
    six = f.np_dtype.type(6)
    den = (v - low) * six
    dnum = [top[2] - top[1], top[0] - top[2], top[1] - top[0]]
    lit = cast(v > zero, f)
    dh = [lit * divide_no_nan(n * den - num * six * (t - m), den * den)
          for n, t, m in zip(dnum, top, bottom)]
    gh, gs, gv = grad[..., 0], grad[..., 1], grad[..., 2]
    return [stack([gh * h + gs * s + gv * t for h, s, t in zip(dh, ds, top)], axis=-1)]


def _rgb(h, s, v):
    """Float RGB pixels from hue, saturation and value (TF's formulas)."""
    one, two = h.dtype.type(1), h.dtype.type(2)
    dh = h * h.dtype.type(6)
    dr = np.clip(np.abs(dh - h.dtype.type(3)) - one, 0, 1)
    dg = np.clip(two - np.abs(dh - two), 0, 1)
    db = np.clip(two - np.abs(dh - h.dtype.type(4)), 0, 1)
    one_s = one - s
    return [((one_s + s * d) * v).astype(h.dtype) for d in (dr, dg, db)]


@define_op("HSVToRGB", infer=_infer_rgb)
def _hsv_to_rgb(x):
    return np.stack(_rgb(x[..., 0], x[..., 1], x[..., 2]), axis=-1)


def _hue_range(x):
    """TF's AdjustHue split of each pixel: hue in [0, 6) and the min and max
    channel, in float32."""
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    hi = np.maximum(np.maximum(r, g), b)
    lo = np.minimum(np.minimum(r, g), b)
    # the sextant, as TF orders the channels (two equal ones fall either side)
    cat = np.where(r < g, np.where(b < r, 1, np.where(b > g, 3, 2)),
                   np.where(b < g, 0, np.where(b > r, 4, 5)))
    mid = np.choose(cat, [g, r, b, g, r, b])
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (mid - lo) / (hi - lo)
    h = np.where(cat % 2 == 0, cat + ratio, cat + (1 - ratio)).astype(np.float32)
    return np.where(hi == lo, np.float32(0), h), lo, hi


def _from_hue_range(h, lo, hi):
    cat = h.astype(np.int32)
    ratio = h - cat
    ratio = np.where(cat % 2 == 0, ratio, 1 - ratio)
    mid = lo + ratio * (hi - lo)
    cat = np.clip(cat, 0, 5)
    r = np.choose(cat, [hi, mid, lo, lo, mid, hi])
    g = np.choose(cat, [mid, hi, hi, mid, lo, lo])
    b = np.choose(cat, [lo, lo, mid, hi, hi, mid])
    return np.stack([r, g, b], axis=-1)


@define_op("AdjustHue", infer=_infer_rgb)
def _adjust_hue(x, delta):
    dtype = x.dtype
    h, lo, hi = _hue_range(x.astype(np.float32))
    h = h + np.float32(delta) * np.float32(6)
    h = np.where(h < 0, h + np.float32(6) * np.ceil(-h / 6), h)
    h = np.where(h >= 6, h - np.float32(6) * np.floor(h / 6), h).astype(np.float32)
    return _from_hue_range(h, lo, hi).astype(dtype)


@define_op("AdjustSaturation", infer=_infer_rgb)
def _adjust_saturation(x, scale):
    dtype = x.dtype
    h, s, v = _hsv(x.astype(np.float32))
    s = np.clip(s * np.float32(scale), 0, 1).astype(np.float32)
    c = s * v
    m = v - c
    dh = h * np.float32(6)
    cat = dh.astype(np.int32)
    xx = c * (1 - np.abs(np.mod(dh, np.float32(2)) - 1))
    zero = np.zeros_like(c)
    table = [(c, xx, zero), (xx, c, zero), (zero, c, xx), (zero, xx, c), (xx, zero, c),
             (c, zero, xx)]
    out = [np.select([cat == k for k in range(6)], [row[i] for row in table], 0) + m
           for i in range(3)]
    return np.stack(out, axis=-1).astype(dtype)


not_differentiable("HSVToRGB")     # TF: a None gradient; AdjustHue/Saturation have no entry


def _apply_rgb(op, *inputs):
    _infer_rgb(inputs, {})      # the checks, also when running eagerly
    return apply(op, inputs)


def rgb_to_hsv(images, name=None):
    """RGB pixels ([..., 3], float values in [0, 1]) as hue, saturation, value."""
    return _apply_rgb("RGBToHSV", convert_to_tensor(images))


def hsv_to_rgb(images, name=None):
    """Hue, saturation, value pixels ([..., 3], float) back to RGB."""
    return _apply_rgb("HSVToRGB", convert_to_tensor(images))


def _float_image(image):
    image = convert_to_tensor(image)
    if image.dtype in (dtypes.float16, dtypes.float32):
        return image, image
    return image, convert_image_dtype(image, dtypes.float32)


def _scalar_float(value):
    return convert_to_tensor(value, dtypes.float32) if not hasattr(value, "dtype") \
        else cast(value, dtypes.float32)


def adjust_hue(image, delta, name=None):
    """The hue of RGB `image` turned by `delta` (a fraction of the circle,
    in [-1, 1])."""
    if not hasattr(delta, "dtype") and (delta < -1 or delta > 1):
        raise ValueError("delta must be in the interval [-1, 1]")
    image, flt = _float_image(image)
    out = _apply_rgb("AdjustHue", flt, _scalar_float(delta))
    return convert_image_dtype(out, image.dtype)


def adjust_saturation(image, saturation_factor, name=None):
    """The saturation of RGB `image` multiplied by `saturation_factor`,
    clipped to [0, 1]."""
    image, flt = _float_image(image)
    out = _apply_rgb("AdjustSaturation", flt, _scalar_float(saturation_factor))
    return convert_image_dtype(out, image.dtype)


def adjust_gamma(image, gamma=1, gain=1):
    """`gain * image ** gamma`, in float for integer images (scaled to [0, 1])
    and converted back with saturation."""
    image, flt = _float_image(image)
    if not hasattr(gamma, "dtype") and gamma < 0:
        raise ValueError("Gamma should be a non-negative real number.")
    adjusted = multiply(cast(gain, flt.dtype), pow_(flt, cast(gamma, flt.dtype)))
    return convert_image_dtype(adjusted, image.dtype, saturate=True)


_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
        [0.114, -0.32134392, 0.31119955]]
_YIQ_INV = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
            [0.6208248, -0.64720424, 1.70423049]]
_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
        [0.114, 0.43601035, -0.10001026]]
_YUV_INV = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _mix(images, kernel):
    images = convert_to_tensor(images)
    k = convert_to_tensor(np.array(kernel, images.dtype.np_dtype))
    return tensordot(images, k, [[images.shape.rank - 1], [0]])


def rgb_to_yiq(images):
    """RGB [..., 3] to YIQ (TF's matrix)."""
    return _mix(images, _YIQ)


def yiq_to_rgb(images):
    """YIQ [..., 3] to RGB (TF's matrix)."""
    return _mix(images, _YIQ_INV)


def rgb_to_yuv(images):
    """RGB [..., 3] to YUV (TF's matrix)."""
    return _mix(images, _YUV)


def yuv_to_rgb(images):
    """YUV [..., 3] to RGB (TF's matrix)."""
    return _mix(images, _YUV_INV)
