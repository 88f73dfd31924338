"""`tf.image`: `resize` (bilinear, nearest), `flip_left_right`,
`flip_up_down`, `rot90`, `per_image_standardization`.

Images are [height, width, channels] or [batch, height, width, channels].
`resize` follows TensorFlow 2's rules (half-pixel centers, no antialiasing):
output pixel i samples the input at (i + 0.5) * in / out - 0.5; bilinear
blends the two neighbours (clamped at the borders), nearest takes
floor((i + 0.5) * in / out). Bilinear (and area-free methods generally)
return float32; nearest keeps the dtype. The sample positions are computed
while tracing, so height and width must be known then; the resize itself is
`gather` and arithmetic, so it has a gradient:

    resize(constant(np.ones([4, 4, 1])), [2, 8])     # shape (2, 8, 1), float32
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import transpose
from runtime._src.ops.manipulation_ops import gather
from runtime._src.ops.math_ops import cast, maximum, sqrt
from runtime._src.ops.reduction_ops import reduce_mean
from runtime._src.ops.shape_ops import reverse

__all__ = ["resize", "flip_left_right", "flip_up_down", "rot90", "per_image_standardization",
           "ResizeMethod"]


class ResizeMethod:
    """`tf.image.ResizeMethod`: the method names `resize` accepts."""
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"


def _image(image, op):
    image = convert_to_tensor(image)
    if image.shape.rank not in (3, 4):
        raise ValueError(f"{op}: 'image' must have either 3 or 4 dimensions, got shape "
                         f"{image.shape}")
    return image, image.shape.rank == 4


def _axis_weights(size_in, size_out, nearest):
    scale = size_in / size_out
    centers = (np.arange(size_out) + 0.5) * scale
    if nearest:
        return np.minimum(np.floor(centers), size_in - 1).astype(np.int32), None, None
    pos = centers - 0.5
    low = np.floor(pos)
    lerp = (pos - low).astype(np.float32)
    lo = np.clip(low, 0, size_in - 1).astype(np.int32)
    hi = np.clip(np.ceil(pos), 0, size_in - 1).astype(np.int32)
    return lo, hi, lerp


def _resize_axis(x, axis, size_out, nearest):
    size_in = x.shape.dims[axis]
    lo, hi, lerp = _axis_weights(size_in, size_out, nearest)
    if nearest:
        return gather(x, lo, axis=axis)
    shape = [1] * x.shape.rank
    shape[axis] = size_out
    w = convert_to_tensor(lerp.reshape(shape))
    a, b = gather(x, lo, axis=axis), gather(x, hi, axis=axis)
    return a + (b - a) * w


def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False,
           antialias=False, name=None):
    """`tf.image.resize` to `size` = [new_height, new_width] (see the module
    docstring for the sampling rules)."""
    x, batched = _image(images, "resize")
    if method not in ("bilinear", "nearest"):
        raise ValueError(f"resize: method {method!r} is not supported; use 'bilinear' or "
                         "'nearest'")
    if antialias:
        raise NotImplementedError("resize: antialias=True is not implemented (TF's default "
                                  "is False)")
    out_h, out_w = rules.static_ints(size, "resize", "size")
    dims = x.shape.dims
    in_h, in_w = dims[-3], dims[-2]
    if in_h is None or in_w is None:
        raise ValueError(f"resize: the image's height and width must be known while "
                         f"tracing, got shape {x.shape}")
    if preserve_aspect_ratio:
        scale = min(out_h / in_h, out_w / in_w)
        out_h, out_w = int(round(in_h * scale)), int(round(in_w * scale))
    nearest = method == "nearest"
    if not nearest:
        x = cast(x, dtypes.float32) if x.dtype != dtypes.float32 else x
    h_axis = 1 if batched else 0
    y = _resize_axis(x, h_axis, out_h, nearest)
    return _resize_axis(y, h_axis + 1, out_w, nearest)


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
        return transpose(reverse(x, [h + 1]), perm)
    if k == 2:
        return reverse(x, [h, h + 1])
    return reverse(transpose(x, perm), [h + 1])


def per_image_standardization(image):
    """`tf.image.per_image_standardization`: (x - mean) / max(stddev, 1/sqrt(N))
    over each image's pixels and channels; float32 for integer images."""
    x, batched = _image(image, "per_image_standardization")
    if not x.dtype.is_floating:
        x = cast(x, dtypes.float32)
    axes = [-1, -2, -3]
    dims = x.shape.dims[-3:]
    if None in dims:
        raise ValueError(f"per_image_standardization: the image shape must be known while "
                         f"tracing, got {x.shape}")
    n = float(np.prod(dims))
    mean = reduce_mean(x, axes, keepdims=True)
    var = reduce_mean((x - mean) * (x - mean), axes, keepdims=True)
    floor = convert_to_tensor(1.0 / np.sqrt(n), x.dtype)
    return (x - mean) / maximum(sqrt(var), floor)
