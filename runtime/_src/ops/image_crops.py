"""`tf.image` windows onto images, as TensorFlow 2.21 computes them:
`crop_and_resize`, `extract_patches`, `extract_glimpse` and
`draw_bounding_boxes`.

crop_and_resize samples box b of image box_indices[b] on a crop_size grid:
row i sits at y1 * (H - 1) + i * (y2 - y1) * (H - 1) / (crop_h - 1) (the box's
centre when crop_h is 1), bilinear or nearest (rounded half away from zero);
samples outside the image take `extrapolation_value`. It is gathers and
arithmetic, so it has TF's gradients: bilinear ones for the image and for the
boxes, and for "nearest" the image's through the chosen pixels and the
boxes' from bilinear sampling, as TF approximates them.

    crop_and_resize(images, [[0, 0, 0.5, 0.5]], [0], [8, 8])   # [1, 8, 8, C] float32
    extract_patches(images, [1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "SAME")
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.ops import random_ops
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import range as range_, reshape, shape as shape_of, transpose
from runtime._src.ops.gradient_ops import stop_gradient
from runtime._src.ops.manipulation_ops import gather, stack
from runtime._src.ops.math_ops import (cast, ceil, clip_by_value, floor, greater_equal,
                                       less_equal, logical_and, where)
from runtime._src.ops.reduction_ops import reduce_max, reduce_mean, reduce_min, reduce_std
from runtime._src.ops.scatter_ops import gather_nd
from runtime._src.ops.shape_ops import broadcast_to, pad

__all__ = ["crop_and_resize", "extract_patches", "extract_volume_patches", "extract_glimpse",
           "draw_bounding_boxes"]

_F32 = np.float32


def _image4(image, op):
    image = convert_to_tensor(image)
    dims = image.shape.dims
    if dims is None or len(dims) != 4:
        raise ValueError(f"{op}: 'image' must be 4-D [batch, height, width, channels], got "
                         f"shape {image.shape}")
    if dims[1] is None or dims[2] is None:
        raise ValueError(f"{op}: the image's height and width must be known while tracing, "
                         f"got shape {image.shape}")
    return image


def _positions(lo, hi, n_in, n_out):
    """[N, n_out] sample coordinates along one side (TF's float32 formula)."""
    span = _F32(n_in - 1)
    if n_out > 1:
        scale = (hi - lo) * span / _F32(n_out - 1)
        return lo * span + convert_to_tensor(np.arange(n_out, dtype=_F32)) * scale
    return _F32(0.5) * (lo + hi) * span


def _inside(pos, n_in):
    return logical_and(greater_equal(pos, _F32(0)), less_equal(pos, _F32(n_in - 1)))


def _index(pos, n_in):
    return clip_by_value(cast(pos, dtypes.int32), 0, n_in - 1)


def _sample(image, box_ind, yi, xi, shape):
    """image[box_ind[n], yi[n, i], xi[n, j]] as [N, ch, cw, C]."""
    grid = [broadcast_to(box_ind[:, None, None], shape),
            broadcast_to(yi[:, :, None], shape), broadcast_to(xi[:, None, :], shape)]
    return gather_nd(image, stack(grid, axis=-1))


def _bilinear(image, box_ind, ys, xs, size):
    h, w = image.shape.dims[1:3]
    shape = _shape_like(box_ind, size)
    top, left = floor(ys), floor(xs)
    ylerp, xlerp = (ys - top)[:, :, None, None], (xs - left)[:, None, :, None]
    t, b = _index(top, h), _index(ceil(ys), h)
    lft, rgt = _index(left, w), _index(ceil(xs), w)
    tl, tr = _sample(image, box_ind, t, lft, shape), _sample(image, box_ind, t, rgt, shape)
    bl, br = _sample(image, box_ind, b, lft, shape), _sample(image, box_ind, b, rgt, shape)
    upper = tl + (tr - tl) * xlerp
    lower = bl + (br - bl) * xlerp
    return upper + (lower - upper) * ylerp


def _shape_like(box_ind, size):
    return stack([shape_of(box_ind)[0], size[0], size[1]])


def _nearest(image, box_ind, ys, xs, size):
    h, w = image.shape.dims[1:3]

    def rounded(p, n):   # roundf: half away from zero (p >= 0 where it counts)
        base = floor(p)
        return _index(base + cast(greater_equal(p - base, _F32(0.5)), dtypes.float32), n)
    return _sample(image, box_ind, rounded(ys, h), rounded(xs, w), _shape_like(box_ind, size))


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear",
                    extrapolation_value=0.0, name=None):
    """Crops of `image` at normalised `boxes` ([N, 4]: y1, x1, y2, x2; y1 > y2
    flips), each resized to `crop_size`; float32 [N, crop_h, crop_w, C]."""
    op = "crop_and_resize"
    image = _image4(image, op)
    if method not in ("bilinear", "nearest"):
        raise ValueError(f"{op}: method must be 'bilinear' or 'nearest', got {method!r}")
    ch, cw = rules.static_ints(crop_size, op, "crop_size")
    if ch <= 0 or cw <= 0:
        raise ValueError(f"{op}: crop dimensions must be positive, got [{ch}, {cw}]")
    boxes = convert_to_tensor(boxes, dtypes.float32)
    if boxes.shape.rank is not None and (boxes.shape.rank != 2 or
                                         boxes.shape.dims[-1] not in (None, 4)):
        raise ValueError(f"{op}: boxes must be [num_boxes, 4], got shape {boxes.shape}")
    box_ind = convert_to_tensor(box_indices, dtypes.int32)
    known, batch = rules.constant_value(box_ind), image.shape.dims[0]
    if known is not None and batch is not None and np.any((known < 0) | (known >= batch)):
        raise InvalidArgumentError(f"box_index has values outside [0, batch_size) "
                                   f"(batch_size {batch}): {np.asarray(known).tolist()}",
                                   "CropAndResize")
    flt = image if image.dtype == dtypes.float32 else cast(image, dtypes.float32)
    h, w = image.shape.dims[1:3]
    ys = _positions(boxes[:, 0:1], boxes[:, 2:3], h, ch)
    xs = _positions(boxes[:, 1:2], boxes[:, 3:4], w, cw)
    if method == "bilinear":
        out = _bilinear(flt, box_ind, ys, xs, (ch, cw))
    else:
        fixed_ys, fixed_xs = stop_gradient(ys), stop_gradient(xs)
        chosen = _nearest(flt, box_ind, fixed_ys, fixed_xs, (ch, cw))
        smooth = _bilinear(stop_gradient(flt), box_ind, ys, xs, (ch, cw))
        out = chosen + (smooth - stop_gradient(smooth))
    inside = logical_and(_inside(ys, h)[:, :, None, None], _inside(xs, w)[:, None, :, None])
    fill = convert_to_tensor(extrapolation_value, dtypes.float32)
    return where(inside, out, fill)


