"""`keras.ops.image`: resizing, color conversion, padding and cropping of
image batches (channels_last) over the runtime's `tf.image` ops; affine and
perspective warps (ImageProjectiveTransformV3's rules, as Keras runs on TF),
Sobel edges, SSIM and 3-D patches."""

import functools
import itertools
import operator

import numpy as np

from runtime._src.keras.ops.operation import cast_to, keras_op, result_type, tensor, to_float
from runtime._src.keras.ops import image_transform
from runtime._src.keras.ops.tfops import tf
from runtime._src.ops import conv3d_ops, image_color, image_metrics

__all__ = []


def _two_of(kind, names, values):
    """Keras's rule: exactly two of (start, end, target) per axis."""
    if sum(v is not None for v in values) != 2:
        raise ValueError(f"Must specify exactly two of {', '.join(names)}. "
                         f"Received: {kind}")


def _export(fn):
    __all__.append(fn.__name__)
    return fn


@_export
@keras_op
def resize(images, size, interpolation="bilinear", antialias=False, crop_to_aspect_ratio=False,
           pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0,
           data_format=None):
    """`keras.ops.image.resize(images, size, interpolation="bilinear")`: float output
    in images' float dtype (float32 for ints)."""
    if antialias or crop_to_aspect_ratio or pad_to_aspect_ratio:
        raise ValueError("antialias and aspect-ratio options are not supported here")
    images, undo = _batched(images, data_format)
    out = tf.resize(images, list(size), method=interpolation)
    return undo(cast_to(out, images.dtype) if images.dtype.is_floating else out)


@_export
@keras_op
def rgb_to_grayscale(images, data_format=None):
    """`keras.ops.image.rgb_to_grayscale(images)`: one channel, images' dtype."""
    images, undo = _batched(images, data_format)
    return undo(cast_to(image_color.rgb_to_grayscale(to_float(images)), images.dtype))


@_export
@keras_op
def pad_images(images, top_padding=None, left_padding=None, bottom_padding=None,
               right_padding=None, target_height=None, target_width=None, data_format=None):
    """`keras.ops.image.pad_images(images, top_padding, left_padding, bottom_padding,
    right_padding, target_height, target_width)`: zero padding."""
    _two_of("padding", ("top_padding", "bottom_padding", "target_height"),
            (top_padding, bottom_padding, target_height))
    _two_of("padding", ("left_padding", "right_padding", "target_width"),
            (left_padding, right_padding, target_width))
    images, undo = _batched(images, data_format)
    h, w = images.shape.as_list()[-3:-1]
    top = top_padding if top_padding is not None else target_height - h - bottom_padding
    left = left_padding if left_padding is not None else target_width - w - right_padding
    bottom = bottom_padding if bottom_padding is not None else target_height - h - top
    right = right_padding if right_padding is not None else target_width - w - left
    return undo(tf.pad(images, [[0, 0], [top, bottom], [left, right], [0, 0]]))


@_export
@keras_op
def crop_images(images, top_cropping=None, left_cropping=None, bottom_cropping=None,
                right_cropping=None, target_height=None, target_width=None, data_format=None):
    """`keras.ops.image.crop_images(images, top_cropping, left_cropping, ...,
    target_height, target_width)`."""
    _two_of("cropping", ("top_cropping", "bottom_cropping", "target_height"),
            (top_cropping, bottom_cropping, target_height))
    _two_of("cropping", ("left_cropping", "right_cropping", "target_width"),
            (left_cropping, right_cropping, target_width))
    images, undo = _batched(images, data_format)
    h, w = images.shape.as_list()[-3:-1]
    top = top_cropping if top_cropping is not None else h - target_height - bottom_cropping
    left = left_cropping if left_cropping is not None else w - target_width - right_cropping
    height = target_height if target_height is not None else h - top - (bottom_cropping or 0)
    width = target_width if target_width is not None else w - left - (right_cropping or 0)
    return undo(images[:, top:top + height, left:left + width, :])



