"""`tf.image`'s random augmentations, stateful (`random_*`, drawing from the
global/op seeds like `tf.random.uniform`) and stateless (`stateless_random_*`,
a function of `seed`, an int32/int64 [2] vector), and
`(stateless_)sample_distorted_bounding_box`.

Each draws what TF draws (a flip coin per image, one brightness delta, one
contrast factor, ...) and applies the deterministic op (`flip_left_right`,
`adjust_brightness`, ...), with TF's argument checks. The random numbers
are the runtime's (numpy's), not TF's Philox stream, so the same seed gives
other values than TF (docs/tf_differences.md).

    stateless_random_brightness(image, 0.2, seed=[1, 2])   # the same every call
"""

import numpy as np

from runtime._src.core import determinism, dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops import random_ops, stateless_random_ops
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import reshape, shape as shape_of
from runtime._src.ops.image_color import adjust_brightness, adjust_contrast
from runtime._src.ops.image_hsv import adjust_hue, adjust_saturation
from runtime._src.ops.image_ops import flip_left_right, flip_up_down
from runtime._src.ops.math_ops import floormod, less, where
from runtime._src.ops.shape_ops import slice as slice_

__all__ = ["random_flip_left_right", "random_flip_up_down", "random_brightness",
           "random_contrast", "random_hue", "random_saturation", "random_crop",
           "stateless_random_flip_left_right", "stateless_random_flip_up_down",
           "stateless_random_brightness", "stateless_random_contrast", "stateless_random_hue",
           "stateless_random_saturation", "stateless_random_crop",
           "sample_distorted_bounding_box", "stateless_sample_distorted_bounding_box"]


def _stateful(seed):
    def draw(shape, minval=0, maxval=None, dtype=dtypes.float32):
        return random_ops.uniform(shape, minval, maxval, dtype, seed=seed)
    return draw


def _stateless(seed):
    def draw(shape, minval=0, maxval=None, dtype=dtypes.float32):
        return stateless_random_ops.stateless_uniform(shape, seed, minval, maxval, dtype)
    return draw


def _flip(image, flip, draw):
    image = convert_to_tensor(image)
    if image.shape.rank == 3:
        coin = less(draw([]), 0.5)
    elif image.shape.rank == 4:
        coin = reshape(less(draw(shape_of(image)[:1]), 0.5), [-1, 1, 1, 1])
    else:
        raise ValueError(f"'image' (shape {image.shape}) must have either 3 or 4 dimensions.")
    return where(coin, flip(image), image)


def random_flip_left_right(image, seed=None):
    """Each image flipped left-right with probability 1/2."""
    return _flip(image, flip_left_right, _stateful(seed))


def random_flip_up_down(image, seed=None):
    """Each image flipped upside down with probability 1/2."""
    return _flip(image, flip_up_down, _stateful(seed))


def stateless_random_flip_left_right(image, seed):
    """`random_flip_left_right` determined by `seed`."""
    return _flip(image, flip_left_right, _stateless(seed))


def stateless_random_flip_up_down(image, seed):
    """`random_flip_up_down` determined by `seed`."""
    return _flip(image, flip_up_down, _stateless(seed))


def _delta(max_delta, draw, limit=None):
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    if limit is not None and max_delta > limit:
        raise ValueError(f"max_delta must be <= {limit}.")
    return draw([], -max_delta, max_delta)


def _factor(lower, upper, draw):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    return draw([], lower, upper)


def random_brightness(image, max_delta, seed=None):
    """`adjust_brightness` by a delta uniform in [-max_delta, max_delta)."""
    return adjust_brightness(image, _delta(max_delta, _stateful(seed)))


def stateless_random_brightness(image, max_delta, seed):
    """`random_brightness` determined by `seed`."""
    return adjust_brightness(image, _delta(max_delta, _stateless(seed)))


def random_contrast(image, lower, upper, seed=None):
    """`adjust_contrast` by a factor uniform in [lower, upper)."""
    return adjust_contrast(image, _factor(lower, upper, _stateful(seed)))


def stateless_random_contrast(image, lower, upper, seed):
    """`random_contrast` determined by `seed`."""
    return adjust_contrast(image, _factor(lower, upper, _stateless(seed)))


def random_hue(image, max_delta, seed=None):
    """`adjust_hue` by a delta uniform in [-max_delta, max_delta), max_delta <= 0.5."""
    return adjust_hue(image, _delta(max_delta, _stateful(seed), 0.5))


def stateless_random_hue(image, max_delta, seed):
    """`random_hue` determined by `seed`."""
    return adjust_hue(image, _delta(max_delta, _stateless(seed), 0.5))


def random_saturation(image, lower, upper, seed=None):
    """`adjust_saturation` by a factor uniform in [lower, upper)."""
    return adjust_saturation(image, _factor(lower, upper, _stateful(seed)))


