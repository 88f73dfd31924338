"""`tf.image` measures and derivatives of images, as TensorFlow 2.21 defines
them: `psnr`, `ssim`, `ssim_multiscale`, `total_variation`,
`image_gradients`, `sobel_edges`. All are compositions of ops (convolutions,
pooling, reductions), so they trace and have gradients.

    psnr(a, b, max_val=1.0)      # per image, in dB
    ssim(a, b, max_val=1.0)      # per image, an 11x11 gaussian window (sigma 1.5)
    sobel_edges(images)          # [B, H, W, C, 2]: dy then dx
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.ops.conv_more_ops import depthwise_conv2d
from runtime._src.ops.conv_ops import avg_pool
from runtime._src.ops.image_color import convert_image_dtype
from runtime._src.ops.manipulation_ops import concat, stack
from runtime._src.ops.array_ops import reshape, zeros_like
from runtime._src.ops.math_ops import abs as abs_, cast, log, pow as pow_, squared_difference
from runtime._src.ops.nn_ops import relu
from runtime._src.ops.reduction_ops import reduce_mean, reduce_prod, reduce_sum
from runtime._src.ops.shape_ops import pad

__all__ = ["psnr", "ssim", "ssim_multiscale", "total_variation", "image_gradients",
           "sobel_edges"]

_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def _pair(a, b, op):
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    sa, sb = a.shape.dims, b.shape.dims
    if sa is not None and sb is not None:
        if len(sa) < 3 or len(sb) < 3:
            raise ValueError(f"{op}: images must have at least 3 dimensions, got {a.shape} "
                             f"and {b.shape}")
        for x, y in zip(sa[-3:], sb[-3:]):
            if x is not None and y is not None and x != y:
                raise ValueError(f"{op}: the images' last three dimensions differ: {a.shape} "
                                 f"and {b.shape}")
    return a, b


def _float_max(max_val, dtype):
    return convert_image_dtype(cast(max_val, dtype), dtypes.float32)


def psnr(a, b, max_val, name=None):
    """Peak signal-to-noise ratio of each image pair, float32 (inf where equal)."""
    a, b = _pair(a, b, "psnr")
    peak = _float_max(max_val, a.dtype)
    a, b = convert_image_dtype(a, dtypes.float32), convert_image_dtype(b, dtypes.float32)
    mse = reduce_mean(squared_difference(a, b), [-3, -2, -1])
    ten_over_ln10 = np.float32(10 / np.log(10))
    return 20.0 * log(peak) / log(np.float32(10.0)) - ten_over_ln10 * log(mse)


def _gaussian(size, sigma):
    """The [size, size] gaussian window, normalised as TF's softmax does."""
    coords = np.arange(size, dtype=np.float32) - np.float32(size - 1) / np.float32(2)
    g = np.square(coords) * (np.float32(-0.5) / np.square(np.float32(sigma)))
    g = (g[None, :] + g[:, None]).reshape(-1)
    e = np.exp(g - g.max())
    return (e / e.sum()).astype(np.float32).reshape(size, size)


def _ssim_per_channel(x, y, peak, size, sigma, k1, k2, index_map=False):
    """(ssim, cs) per image and channel, or the maps when index_map."""
    dims = x.shape.dims
    if None in dims[-3:]:
        raise ValueError(f"ssim: the image shape must be known while tracing, got {x.shape}")
    h, w, c = dims[-3:]
    if h < size or w < size:
        raise ValueError(f"ssim: the images ({h}x{w}) must be at least filter_size "
                         f"({size}) high and wide")
    kernel = convert_to_tensor(np.tile(_gaussian(size, sigma)[:, :, None, None], [1, 1, c, 1]))
    head = [-1 if d is None else d for d in dims[:-3]]

    def local_mean(t):
        out = depthwise_conv2d(reshape(t, [-1, h, w, c]), kernel, [1, 1, 1, 1], "VALID")
        return reshape(out, head + [h - size + 1, w - size + 1, c])
    c1 = (k1 * peak) ** 2
    c2 = (k2 * peak) ** 2
    mx, my = local_mean(x), local_mean(y)
    num0 = mx * my * 2.0
    den0 = mx * mx + my * my
    luminance = (num0 + c1) / (den0 + c1)
    num1 = local_mean(x * y) * 2.0
    den1 = local_mean(x * x + y * y)
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    if index_map:
        return luminance * cs, cs
    return reduce_mean(luminance * cs, [-3, -2]), reduce_mean(cs, [-3, -2])