@_export
@keras_op
def rgb_to_hsv(images, data_format=None):
    """`keras.ops.image.rgb_to_hsv(images)`: float images in [0, 1];
    hue in [0, 1)."""
    images, undo = _batched(to_float(images), data_format)
    r, g, b = images[..., 0], images[..., 1], images[..., 2]
    value = tf.maximum(tf.maximum(r, g), b)
    low = tf.minimum(tf.minimum(r, g), b)
    delta = value - low
    safe_value = tf.where(value > 0, value, tf.ones_like(value))
    saturation = tf.where(value > 0, delta / safe_value, tf.zeros_like(value))
    safe_delta = tf.where(delta > 0, delta, tf.ones_like(delta))
    hue = tf.where(tf.equal(value, r), (g - b) / safe_delta,
                   tf.where(tf.equal(value, g), 2.0 + (b - r) / safe_delta,
                            4.0 + (r - g) / safe_delta)) / 6.0
    hue = tf.where(delta > 0, hue - tf.floor(hue), tf.zeros_like(hue))
    return undo(tf.stack([hue, saturation, value], axis=-1))


@_export
@keras_op
def hsv_to_rgb(images, data_format=None):
    """`keras.ops.image.hsv_to_rgb(images)`: the inverse of `rgb_to_hsv`."""
    images, undo = _batched(to_float(images), data_format)
    h, s, v = images[..., 0], images[..., 1], images[..., 2]
    channels = []
    for n in (5.0, 3.0, 1.0):
        k = tf.floormod(n + h * 6.0, tensor(6.0, images.dtype))
        weight = tf.clip_by_value(tf.minimum(k, 4.0 - k), 0.0, 1.0)
        channels.append(v - v * s * weight)
    return undo(tf.stack(channels, axis=-1))



def _batched(images, data_format):
    """images as a channels_last batch, and how to undo that."""
    images = tensor(images)
    single = len(images.shape) == 3
    if single:
        images = tf.expand_dims(images, 0)
    if data_format == "channels_first":
        images = tf.transpose(images, [0, 2, 3, 1])

    def undo(out):
        if data_format == "channels_first":
            out = tf.transpose(out, [0, 3, 1, 2])
        return tf.squeeze(out, [0]) if single else out
    return images, undo


