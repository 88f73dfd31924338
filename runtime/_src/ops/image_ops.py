"""`tf.image` geometry: flips, `rot90`, `transpose`, `per_image_standardization`,
the bounding-box crops and pads (`crop_to_bounding_box`, `pad_to_bounding_box`,
`resize_with_crop_or_pad`, `resize_with_pad`); `resize` itself lives in
image_resize.py and is re-exported here.

Images are [height, width, channels] or [batch, height, width, channels];
offsets and target sizes are Python ints or tensors known while tracing; the
image's own height and width may be known only at run time (a decoded file),
but for `resize_with_pad`:

    pad_to_bounding_box(image, 1, 2, 8, 8)        # zeros around, image at (1, 2)
    resize_with_crop_or_pad(image, 5, 5)          # centred crop or zero pad
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import shape as _shape
from runtime._src.ops.array_ops import transpose as _transpose
from runtime._src.ops.image_resize import ResizeMethod, resize
from runtime._src.ops.manipulation_ops import expand_dims, squeeze, stack
from runtime._src.ops.math_ops import cast, maximum, minimum, rsqrt, sqrt
from runtime._src.ops.reduction_ops import reduce_mean, reduce_prod
from runtime._src.ops.shape_ops import pad, reverse
from runtime._src.ops.shape_ops import slice as _slice

__all__ = ["resize", "flip_left_right", "flip_up_down", "rot90", "per_image_standardization",
           "ResizeMethod", "transpose", "pad_to_bounding_box", "crop_to_bounding_box",
           "resize_with_crop_or_pad", "resize_with_pad"]


def _image(image, op):
    image = convert_to_tensor(image)
    if image.shape.rank not in (3, 4):
        raise ValueError(f"{op}: 'image' must have either 3 or 4 dimensions, got shape "
                         f"{image.shape}")
    return image, image.shape.rank == 4


def flip_left_right(image):
    """`tf.image.flip_left_right`: the width dimension reversed."""
    x, batched = _image(image, "flip_left_right")
    return reverse(x, [2 if batched else 1])


def flip_up_down(image):
    """`tf.image.flip_up_down`: the height dimension reversed."""
    x, batched = _image(image, "flip_up_down")
    return reverse(x, [1 if batched else 0])


def rot90(image, k=1, name=None):
    """`tf.image.rot90`: the image rotated by k * 90 degrees counter-clockwise."""
    x, batched = _image(image, "rot90")
    k = rules.static_int(k, "rot90", "k") % 4
    h = 1 if batched else 0
    perm = list(range(x.shape.rank))
    perm[h], perm[h + 1] = perm[h + 1], perm[h]
    if k == 0:
        return x
    if k == 1:
        return _transpose(reverse(x, [h + 1]), perm)
    if k == 2:
        return reverse(x, [h, h + 1])
    return reverse(_transpose(x, perm), [h + 1])


def per_image_standardization(image):
    """`tf.image.per_image_standardization`: (x - mean) / max(stddev, 1/sqrt(N))
    over each image's pixels and channels; float32 for integer images."""
    x, batched = _image(image, "per_image_standardization")
    if not x.dtype.is_floating:
        x = cast(x, dtypes.float32)
    axes = [-1, -2, -3]
    dims = x.shape.dims[-3:]
    mean = reduce_mean(x, axes, keepdims=True)
    var = reduce_mean((x - mean) * (x - mean), axes, keepdims=True)
    if None in dims:         # known at run time: 1 / sqrt(N) from the image's shape
        floor = rsqrt(cast(reduce_prod(_shape(x)[-3:]), x.dtype))
    else:
        floor = convert_to_tensor(1.0 / np.sqrt(float(np.prod(dims))), x.dtype)
    return (x - mean) / maximum(sqrt(var), floor)


def transpose(image, name=None):
    """`tf.image.transpose`: height and width swapped."""
    x, batched = _image(image, "transpose")
    return _transpose(x, [0, 2, 1, 3] if batched else [1, 0, 2])


def _ints(op, **values):
    return [rules.static_int(v, op, k) for k, v in values.items()]


def _hw(x, batched, op):
    h, w = x.shape.dims[-3:-1]
    if h is None or w is None:
        raise ValueError(f"{op}: the image's height and width must be known while tracing, "
                         f"got shape {x.shape}")
    return h, w


def _static(y, x, batched, th, tw):
    """y with TF's static shape [(batch,) th, tw, channels]."""
    y.set_shape(([x.shape.dims[0]] if batched else []) + [th, tw, x.shape.dims[-1]])
    return y


def _dynamic_pad(x, batched, top, left, th, tw):
    """x zero-padded to [th, tw] at (top, left) when its size is known only
    at run time (negative paddings fail there, as TF's assertions do)."""
    size = _shape(x)
    h, w = size[-3], size[-2]
    rows = [stack([top, th - top - h]), stack([left, tw - left - w]), [0, 0]]
    return _static(pad(x, stack(([[0, 0]] if batched else []) + rows)), x, batched, th, tw)