def _ssim_inputs(img1, img2, max_val, op):
    a, b = _pair(img1, img2, op)
    peak = _float_max(max_val, a.dtype)
    return convert_image_dtype(a, dtypes.float32), convert_image_dtype(b, dtypes.float32), peak


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         return_index_map=False):
    """Structural similarity of each image pair (mean over channels), from an
    11x11 gaussian window by default; the per-pixel map when return_index_map."""
    a, b, peak = _ssim_inputs(img1, img2, max_val, "ssim")
    per_channel, _ = _ssim_per_channel(a, b, peak, filter_size, filter_sigma, k1, k2,
                                       return_index_map)
    return reduce_mean(per_channel, [-1])


def _halve(x):
    """One MS-SSIM scale down: symmetric padding to even sides, 2x2 mean."""
    dims = x.shape.dims
    h, w, c = dims[-3:]
    flat = reshape(x, [-1, h, w, c])
    if h % 2 or w % 2:
        flat = pad(flat, [[0, 0], [0, h % 2], [0, w % 2], [0, 0]], mode="SYMMETRIC")
    down = avg_pool(flat, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    head = [-1 if d is None else d for d in dims[:-3]]
    return reshape(down, head + list(down.shape.dims[1:]))


def ssim_multiscale(img1, img2, max_val, power_factors=_MSSSIM_WEIGHTS, filter_size=11,
                    filter_sigma=1.5, k1=0.01, k2=0.03):
    """Multi-scale SSIM: one scale per power factor, each half the size of the
    last; the images must stay at least filter_size wide at the smallest."""
    a, b, peak = _ssim_inputs(img1, img2, max_val, "ssim_multiscale")
    factors = [float(p) for p in power_factors]
    parts = []
    for k in range(len(factors)):
        if k > 0:
            a, b = _halve(a), _halve(b)
        per_channel, cs = _ssim_per_channel(a, b, peak, filter_size, filter_sigma, k1, k2)
        parts.append(relu(cs))
    parts[-1] = relu(per_channel)
    weights = convert_to_tensor(np.array(factors, np.float32))
    return reduce_mean(reduce_prod(pow_(stack(parts, axis=-1), weights), [-1]), [-1])


def total_variation(images, name=None):
    """Sum of absolute differences of neighbouring pixels: a scalar for one
    image, [batch] for a batch."""
    x = convert_to_tensor(images)
    rank = x.shape.rank
    if rank == 3:
        axis = None
        dy, dx = x[1:, :, :] - x[:-1, :, :], x[:, 1:, :] - x[:, :-1, :]
    elif rank == 4:
        axis = [1, 2, 3]
        dy, dx = x[:, 1:, :, :] - x[:, :-1, :, :], x[:, :, 1:, :] - x[:, :, :-1, :]
    else:
        raise ValueError("'images' must be either 3 or 4-dimensional.")
    return reduce_sum(abs_(dy), axis) + reduce_sum(abs_(dx), axis)


def image_gradients(image):
    """(dy, dx): forward differences of [B, H, W, C] images, zero in the last
    row (dy) and column (dx)."""
    x = convert_to_tensor(image)
    if x.shape.rank != 4:
        raise ValueError(f"image_gradients expects a 4D tensor [batch_size, h, w, d], not "
                         f"{x.shape}.")
    dy = x[:, 1:, :, :] - x[:, :-1, :, :]
    dx = x[:, :, 1:, :] - x[:, :, :-1, :]
    dy = concat([dy, zeros_like(x[:, :1, :, :])], 1)
    dx = concat([dx, zeros_like(x[:, :, :1, :])], 2)
    return dy, dx


def sobel_edges(image):
    """Sobel responses of [B, H, W, C] images (reflect-padded): [B, H, W, C, 2],
    the vertical (dy) filter first, then the horizontal (dx) one."""
    x = convert_to_tensor(image)
    if x.shape.rank != 4 or x.shape.dims[3] is None:
        raise ValueError(f"sobel_edges: image must be 4-D [batch, h, w, d] with known "
                         f"channels, got {x.shape}")
    c = x.shape.dims[3]
    k = np.array([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]],
                  [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]], x.dtype.np_dtype)
    kernel = np.tile(np.transpose(k, (1, 2, 0))[:, :, None, :], [1, 1, c, 1])
    padded = pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    out = depthwise_conv2d(padded, convert_to_tensor(kernel), [1, 1, 1, 1], "VALID")
    dims = [-1 if d is None else d for d in x.shape.dims]
    return reshape(out, dims + [2])