@_export
@keras_op
def extract_patches(images, size, strides=None, dilation_rate=1, padding="valid",
                    data_format=None):
    """`keras.ops.image.extract_patches(images, size, strides=None, dilation_rate=1,
    padding="valid")`: 2-D patches flattened (row, column, channel) on the last axis."""
    images, undo = _batched(images, data_format)
    ph, pw = (size, size) if isinstance(size, int) else tuple(size)
    sh, sw = (ph, pw) if strides is None else \
        (strides, strides) if isinstance(strides, int) else tuple(strides)
    d = int(dilation_rate)
    if max(sh, sw) > 1 and d > 1:       # Keras's convolution refuses the two together
        raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                         f"Received: strides=[{sh} {sw}] and dilation_rate=[{d} {d}]")
    _, h, w, c = images.shape.as_list()
    span_h, span_w = (ph - 1) * d + 1, (pw - 1) * d + 1
    if padding.lower() == "same":
        rows, cols = -(-h // sh), -(-w // sw)
        pad_h = max((rows - 1) * sh + span_h - h, 0)
        pad_w = max((cols - 1) * sw + span_w - w, 0)
        images = tf.pad(images, [[0, 0], [pad_h // 2, pad_h - pad_h // 2],
                                 [pad_w // 2, pad_w - pad_w // 2], [0, 0]])
    else:
        rows, cols = (h - span_h) // sh + 1, (w - span_w) // sw + 1
    parts = []
    for i in range(ph):
        for j in range(pw):
            parts.append(images[:, i * d:i * d + (rows - 1) * sh + 1:sh,
                                j * d:j * d + (cols - 1) * sw + 1:sw, :])
    out = tf.stack(parts, axis=3)
    out = tf.reshape(out, [-1, rows, cols, ph * pw * c])
    return undo(out)


@_export
@keras_op
def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """`keras.ops.image.gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0))`:
    a depthwise Gaussian filter with "same" zero padding."""
    images, undo = _batched(to_float(images), data_format)
    dtype = images.dtype.np_dtype

    def kernel1d(n, sig):
        x = np.arange(n, dtype=dtype) - (n - 1) / 2.0
        k = np.exp(-0.5 * (x / sig) ** 2)
        return k / k.sum()
    kernel = np.multiply.outer(kernel1d(kernel_size[1], sigma[1]),
                               kernel1d(kernel_size[0], sigma[0]))
    c = images.shape.as_list()[-1]
    kernel = np.tile(kernel.reshape(kernel_size[0], kernel_size[1], 1, 1), [1, 1, c, 1])
    out = tf.depthwise_conv2d(images, tensor(kernel.astype(dtype)), [1, 1, 1, 1], "SAME")
    return undo(out)


def _warp_input(images, data_format):
    """Batched channels_last float images for a warp, and how to undo that
    (integer images are warped in float32 and cast back, as TF's kernel does)."""
    images = tensor(images)
    if len(images.shape) not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 "
                         "(batch of images). Received input with shape: "
                         f"images.shape={tuple(images.shape.as_list())}")
    dtype = images.dtype
    batched, undo = _batched(images if dtype.is_floating else to_float(images), data_format)

    def finish(out):
        return undo(out if dtype.is_floating else cast_to(out, dtype))
    return batched, finish


def _check_interpolation(interpolation):
    if interpolation not in image_transform.INTERPOLATIONS:
        raise ValueError("Invalid value for argument `interpolation`. Expected of one "
                         f"{image_transform.INTERPOLATIONS}. Received: "
                         f"interpolation={interpolation}")


@_export
@keras_op
def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant",
                     fill_value=0, data_format=None):
    """`keras.ops.image.affine_transform(images, transform, interpolation="bilinear",
    fill_mode="constant", fill_value=0)`: output pixel (x, y) reads the input at
    ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k), k = c0 x + c1 y + 1, for
    `transform` [a0, a1, a2, b0, b1, b2, c0, c1] (one, or one per image)."""
    _check_interpolation(interpolation)
    if fill_mode not in image_transform.FILL_MODES:
        raise ValueError("Invalid value for argument `fill_mode`. Expected of one "
                         f"{image_transform.FILL_MODES}. Received: fill_mode={fill_mode}")
    transform = tensor(transform)
    if len(transform.shape) not in (1, 2):
        raise ValueError("Invalid transform rank: expected rank 1 (single transform) or "
                         "rank 2 (batch of transforms). Received input with shape: "
                         f"transform.shape={tuple(transform.shape.as_list())}")
    images, finish = _warp_input(images, data_format)
    if len(transform.shape) == 1:
        transform = tf.expand_dims(transform, 0)
    return finish(image_transform.affine_transform(images, transform, interpolation,
                                                   fill_mode, fill_value))


def _points(name, points):
    points = cast_to(tensor(points), "float32")
    if len(points.shape) not in (2, 3) or points.shape.as_list()[-2:] != [4, 2]:
        raise ValueError(f"Invalid {name} shape: expected (4,2) for a single image or "
                         f"(N,4,2) for a batch. Received shape: "
                         f"{tuple(points.shape.as_list())}")
    return points


@_export
@keras_op
def perspective_transform(images, start_points, end_points, interpolation="bilinear",
                          fill_value=0, data_format=None):
    """`keras.ops.image.perspective_transform(images, start_points, end_points,
    interpolation="bilinear", fill_value=0)`: the warp moving each of the four
    `start_points` (x, y) to its `end_point`; outside reads `fill_value`."""
    _check_interpolation(interpolation)
    start, end = _points("start_points", start_points), _points("end_points", end_points)
    if start.shape.as_list() != end.shape.as_list():
        raise ValueError("start_points and end_points must have the same shape. Received "
                         f"start_points.shape={tuple(start.shape.as_list())}, "
                         f"end_points.shape={tuple(end.shape.as_list())}")
    if len(start.shape) == 2:
        start, end = tf.expand_dims(start, 0), tf.expand_dims(end, 0)
    images, finish = _warp_input(images, data_format)
    return finish(image_transform.perspective_transform(images, start, end, interpolation,
                                                        fill_value))


@_export
@keras_op
def sobel_edges(images, data_format=None):
    """`keras.ops.image.sobel_edges(images)`: (batch, height, width, channels, 2),
    the vertical then the horizontal Sobel response (reflect padding); channels_first
    gives (batch, channels, height, width, 2)."""
    images = tensor(images)
    if data_format == "channels_first":
        images = tf.transpose(images, [0, 2, 3, 1])
    edges = image_metrics.sobel_edges(images)
    return tf.transpose(edges, [0, 3, 1, 2, 4]) if data_format == "channels_first" else edges


@_export
@keras_op
def ssim(image1, image2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03,
         data_format=None):
    """`keras.ops.image.ssim(image1, image2, max_val=1.0, filter_size=11,
    filter_sigma=1.5, k1=0.01, k2=0.03)`: Keras's SSIM (Gaussian window, "valid"
    filtering, averaged over pixels then channels): one value per image, a scalar
    for single images, in image1's dtype."""
    image1, image2 = tensor(image1), tensor(image2)
    for name, image in (("image1", image1), ("image2", image2)):
        if len(image.shape) not in (3, 4):
            raise ValueError(f"Invalid {name} rank: expected rank 3 (single image) or rank "
                             f"4 (batch of images). Received input with shape: "
                             f"{name}.shape={tuple(image.shape.as_list())}")
    dtype = image1.dtype
    x, undo = _batched(to_float(image1), data_format)
    y, _ = _batched(to_float(image2), data_format)
    np_dtype = x.dtype.np_dtype
    grid = np.arange(filter_size, dtype=np_dtype) - (filter_size - 1) / 2.0
    gauss = np.exp(-(grid ** 2) / (2.0 * filter_sigma ** 2)).astype(np_dtype)
    gauss /= gauss.sum()
    kernel = tensor(np.outer(gauss, gauss).reshape(filter_size, filter_size, 1, 1))
    _, h, w, c = x.shape.as_list()

    def planes(z):
        return tf.reshape(tf.transpose(z, [0, 3, 1, 2]), [-1, h, w, 1])

    def blur(z):
        return tf.conv2d(z, kernel, [1, 1, 1, 1], "VALID")
    x, y = planes(x), planes(y)
    mu1, mu2 = blur(x), blur(y)
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    var1, var2 = blur(x * x) - mu1 * mu1, blur(y * y) - mu2 * mu2
    cov = blur(x * y) - mu1 * mu2
    ratio = ((2.0 * mu1 * mu2 + c1) * (2.0 * cov + c2)
             / ((mu1 * mu1 + mu2 * mu2 + c1) * (var1 + var2 + c2)))
    per_plane = tf.reduce_mean(ratio, axis=[1, 2, 3])
    out = tf.reduce_mean(tf.reshape(per_plane, [-1, c]), axis=-1)
    if len(image1.shape) == 3:
        out = tf.squeeze(out, [0])
    return cast_to(out, dtype)


def _triple(name, value):
    if isinstance(value, int):
        return (value,) * 3
    if len(value) != 3:
        raise ValueError(f"Invalid `{name}` argument: an int or a tuple of 3. "
                         f"Received: {name}={value}")
    return tuple(value)


@_export
@keras_op
def extract_patches_3d(volumes, size, strides=None, dilation_rate=1, padding="valid",
                       data_format=None):
    """`keras.ops.image.extract_patches_3d(volumes, size, strides=None, dilation_rate=1,
    padding="valid")`: 3-D patches flattened (depth, row, column, channel) on the
    last axis; (batch,) depth, height, width, channels volumes."""
    if not isinstance(size, int) and len(size) != 3:
        raise TypeError("Invalid `size` argument. Expected an int or a tuple of length 3. "
                        f"Received: size={size}")
    size = _triple("size", size)
    strides = _triple("strides", size if strides is None else strides)
    rates = _triple("dilation_rate", dilation_rate)
    volumes = tensor(volumes)
    single = len(volumes.shape) == 4
    if single:
        volumes = tf.expand_dims(volumes, 0)
    if data_format == "channels_first":
        volumes = tf.transpose(volumes, [0, 2, 3, 4, 1])
    channels = volumes.shape.as_list()[-1]
    depth = size[0] * size[1] * size[2] * channels
    kernel = np.eye(depth, dtype=volumes.dtype.np_dtype).reshape(*size, channels, depth)
    out = conv3d_ops.conv3d(volumes, tensor(kernel), [1, *strides, 1], padding.upper(),
                            dilations=[1, *rates, 1])
    if data_format == "channels_first":
        out = tf.transpose(out, [0, 4, 1, 2, 3])
    return tf.squeeze(out, [0]) if single else out


MAP_COORDINATES_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


def _nodes(coordinate, order):
    """The (index, weight) pairs of one axis: the rounded coordinate (half to
    even) for order 0, the two neighbours for order 1."""
    if order == 0:
        rounded = coordinate if coordinate.dtype.is_integer else tf.round(coordinate)
        return [(cast_to(rounded, "int32"), tensor(1, coordinate.dtype))]
    lower = tf.floor(coordinate)
    upper_weight = coordinate - lower
    index = cast_to(lower, "int32")
    return [(index, 1 - upper_weight), (index + 1, upper_weight)]


def _fixed_index(index, size, fill_mode):
    """The index read for `index` on an axis of `size`, and whether it is inside
    (only "constant" reads `fill_value` outside), as Keras on TF maps them."""
    inside = tf.ones_like(index, dtype="bool")
    if fill_mode == "constant":
        inside = tf.logical_and(index >= 0, index < size)
        return tf.clip_by_value(index, 0, size - 1), inside
    if fill_mode == "nearest":
        return tf.clip_by_value(index, 0, size - 1), inside
    if fill_mode == "wrap":
        return tf.floormod(index, size), inside
    mod = tf.floormod(tf.abs(index), 2 * size)
    fixed = tf.where(mod < size, mod, 2 * size - mod)
    if fill_mode == "reflect":
        fixed = tf.where(mod < size, fixed, fixed - 1)
    return fixed, inside


@_export
@keras_op
def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0):
    """`keras.ops.image.map_coordinates(inputs, coordinates, order, fill_mode="constant",
    fill_value=0)`: inputs read at `coordinates` (one row of positions per input
    axis), order 0 (nearest) or 1 (linear); integer inputs round the result."""
    inputs, coords = tensor(inputs), tensor(coordinates)
    if coords.shape.as_list()[0] != len(inputs.shape):
        raise ValueError("First dim of `coordinates` must be the same as the rank of "
                         f"`inputs`. Received inputs with shape: "
                         f"{tuple(inputs.shape.as_list())} and coordinate leading dim of "
                         f"{coords.shape.as_list()[0]}")
    if len(coords.shape) < 2:
        raise ValueError("Invalid coordinates rank: expected at least rank 2. Received "
                         f"input with shape: {tuple(coords.shape.as_list())}")
    if fill_mode not in MAP_COORDINATES_FILL_MODES:
        raise ValueError("Invalid value for argument `fill_mode`. Expected one of "
                         f"{set(MAP_COORDINATES_FILL_MODES)}. Received: fill_mode={fill_mode}")
    if order not in (0, 1):
        raise NotImplementedError("map_coordinates currently requires order<=1")
    axes = []
    for axis, size in enumerate(inputs.shape.as_list()):
        axes.append([(*_fixed_index(index, size, fill_mode), weight)
                     for index, weight in _nodes(coords[axis], order)])
    result = None
    for combo in itertools.product(*axes):
        indices, insides, weights = zip(*combo)
        weight = functools.reduce(operator.mul, weights)
        value = cast_to(tf.gather_nd(inputs, tf.stack(indices, axis=-1)), weight.dtype)
        if fill_mode == "constant":
            inside = functools.reduce(tf.logical_and, insides)
            value = tf.where(inside, value, cast_to(cast_to(fill_value, inputs.dtype),
                                                    weight.dtype))
        term = weight * value
        result = term if result is None else result + term
    if inputs.dtype.is_integer:
        result = tf.round(result)
    return cast_to(result, inputs.dtype)


def _triangle(x):
    return tf.maximum(tf.zeros_like(x), 1 - tf.abs(x))


def _keys_cubic(x):
    near = ((1.5 * x - 2.5) * x) * x + 1.0
    far = ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0
    out = tf.where(x >= 1.0, far, near)
    return tf.where(x >= 2.0, tf.zeros_like(x), out)


def _lanczos(radius):
    def kernel(x):
        y = radius * tf.sin(np.pi * x) * tf.sin(np.pi * x / radius)
        safe = tf.where(tf.not_equal(x, 0.0), np.pi ** 2 * x * x, tf.ones_like(x))
        out = tf.where(x > 1e-3, y / safe, tf.ones_like(x))
        return tf.where(x > radius, tf.zeros_like(x), out)
    return kernel


_SCALE_KERNELS = {"linear": _triangle, "bilinear": _triangle, "trilinear": _triangle,
                  "cubic": _keys_cubic, "bicubic": _keys_cubic, "tricubic": _keys_cubic,
                  "lanczos3": _lanczos(3.0), "lanczos5": _lanczos(5.0)}


def _weight_matrix(in_size, out_size, scale, translation, kernel, antialias):
    """(in_size, out_size) weights: output sample j (center (j + 0.5) / scale -
    translation / scale - 0.5 in input pixels) mixes the inputs by `kernel`,
    widened by 1 / scale when shrinking with `antialias`, normalized; samples
    whose center is outside [-0.5, in_size - 0.5] get none."""
    dtype = scale.dtype
    inv_scale = 1.0 / scale
    width = tf.maximum(inv_scale, tensor(1.0, dtype)) if antialias else 1.0
    sample = ((tf.range(out_size, dtype=dtype) + 0.5) * inv_scale - translation * inv_scale
              - 0.5)
    distance = tf.abs(sample[None, :] - tf.range(in_size, dtype=dtype)[:, None]) / width
    weights = kernel(distance)
    total = tf.reduce_sum(weights, axis=0, keepdims=True)
    safe_total = tf.where(tf.not_equal(total, 0.0), total, tf.ones_like(total))
    eps = 1000.0 * float(np.finfo(np.float32).eps)
    weights = tf.where(tf.abs(total) > eps, weights / safe_total, tf.zeros_like(weights))
    inside = tf.logical_and(sample >= -0.5, sample <= float(in_size) - 0.5)[None, :]
    return tf.where(inside, weights, tf.zeros_like(weights))


@_export
@keras_op
def scale_and_translate(images, output_shape, scale, translation, spatial_dims, method,
                        antialias=True):
    """`keras.ops.image.scale_and_translate(images, output_shape, scale, translation,
    spatial_dims, method, antialias=True)`: JAX's resampling: each axis of
    `spatial_dims` resized to its `output_shape` entry, the output at
    (input + 0.5) * scale + translation - 0.5, filtered by `method` (linear,
    cubic: Keys a=-0.5, lanczos3/5); integer images are rounded and clipped to
    their own range."""
    if method not in _SCALE_KERNELS:
        raise ValueError("Invalid value for argument `method`. Expected of one "
                         f"{set(_SCALE_KERNELS)}. Received: method={method}")
    images = tensor(images)
    scale, translation = tensor(scale), tensor(translation)
    dtype = result_type(scale.dtype.name, translation.dtype.name)
    scale, translation = cast_to(scale, dtype), cast_to(translation, dtype)
    if len(spatial_dims) == 0:
        return images
    rank = len(images.shape)
    out = to_float(images) if images.dtype.is_integer else images
    for i, axis in enumerate(spatial_dims):
        axis %= rank
        weights = _weight_matrix(images.shape.as_list()[axis], output_shape[axis], scale[i],
                                 translation[i], _SCALE_KERNELS[method], antialias)
        out = tf.tensordot(out, cast_to(weights, out.dtype), [[axis], [0]])
        order = list(range(rank - 1))
        order.insert(axis, rank - 1)
        out = tf.transpose(out, order)
    if images.dtype.is_integer:
        low = cast_to(tf.reduce_min(images), out.dtype)
        high = cast_to(tf.reduce_max(images), out.dtype)
        out = cast_to(tf.clip_by_value(tf.round(out), low, high), images.dtype)
    return out


__all__.sort()