def _dynamic_crop(x, batched, top, left, th, tw):
    begin = ([0] if batched else []) + [top, left, 0]
    size = ([-1] if batched else []) + [th, tw, -1]
    return _static(_slice(x, stack(begin), stack(size)), x, batched,
                   *(d if isinstance(d, int) else None for d in (th, tw)))


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """`image` at (offset_height, offset_width) of a zero canvas
    [target_height, target_width]."""
    op = "pad_to_bounding_box"
    x, batched = _image(image, op)
    oh, ow, th, tw = _ints(op, offset_height=offset_height, offset_width=offset_width,
                           target_height=target_height, target_width=target_width)
    if None in x.shape.dims[-3:-1]:
        return _dynamic_pad(x, batched, oh, ow, th, tw)
    h, w = _hw(x, batched, op)
    for ok, what in ((oh >= 0, "offset_height must be >= 0"),
                     (ow >= 0, "offset_width must be >= 0"),
                     (tw - ow - w >= 0, "width must be <= target - offset"),
                     (th - oh - h >= 0, "height must be <= target - offset")):
        if not ok:
            raise ValueError(what)
    paddings = [[oh, th - oh - h], [ow, tw - ow - w], [0, 0]]
    return pad(x, ([[0, 0]] if batched else []) + paddings)


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The [target_height, target_width] window of `image` at
    (offset_height, offset_width)."""
    op = "crop_to_bounding_box"
    x, batched = _image(image, op)
    oh, ow, th, tw = _ints(op, offset_height=offset_height, offset_width=offset_width,
                           target_height=target_height, target_width=target_width)
    if None in x.shape.dims[-3:-1]:
        return _dynamic_crop(x, batched, oh, ow, th, tw)
    h, w = _hw(x, batched, op)
    for ok, what in ((ow >= 0, "offset_width must be >= 0."),
                     (oh >= 0, "offset_height must be >= 0."),
                     (tw > 0, "target_width must be > 0."),
                     (th > 0, "target_height must be > 0."),
                     (w >= tw + ow, "width must be >= target + offset."),
                     (h >= th + oh, "height must be >= target + offset.")):
        if not ok:
            raise ValueError(what)
    window = (slice(oh, oh + th), slice(ow, ow + tw))
    return x[(slice(None),) + window] if batched else x[window]


def resize_with_crop_or_pad(image, target_height, target_width):
    """`image` centred in [target_height, target_width]: cropped where it is
    larger, zero-padded where it is smaller."""
    op = "resize_with_crop_or_pad"
    x, batched = _image(image, op)
    th, tw = _ints(op, target_height=target_height, target_width=target_width)
    if tw <= 0:
        raise ValueError("target_width must be > 0.")
    if th <= 0:
        raise ValueError("target_height must be > 0.")
    if None in x.shape.dims[-3:-1]:
        size = _shape(x)
        h, w = size[-3], size[-2]
        cropped = _dynamic_crop(x, batched, maximum((h - th) // 2, 0),
                                maximum((w - tw) // 2, 0), minimum(h, th), minimum(w, tw))
        return _dynamic_pad(cropped, batched, maximum((th - h) // 2, 0),
                            maximum((tw - w) // 2, 0), th, tw)
    h, w = _hw(x, batched, op)
    cropped = crop_to_bounding_box(x, max((h - th) // 2, 0), max((w - tw) // 2, 0),
                                   min(h, th), min(w, tw))
    return pad_to_bounding_box(cropped, max((th - h) // 2, 0), max((tw - w) // 2, 0), th, tw)


def resize_with_pad(image, target_height, target_width, method=ResizeMethod.BILINEAR,
                    antialias=False):
    """`image` resized to fit [target_height, target_width] with its aspect
    ratio kept (TF's float32 rounding), then centred on a zero canvas."""
    op = "resize_with_pad"
    x, batched = _image(image, op)
    th, tw = _ints(op, target_height=target_height, target_width=target_width)
    if tw <= 0:
        raise ValueError("target_width must be > 0.")
    if th <= 0:
        raise ValueError("target_height must be > 0.")
    f32 = np.float32
    h, w = (f32(d) for d in _hw(x, batched, op))
    ratio = max(w / f32(tw), h / f32(th))
    rh, rw = h / ratio, w / ratio
    pad_h = max(0, int(np.floor((f32(th) - rh) / f32(2))))
    pad_w = max(0, int(np.floor((f32(tw) - rw) / f32(2))))
    x4 = x if batched else expand_dims(x, 0)
    resized = resize(x4, [int(np.floor(rh)), int(np.floor(rw))], method, antialias=antialias)
    padded = pad_to_bounding_box(resized, pad_h, pad_w, th, tw)
    return padded if batched else squeeze(padded, [0])
