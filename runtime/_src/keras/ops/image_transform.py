"""Projective image transforms, as TensorFlow's ImageProjectiveTransformV3 (the
op Keras 3's `ops.image.affine_transform` runs on TF): the work of the
geometric augmentation layers (RandomRotation, RandomZoom, RandomTranslation).

    affine_transform(images, transforms, interpolation="bilinear",
                     fill_mode="reflect", fill_value=0.0)

images (batch, height, width, channels); transforms (batch, 8): output pixel
(x, y) (x the column) takes the input at ((a0 x + a1 y + a2) / k,
(b0 x + b1 y + b2) / k), k = c0 x + c1 y + 1. A point outside the image is
mapped back in by `fill_mode`:
- "reflect": reflected about the edge (d c b a | a b c d | d c b a);
- "wrap": the image repeated (a b c d | a b c d | a b c d);
- "nearest": the nearest edge pixel (a a a a | a b c d | d d d d);
- "constant": not mapped; it reads `fill_value`.
"bilinear" mixes the four neighbours (one outside the image reads
`fill_value`), "nearest" takes the nearest one (rounding half away from 0).
"""

from runtime._src.core import dtypes
from runtime._src.ops import array_ops, linalg_solve_ops, manipulation_ops, math_ops

__all__ = ["affine_transform", "perspective_transform", "FILL_MODES", "INTERPOLATIONS"]

FILL_MODES = ("reflect", "wrap", "constant", "nearest")
INTERPOLATIONS = ("nearest", "bilinear")


def _trunc(x):
    """x rounded toward zero (C's float -> int)."""
    return math_ops.sign(x) * math_ops.floor(math_ops.abs(x))


def _reflect(x, n):
    if n <= 1:
        return array_ops.zeros_like(x)
    sz2 = 2.0 * n
    low = math_ops.where(x < sz2, sz2 * _trunc(-x / sz2) + x, x)   # x < 0 here
    low = math_ops.where(low < -n, low + sz2, -low - 1.0)
    high = x - sz2 * _trunc(x / sz2)
    high = math_ops.where(high >= n, sz2 - high - 1.0, high)
    out = math_ops.where(x < 0, low, math_ops.where(x > n - 1, high, x))
    return math_ops.clip_by_value(out, 0.0, n - 1.0)


def _wrap(x, n):
    if n <= 1:
        return array_ops.zeros_like(x)
    sz = n - 1.0
    low = x + n * (_trunc(-x / sz) + 1.0)
    high = x - n * _trunc(x / sz)
    out = math_ops.where(x < 0, low, math_ops.where(x > n - 1, high, x))
    return math_ops.clip_by_value(out, 0.0, n - 1.0)


def _map(x, n, fill_mode):
    if fill_mode == "reflect":
        return _reflect(x, n)
    if fill_mode == "wrap":
        return _wrap(x, n)
    if fill_mode == "nearest":
        return math_ops.clip_by_value(x, 0.0, n - 1.0)
    return x


def _reader(images, fill_value):
    """read(yi, xi): the pixels at integer (float-valued) coordinates (batch, h, w),
    fill_value outside the image."""
    shape = images.shape.as_list()
    h, w, c = shape[1:]
    flat = array_ops.reshape(images, [-1, c])
    batch = array_ops.shape(images)[0]
    base = array_ops.reshape(array_ops.range(batch) * (h * w), [-1, 1, 1])
    fill = array_ops.constant(fill_value, images.dtype)

    def read(yi, xi):
        inside = math_ops.logical_and(
            math_ops.logical_and(yi >= 0.0, yi <= h - 1.0),
            math_ops.logical_and(xi >= 0.0, xi <= w - 1.0))
        y = math_ops.cast(math_ops.clip_by_value(yi, 0.0, h - 1.0), dtypes.int32)
        x = math_ops.cast(math_ops.clip_by_value(xi, 0.0, w - 1.0), dtypes.int32)
        values = manipulation_ops.gather(flat, base + y * w + x)
        return math_ops.where(array_ops.expand_dims(inside, -1), values,
                              array_ops.ones_like(values) * fill)
    return read


def affine_transform(images, transforms, interpolation="bilinear", fill_mode="reflect",
                     fill_value=0.0):
    """See the module docstring; images float, channels last, rank 4."""
    if fill_mode not in FILL_MODES:
        raise ValueError(f"Invalid value for argument `fill_mode`. Expected one of "
                         f"{FILL_MODES}. Received: fill_mode={fill_mode!r}")
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"Invalid value for argument `interpolation`. Expected one of "
                         f"{INTERPOLATIONS}. Received: interpolation={interpolation!r}")
    h, w = images.shape.as_list()[1:3]
    t = math_ops.cast(transforms, dtypes.float32)
    ys = array_ops.reshape(array_ops.range(h, dtype=dtypes.float32), [1, -1, 1])
    xs = array_ops.reshape(array_ops.range(w, dtype=dtypes.float32), [1, 1, -1])
    a0, a1, a2, b0, b1, b2, c0, c1 = (array_ops.reshape(t[:, i], [-1, 1, 1])
                                      for i in range(8))
    k = c0 * xs + c1 * ys + 1.0
    x_in = _map((a0 * xs + a1 * ys + a2) / k, w, fill_mode)
    y_in = _map((b0 * xs + b1 * ys + b2) / k, h, fill_mode)
    read = _reader(images, fill_value)
    if interpolation == "nearest":
        return read(_round_half_away(y_in), _round_half_away(x_in))
    y0, x0 = math_ops.floor(y_in), math_ops.floor(x_in)
    y1, x1 = y0 + 1.0, x0 + 1.0

    def weight(v):
        return array_ops.expand_dims(math_ops.cast(v, images.dtype), -1)
    top = weight(x1 - x_in) * read(y0, x0) + weight(x_in - x0) * read(y0, x1)
    bottom = weight(x1 - x_in) * read(y1, x0) + weight(x_in - x0) * read(y1, x1)
    return weight(y1 - y_in) * top + weight(y_in - y0) * bottom


def _round_half_away(x):
    return math_ops.sign(x) * math_ops.floor(math_ops.abs(x) + 0.5)


def homography(start_points, end_points):
    """(batch, 8) transforms taking each end point (x, y) to its start point (both
    (batch, 4, 2)): the 8x8 linear system of the four correspondences, solved."""
    rows, rhs = [], []
    zero = array_ops.zeros_like(start_points[:, 0, 0])
    one = array_ops.ones_like(zero)
    for i in range(4):
        sx, sy = start_points[:, i, 0], start_points[:, i, 1]
        ex, ey = end_points[:, i, 0], end_points[:, i, 1]
        rows.append(array_ops.stack([ex, ey, one, zero, zero, zero, -sx * ex, -sx * ey], -1))
        rows.append(array_ops.stack([zero, zero, zero, ex, ey, one, -sy * ex, -sy * ey], -1))
        rhs += [sx, sy]
    matrix = array_ops.stack(rows, 1)
    target = array_ops.expand_dims(array_ops.stack(rhs, 1), -1)
    return array_ops.reshape(linalg_solve_ops.solve(matrix, target), [-1, 8])


def perspective_transform(images, start_points, end_points, interpolation="bilinear",
                          fill_value=0.0):
    """Keras's `ops.image.perspective_transform` on channels_last batches: the output
    takes the input at the homography of start_points -> end_points, constant fill."""
    transforms = homography(math_ops.cast(start_points, dtypes.float32),
                            math_ops.cast(end_points, dtypes.float32))
    return affine_transform(images, transforms, interpolation, "constant", fill_value)