def _window(k, stride, rate, size, padding):
    """(start indices of the patches, padding before, after) along one side."""
    eff = (k - 1) * rate + 1
    if padding == "VALID":
        n_out = max(-(-(size - eff + 1) // stride), 0)
        before = after = 0
    else:
        n_out = -(-size // stride)
        total = max((n_out - 1) * stride + eff - size, 0)
        before, after = total // 2, total - total // 2
    return np.arange(n_out) * stride, before, after


def _four(value, op, what):
    v = list(rules.static_ints(value, op, what))
    if len(v) != 4 or v[0] != 1 or v[3] != 1:
        raise ValueError(f"{op}: {what} must be [1, {what}_rows, {what}_cols, 1], got {v}")
    return v[1], v[2]


def extract_patches(images, sizes, strides, rates, padding, name=None):
    """Patches of `images` [B, H, W, C] as [B, out_rows, out_cols,
    ksize_rows * ksize_cols * C] (TF's ExtractImagePatches; SAME pads zeros)."""
    op = "extract_patches"
    x = _image4(images, op)
    if padding not in ("VALID", "SAME"):
        raise ValueError(f"{op}: padding must be 'VALID' or 'SAME', got {padding!r}")
    (kh, kw), (sh, sw), (rh, rw) = (_four(v, op, n) for v, n in
                                    ((sizes, "sizes"), (strides, "strides"), (rates, "rates")))
    if min(kh, kw, sh, sw, rh, rw) <= 0:
        raise ValueError(f"{op}: sizes, strides and rates must be positive")
    h, w = x.shape.dims[1:3]
    rows, top, bottom = _window(kh, sh, rh, h, padding)
    cols, left, right = _window(kw, sw, rw, w, padding)
    if top or bottom or left or right:
        x = pad(x, [[0, 0], [top, bottom], [left, right], [0, 0]])
    row_idx = (rows[:, None] + np.arange(kh)[None, :] * rh).astype(np.int32)
    col_idx = (cols[:, None] + np.arange(kw)[None, :] * rw).astype(np.int32)
    y = gather(gather(x, row_idx, axis=1), col_idx, axis=3)    # [B, oh, kh, ow, kw, C]
    y = transpose(y, [0, 1, 3, 2, 4, 5])
    channels = x.shape.dims[3]
    depth = -1 if channels is None else kh * kw * channels
    batch = x.shape.dims[0]
    return reshape(y, [-1 if batch is None else batch, len(rows), len(cols), depth])


def extract_volume_patches(input, ksizes, strides, padding, name=None):  # noqa: A002
    """`tf.extract_volume_patches`: patches of a 5-D `input` [B, D, H, W, C] as
    [B, out_d, out_h, out_w, kd * kh * kw * C] (TF's ExtractVolumePatches, in
    depth, row, column, channel order; SAME pads zeros), gathered so the
    gradient sums back over overlapping patches."""
    op = "extract_volume_patches"
    x = convert_to_tensor(input)
    if x.shape.rank != 5:
        raise ValueError(f"{op}: input must be 5-D [batch, planes, rows, cols, depth], "
                         f"got shape {x.shape}")
    if padding not in ("VALID", "SAME"):
        raise ValueError(f"{op}: padding must be 'VALID' or 'SAME', got {padding!r}")
    k, s = (_five(v, op, n) for v, n in ((ksizes, "ksizes"), (strides, "strides")))
    if min(k + s) <= 0:
        raise ValueError(f"{op}: ksizes and strides must be positive, got {list(k)}, {list(s)}")
    sizes = x.shape.dims[1:4]
    if any(d is None for d in sizes):
        raise ValueError(f"{op}: the planes, rows and cols of input must be known, got {x.shape}")
    windows = [_window(k[i], s[i], 1, sizes[i], padding) for i in range(3)]
    if any(before or after for _, before, after in windows):
        x = pad(x, [[0, 0]] + [[before, after] for _, before, after in windows] + [[0, 0]])
    y = x
    for i, (starts, _, _) in enumerate(windows):        # -> [B, od, kd, oh, kh, ow, kw, C]
        idx = (starts[:, None] + np.arange(k[i])[None, :]).astype(np.int32)
        y = gather(y, idx, axis=1 + 2 * i)
    y = transpose(y, [0, 1, 3, 5, 2, 4, 6, 7])
    channels, batch = x.shape.dims[4], x.shape.dims[0]
    depth = -1 if channels is None else k[0] * k[1] * k[2] * channels
    return reshape(y, [-1 if batch is None else batch] + [len(w[0]) for w in windows] + [depth])


def _five(value, op, what):
    v = list(rules.static_ints(value, op, what))
    if len(v) != 5 or v[0] != 1 or v[4] != 1:
        raise ValueError(f"{op}: {what} must be [1, planes, rows, cols, 1], got {v}")
    return v[1:4]


def _glimpse_start(offsets, side, size, centered, normalized):
    side, size = _F32(side), _F32(size)
    if normalized and centered:
        pos = offsets * (side / _F32(2)) + side / _F32(2) - size / _F32(2)
    elif normalized:
        pos = offsets * side
    elif centered:
        pos = offsets + side / _F32(2)
    else:
        pos = offsets
    return cast(pos, dtypes.int32)    # truncated toward zero, as TF


def extract_glimpse(input, size, offsets, centered=True, normalized=True,  # noqa: A002
                    noise="uniform", name=None):
    """[B, glimpse_h, glimpse_w, C] windows of `input` at `offsets` ([B, 2],
    y then x; see TF's docs for centered/normalized). Outside the image:
    zeros for noise="zero", else random noise (uniform over each image
    channel's [min, max], or gaussian with its mean and deviation)."""
    op = "extract_glimpse"
    x = _image4(input, op)
    if noise not in ("uniform", "gaussian", "zero"):
        raise ValueError(f"{op}: noise must be 'uniform', 'gaussian' or 'zero', got {noise!r}")
    gh, gw = rules.static_ints(size, op, "size")
    offsets = convert_to_tensor(offsets, dtypes.float32)
    h, w = x.shape.dims[1:3]
    y0 = _glimpse_start(offsets[:, 0], h, gh, centered, normalized)
    x0 = _glimpse_start(offsets[:, 1], w, gw, centered, normalized)
    ys = y0[:, None] + convert_to_tensor(np.arange(gh, dtype=np.int32))
    xs = x0[:, None] + convert_to_tensor(np.arange(gw, dtype=np.int32))
    batch = range_(shape_of(x)[0])
    shape = stack([shape_of(x)[0], gh, gw])
    out = _sample(x, batch, clip_by_value(ys, 0, h - 1), clip_by_value(xs, 0, w - 1), shape)
    inside = logical_and(
        logical_and(ys >= 0, ys < h)[:, :, None, None],
        logical_and(xs >= 0, xs < w)[:, None, :, None])
    return where(inside, out, _noise(x, noise, shape_of(out)))


def _noise(x, noise, shape):
    if noise == "zero":
        return convert_to_tensor(np.zeros([], x.dtype.np_dtype))
    if noise == "uniform":
        lo, hi = reduce_min(x, [1, 2], keepdims=True), reduce_max(x, [1, 2], keepdims=True)
        return lo + (hi - lo) * random_ops.uniform(shape, dtype=x.dtype)
    mean, std = reduce_mean(x, [1, 2], keepdims=True), reduce_std(x, [1, 2], keepdims=True)
    return mean + std * random_ops.normal(shape, dtype=x.dtype)


# TF's colours when `colors` is empty (RGBA; an image takes its first channels)
_DEFAULT_COLORS = np.array([[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1],
                            [0.5, 0, 0.5, 1], [0.5, 0.5, 0, 1], [0.5, 0, 0, 1],
                            [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]], np.float32)


def _infer_draw(inputs, attrs):
    images, boxes = inputs[0], inputs[1]
    if images.shape.rank not in (None, 4):
        raise ValueError(f"draw_bounding_boxes: images must be 4-D, got shape {images.shape}")
    if boxes.shape.rank is not None and (boxes.shape.rank != 3 or
                                         boxes.shape.dims[-1] not in (None, 4)):
        raise ValueError(f"draw_bounding_boxes: boxes must be [batch, num_boxes, 4], got "
                         f"shape {boxes.shape}")
    return [(images.dtype, TensorShape(images.shape.dims))]


def _draw_one(canvas, box, color):
    h, w = canvas.shape[:2]
    top, left = int(_F32(box[0]) * _F32(h - 1)), int(_F32(box[1]) * _F32(w - 1))
    bottom, right = int(_F32(box[2]) * _F32(h - 1)), int(_F32(box[3]) * _F32(w - 1))
    if top > bottom or left > right or top > h - 1 or bottom < 0 or left > w - 1 or right < 0:
        return
    r0, r1 = max(top, 0), min(bottom, h - 1)
    c0, c1 = max(left, 0), min(right, w - 1)
    for row in (top, bottom):
        if 0 <= row < h:
            canvas[row, c0:c1 + 1] = color
    for col in (left, right):
        if 0 <= col < w:
            canvas[r0:r1 + 1, col] = color


@define_op("DrawBoundingBoxesV2", infer=_infer_draw)
def _draw(images, boxes, colors):
    out = np.array(images, copy=True)
    depth = out.shape[-1]
    table = np.asarray(colors, np.float32).reshape(-1, np.shape(colors)[-1] if np.size(colors)
                                                   else 4)
    if not table.size:
        table = _DEFAULT_COLORS
    if table.shape[1] < depth:
        raise ValueError(f"colors must have at least {depth} channels (the images' depth), "
                         f"got {table.shape[1]}")
    for b in range(out.shape[0]):
        for k, box in enumerate(boxes[b]):
            _draw_one(out[b], box, table[k % len(table), :depth].astype(out.dtype))
    return out


def draw_bounding_boxes(images, boxes, colors, name=None):
    """`images` [B, H, W, depth] with the outline of each box ([B, N, 4]
    normalised y1, x1, y2, x2) drawn 1 pixel wide in colors[n % len(colors)]."""
    images = convert_to_tensor(images)
    if images.dtype not in (dtypes.float16, dtypes.float32):
        raise TypeError(f"draw_bounding_boxes: images must be float16 or float32, got "
                        f"{images.dtype.name}")
    colors = convert_to_tensor(np.zeros([0, 4], np.float32) if colors is None else colors,
                               dtypes.float32)
    args = (images, convert_to_tensor(boxes, dtypes.float32), colors)
    _infer_draw(args, {})
    return apply("DrawBoundingBoxesV2", args)