def stateless_random_saturation(image, lower, upper, seed=None):
    """`random_saturation` determined by `seed`."""
    return adjust_saturation(image, _factor(lower, upper, _stateless(seed)))


def _crop(value, size, draw):
    value = convert_to_tensor(value)
    size = convert_to_tensor(size, dtypes.int32)
    dims, want = value.shape.dims, size.shape.dims
    if dims is not None and want is not None and list(want) != [len(dims)]:
        raise ValueError(f"random_crop: size must have one entry per dimension of value "
                         f"({len(dims)}), got shape {size.shape}")
    known = rules.constant_value(size)
    if known is not None and dims is not None:
        for d, s in zip(dims, np.asarray(known).tolist()):
            if d is not None and d < s:
                raise ValueError(f"Need value.shape >= size, got shape {value.shape} and size "
                                 f"{list(np.asarray(known))}")
    full = shape_of(value)
    limit = full - size + 1
    offset = floormod(draw(shape_of(full), 0, np.iinfo(np.int32).max, dtypes.int32), limit)
    return slice_(value, offset, size)


def random_crop(value, size, seed=None, name=None):
    """A random `size` window of `value` (every dimension cropped)."""
    return _crop(value, size, _stateful(seed))


def stateless_random_crop(value, size, seed, name=None):
    """`random_crop` determined by `seed`."""
    return _crop(value, size, _stateless(seed))


# --- sample_distorted_bounding_box --------------------------------------------------------

def _random_crop_rect(rng, width, height, area_range, aspect):
    """TF's GenerateRandomCrop: (x, y, w, h) of area in `area_range` (fractions
    of the image) and aspect ratio about `aspect`, or None."""
    min_area = area_range[0] * width * height
    max_area = area_range[1] * width * height
    h = int(np.rint(np.sqrt(min_area / aspect)))
    max_h = int(np.rint(np.sqrt(max_area / aspect)))
    if np.rint(max_h * aspect) > width:
        max_h = int((width + 0.5 - 1e-7) / aspect)
        if np.rint(max_h * aspect) > width:
            max_h -= 1
    max_h = min(max_h, height)
    h = min(h, max_h)
    if h < max_h:
        h += int(rng.integers(max_h - h + 1))
    w = int(np.rint(h * aspect))
    if w * h < min_area:
        h += 1
        w = int(np.rint(h * aspect))
    if w * h > max_area:
        h -= 1
        w = int(np.rint(h * aspect))
    area = w * h
    if area < min_area or area > max_area or w > width or h > height or w <= 0 or h <= 0:
        return None
    y = int(rng.integers(height - h)) if h < height else 0
    x = int(rng.integers(width - w)) if w < width else 0
    return x, y, w, h


def _covers(rect, boxes, fraction):
    if not boxes:
        return True
    x, y, w, h = rect
    for bx0, by0, bx1, by1 in boxes:
        inter = (max(0, min(x + w, bx1) - max(x, bx0)) * max(0, min(y + h, by1) - max(y, by0)))
        area = (bx1 - bx0) * (by1 - by0)
        if area > 0 and inter / area >= fraction:
            return True
    return False


def _pixel_boxes(boxes, height, width, use_image):
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    out = []
    for y0, x0, y1, x1 in boxes:
        if not (0 <= y0 <= y1 <= 1 and 0 <= x0 <= x1 <= 1):
            raise InvalidArgumentError(f"All bounding box coordinates must be in [0.0, 1.0] "
                                       f"and min <= max, got {[y0, x0, y1, x1]}",
                                       "SampleDistortedBoundingBoxV2")
        out.append((int(x0 * width), int(y0 * height), int(x1 * width), int(y1 * height)))
    if not out and not use_image:
        raise InvalidArgumentError("No bounding boxes provided as input. One must enable "
                                   "use_image_if_no_bounding_boxes if you wish to not provide "
                                   "any bounding boxes.", "SampleDistortedBoundingBoxV2")
    return out or [(0, 0, width, height)]


def _sample_box(rng, image_size, boxes, min_covered, aspect_range, area_range, attempts,
                use_image):
    height, width = int(image_size[0]), int(image_size[1])
    if height <= 0 or width <= 0:
        raise InvalidArgumentError(f"image height and width must be positive, got "
                                   f"{list(image_size)}", "SampleDistortedBoundingBoxV2")
    pixel_boxes = _pixel_boxes(boxes, height, width, use_image)
    rect = None
    for _ in range(attempts):
        aspect = rng.uniform(aspect_range[0], aspect_range[1])
        found = _random_crop_rect(rng, width, height, area_range, aspect)
        if found is not None and _covers(found, pixel_boxes, float(min_covered)):
            rect = found
            break
    x, y, w, h = rect if rect is not None else (0, 0, width, height)
    dtype = np.asarray(image_size).dtype
    bbox = np.array([[[y / height, x / width, (y + h) / height, (x + w) / width]]], np.float32)
    return np.array([y, x, 0], dtype), np.array([h, w, -1], dtype), bbox


