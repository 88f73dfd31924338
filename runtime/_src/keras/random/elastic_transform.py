"""`keras.ops.image.elastic_transform`: images warped by a smooth random
displacement field, as Keras 3.15 computes it on TensorFlow.

It lives with `keras.random` (above the ops it uses) because it draws its
field from Keras's seeds: an int seed, a `SeedGenerator`, or None (the global
generator). The field is one standard normal draw of the batch's (height,
width), scaled by `sigma`, Gaussian-blurred with a (6*int(sigma) | 1)-wide
kernel, and scaled by `alpha`; Keras uses the same draw for both axes, and so
does this. Each channel is then resampled at the displaced positions
(`map_coordinates`, nearest or bilinear, with the fill mode at the edges).
"""

from runtime._src.keras.backend import config as backend_config
from runtime._src.keras.ops import image as image_ops
from runtime._src.keras.backend.keras_tensor import KerasTensor, any_symbolic
from runtime._src.keras.ops.keras_operation import Operation
from runtime._src.keras.random.random import draw_seed
from runtime._src.ops import array_ops, math_ops, meshgrid_ops, stateless_random_ops as stateless
from runtime._src.core.tensor import convert_to_tensor

__all__ = ["elastic_transform"]

_INTERPOLATIONS = ("nearest", "bilinear")
_FILL_MODES = ("constant", "nearest", "wrap", "reflect")


class ElasticTransform(Operation):
    """The op on KerasTensors: its output has the images' shape and dtype."""

    def __init__(self, **options):
        super().__init__()
        self.options = options

    def call(self, images):
        return _transform(images, **self.options)

    def compute_output_spec(self, images):
        _check_rank(images)
        return KerasTensor(images.shape, dtype=images.dtype)


def elastic_transform(images, alpha=20.0, sigma=5.0, interpolation="bilinear",
                      fill_mode="reflect", fill_value=0.0, seed=None, data_format=None):
    """`keras.ops.image.elastic_transform(images, alpha=20.0, sigma=5.0,
    interpolation="bilinear", fill_mode="reflect", fill_value=0.0, seed=None,
    data_format=None)`."""
    options = dict(alpha=alpha, sigma=sigma, interpolation=interpolation,
                   fill_mode=fill_mode, fill_value=fill_value, seed=seed,
                   data_format=data_format)
    if any_symbolic((images,), {}):
        return ElasticTransform(**options)(images)
    return _transform(images, **options)


def _check_rank(images):
    if len(images.shape) not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 "
                         "(batch of images). Received input with shape: "
                         f"images.shape={images.shape}")


def _transform(images, alpha, sigma, interpolation, fill_mode, fill_value, seed,
               data_format):
    data_format = data_format or backend_config.image_data_format()
    if interpolation not in _INTERPOLATIONS:
        raise ValueError("Invalid value for argument `interpolation`. Expected of one "
                         f"{_INTERPOLATIONS}. Received: interpolation={interpolation}")
    if fill_mode not in _FILL_MODES:
        raise ValueError("Invalid value for argument `fill_mode`. Expected of one "
                         f"{_FILL_MODES}. Received: fill_mode={fill_mode}")
    _check_rank(images)
    images = convert_to_tensor(images)
    dtype = images.dtype
    single = len(images.shape) == 3
    if single:
        images = array_ops.expand_dims(images, 0)
    channels_last = data_format == "channels_last"
    batch, height, width, channels = shape_dims(images, channels_last)
    dx = _field((batch, height, width), dtype, float(sigma), draw_seed(seed), channels_last)
    x, y = meshgrid_ops.meshgrid(array_ops.range(width, dtype=dtype),
                                 array_ops.range(height, dtype=dtype), indexing="xy")
    alpha = convert_to_tensor(alpha, dtype)
    xs = array_ops.expand_dims(x, 0) + alpha * dx
    ys = array_ops.expand_dims(y, 0) + alpha * dx       # Keras's dy is the same draw
    order = _INTERPOLATIONS.index(interpolation)
    planes = []
    for c in range(channels):
        plane = [image_ops.map_coordinates(
            images[b, ..., c] if channels_last else images[b, c, ...], [ys[b], xs[b]],
            order=order, fill_mode=fill_mode, fill_value=fill_value) for b in range(batch)]
        planes.append(array_ops.stack(plane, axis=0))
    out = array_ops.stack(planes, axis=-1 if channels_last else 1)
    if single:
        out = array_ops.squeeze(out, axis=0)
    return math_ops.cast(out, dtype)


def shape_dims(images, channels_last):
    """(batch, height, width, channels) of a batch (an unknown batch reads as 1)."""
    dims = images.shape.as_list()
    batch, height, width, channels = dims if channels_last else \
        (dims[0], dims[2], dims[3], dims[1])
    return batch or 1, height, width, channels


def _field(shape, dtype, sigma, seed, channels_last):
    """The blurred displacement field (before `alpha`), of `shape`."""
    sigma_t = convert_to_tensor(sigma, dtype)
    draw = stateless.stateless_normal(shape, seed, 0.0, 1.0, dtype) * sigma_t
    size = 6 * int(sigma) | 1
    axis = -1 if channels_last else 1
    blurred = image_ops.gaussian_blur(array_ops.expand_dims(draw, axis), kernel_size=(size, size),
                                      sigma=(sigma, sigma),
                                      data_format="channels_last" if channels_last
                                      else "channels_first")
    return array_ops.squeeze(blurred, axis=axis)