def _infer_sample(inputs, attrs):
    dtype = inputs[0].dtype
    return [(dtype, TensorShape([3])), (dtype, TensorShape([3])),
            (dtypes.float32, TensorShape([1, 1, 4]))]


@define_op("SampleDistortedBoundingBoxV2", infer=_infer_sample, num_outputs=3, stateful=True,
           side_effect=True)
def _sample_stateful(image_size, boxes, min_covered, *, aspect_ratio_range, area_range,
                     max_attempts, use_image, seeds, stream):
    rng = random_ops._generator("SampleDistortedBoundingBoxV2", dtypes.float32, seeds, stream)
    return _sample_box(rng, image_size, boxes, min_covered, aspect_ratio_range, area_range,
                       max_attempts, use_image)


@define_op("StatelessSampleDistortedBoundingBox", infer=_infer_sample, num_outputs=3)
def _sample_stateless(image_size, boxes, min_covered, seed, *, aspect_ratio_range,
                      area_range, max_attempts, use_image):
    rng = stateless_random_ops._rng(seed, "StatelessSampleDistortedBoundingBox")
    return _sample_box(rng, image_size, boxes, min_covered, aspect_ratio_range, area_range,
                       max_attempts, use_image)


not_differentiable("SampleDistortedBoundingBoxV2", "StatelessSampleDistortedBoundingBox")


def _sample_args(image_size, bounding_boxes, min_object_covered, aspect_ratio_range,
                 area_range, max_attempts, use_image_if_no_bounding_boxes):
    image_size = convert_to_tensor(image_size)
    if image_size.dtype not in (dtypes.uint8, dtypes.int8, dtypes.int16, dtypes.int32,
                                dtypes.int64):
        raise TypeError(f"image_size must be an integer tensor, got {image_size.dtype.name}")
    aspect = [float(v) for v in (aspect_ratio_range or (0.75, 1.33))]
    area = [float(v) for v in (area_range or (0.05, 1.0))]
    if len(aspect) != 2 or not 0 < aspect[0] <= aspect[1]:
        raise ValueError(f"aspect_ratio_range must be 2 positive values, min <= max, got "
                         f"{aspect}")
    if len(area) != 2 or not 0 < area[0] <= area[1] <= 1:
        raise ValueError(f"area_range must be 2 values in (0, 1], min <= max, got {area}")
    attempts = 100 if max_attempts is None else int(max_attempts)
    if attempts <= 0:
        raise ValueError(f"max_attempts must be positive, got {attempts}")
    inputs = [image_size, convert_to_tensor(bounding_boxes, dtypes.float32),
              convert_to_tensor(min_object_covered, dtypes.float32)]
    attrs = {"aspect_ratio_range": tuple(aspect), "area_range": tuple(area),
             "max_attempts": attempts, "use_image": bool(use_image_if_no_bounding_boxes)}
    return inputs, attrs


def sample_distorted_bounding_box(image_size, bounding_boxes, seed=0, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """(begin, size, bboxes): a random crop of an image of `image_size`
    [h, w, c] covering at least `min_object_covered` of one of the boxes
    ([batch, N, 4] normalised), for `tf.slice(image, begin, size)`."""
    inputs, attrs = _sample_args(image_size, bounding_boxes, min_object_covered,
                                 aspect_ratio_range, area_range, max_attempts,
                                 use_image_if_no_bounding_boxes)
    if not seed and determinism.enabled():
        raise ValueError(f"tf.image.sample_distorted_bounding_box requires a non-zero seed to "
                         f"be passed in when determinism is enabled, but got seed={seed}. "
                         f'Please pass in a non-zero seed, e.g. by passing "seed=1".')
    attrs.update(random_ops._seed_attrs(seed or None, "sample_distorted_bounding_box"))
    return tuple(apply("SampleDistortedBoundingBoxV2", inputs, attrs))


def stateless_sample_distorted_bounding_box(image_size, bounding_boxes, seed,
                                            min_object_covered=0.1, aspect_ratio_range=None,
                                            area_range=None, max_attempts=None,
                                            use_image_if_no_bounding_boxes=None, name=None):
    """`sample_distorted_bounding_box` determined by `seed`."""
    inputs, attrs = _sample_args(image_size, bounding_boxes, min_object_covered,
                                 aspect_ratio_range, area_range, max_attempts,
                                 use_image_if_no_bounding_boxes)
    seed = stateless_random_ops._seed_tensor(seed)
    stateless_random_ops._check_seed(seed)
    return tuple(apply("StatelessSampleDistortedBoundingBox", inputs + [seed], attrs))
