"""`keras.utils.bounding_boxes`: Keras 3's box helpers over `keras.ops`.

Boxes are tensors whose last axis holds 4 numbers in one of the formats

    xyxy          [left, top, right, bottom]
    yxyx          [top, left, bottom, right]
    xywh          [left, top, width, height]
    center_xywh   [center_x, center_y, width, height]
    center_yxhw   [center_y, center_x, height, width]
    rel_xyxy, rel_yxyx, rel_xywh, rel_center_xywh   the same over the
                  image's width and height (coordinates in [0, 1])

`convert_format` goes through xyxy; `crop`, `pad`, `affine_transform` and
`clip_to_image_size` take xyxy boxes (Keras raises NotImplementedError for
the others, and so do these); `compute_iou` / `compute_ciou` compare two
sets; `encode_box_to_deltas` / `decode_deltas_to_boxes` are the anchor
regression encoding. Every function runs eagerly and inside `tf.function`.
"""

import math

from runtime._src.keras.ops import core as kcore
from runtime._src.keras.ops import numpy as knp

__all__ = ["affine_transform", "clip_to_image_size", "compute_ciou", "compute_iou",
           "convert_format", "crop", "decode_deltas_to_boxes", "encode_box_to_deltas", "pad"]

SUPPORTED_FORMATS = ("xyxy", "yxyx", "xywh", "center_xywh", "center_yxhw", "rel_xyxy",
                     "rel_yxyx", "rel_xywh", "rel_center_xywh")
_EPSILON = 1e-7


def _columns(boxes):
    return knp.split(boxes, 4, axis=-1)


def _join(*columns):
    return knp.concatenate(list(columns), axis=-1)


def _corners_from(source, boxes, height, width):
    """xyxy corners of `boxes` written in `source` (relative ones scaled)."""
    a, b, c, d = _columns(boxes)
    if source.endswith("yxyx"):
        a, b, c, d = b, a, d, c
    elif source.endswith("center_yxhw"):
        a, b, c, d = b, a, d, c
    if source.endswith("xywh") and "center" not in source:
        c, d = a + c, b + d
    elif "center" in source:
        a, b, c, d = a - c / 2.0, b - d / 2.0, a + c / 2.0, b + d / 2.0
    if source.startswith("rel_"):
        a, b, c, d = a * width, b * height, c * width, d * height
    return a, b, c, d


def _corners_to(target, corners, height, width):
    """Boxes in `target` from xyxy corners."""
    x1, y1, x2, y2 = corners
    if target.startswith("rel_"):
        if target == "rel_center_xywh":
            return _join((x1 + (x2 - x1) / 2.0) / width, (y1 + (y2 - y1) / 2.0) / height,
                         (x2 - x1) / width, (y2 - y1) / height)
        if target == "rel_xywh":
            return _join(x1 / width, y1 / height, (x2 - x1) / width, (y2 - y1) / height)
        x1, y1 = knp.divide(x1, width), knp.divide(y1, height)
        x2, y2 = knp.divide(x2, width), knp.divide(y2, height)
        target = target[4:]
    if target == "xyxy":
        return _join(x1, y1, x2, y2)
    if target == "yxyx":
        return _join(y1, x1, y2, x2)
    if target == "xywh":
        return _join(x1, y1, x2 - x1, y2 - y1)
    cx, cy = x1 + (x2 - x1) / 2.0, y1 + (y2 - y1) / 2.0
    if target == "center_xywh":
        return _join(cx, cy, x2 - x1, y2 - y1)
    return _join(cy, cx, y2 - y1, x2 - x1)


def convert_format(boxes, source, target, height=None, width=None, dtype="float32"):
    """`keras.utils.bounding_boxes.convert_format(boxes, source, target, height=None,
    width=None, dtype="float32")`: boxes (or a dict's "boxes", changed in place)
    from one format to another, cast to `dtype`; relative formats need both
    `height` and `width`."""
    if isinstance(boxes, dict):
        boxes["boxes"] = convert_format(boxes["boxes"], source, target, height, width, dtype)
        return boxes
    boxes = kcore.convert_to_tensor(boxes)
    if boxes.shape[-1] != 4:
        raise ValueError("`boxes` must be a tensor with the last dimension of 4. "
                         f"Received: boxes.shape={tuple(boxes.shape.as_list())}")
    source, target = source.lower(), target.lower()
    if source not in SUPPORTED_FORMATS or target not in SUPPORTED_FORMATS:
        raise ValueError(f"Invalid source or target format. Supported formats: "
                         f"{SUPPORTED_FORMATS}")
    if (source.startswith("rel_") or target.startswith("rel_")) and (
            width is None or height is None):
        raise ValueError("convert_format() must receive `height` and `width` transforming "
                         f"between relative and absolute formats. Received source={source!r}, "
                         f"target={target!r}, height={height}, width={width}.")
    boxes = kcore.cast(boxes, dtype)
    if source == target:
        return boxes
    if width is not None:
        width = kcore.cast(width, dtype)
    if height is not None:
        height = kcore.cast(height, dtype)
    if source.startswith("rel_") and target.startswith("rel_"):
        source, target = source[4:], target[4:]
    return _corners_to(target, _corners_from(source, boxes, height, width), height, width)


def _xyxy_only(bounding_box_format, allowed=("xyxy",)):
    if bounding_box_format not in allowed:
        raise NotImplementedError(
            f"bounding_box_format={bounding_box_format!r} is not supported here: "
            f"use one of {allowed} (as Keras does)")


def clip_to_image_size(bounding_boxes, height=None, width=None, bounding_box_format="xyxy"):
    """`keras.utils.bounding_boxes.clip_to_image_size(bounding_boxes, height, width,
    bounding_box_format="xyxy")`: a copy of the dict with "boxes" clipped to the image
    (to [0, 1] for "rel_xyxy") and the "labels" of boxes left with no area set to -1."""
    _xyxy_only(bounding_box_format, ("xyxy", "rel_xyxy"))
    if bounding_box_format == "xyxy" and (height is None or width is None):
        raise ValueError("`height` and `width` must be set if `format='xyxy'`.")
    boxes = kcore.convert_to_tensor(bounding_boxes["boxes"])
    labels = bounding_boxes.get("labels", None)
    if bounding_box_format == "rel_xyxy":
        height = width = 1.0
    else:
        width, height = kcore.cast(width, boxes.dtype), kcore.cast(height, boxes.dtype)
    x1, y1, x2, y2 = _columns(boxes)
    boxes = _join(knp.clip(x1, 0, width), knp.clip(y1, 0, height),
                  knp.clip(x2, 0, width), knp.clip(y2, 0, height))
    result = dict(bounding_boxes)
    result["boxes"] = boxes
    if labels is not None:
        x1, y1, x2, y2 = _columns(boxes)
        areas = knp.squeeze((x2 - x1) * (y2 - y1), axis=-1)
        result["labels"] = knp.where(areas > 0, labels, -1)
    return result


def crop(boxes, top, left, height, width, bounding_box_format="xyxy"):
    """`keras.utils.bounding_boxes.crop(boxes, top, left, height, width)`: xyxy boxes
    moved by (-left, -top) and clipped to the `width` x `height` crop."""
    _xyxy_only(bounding_box_format)
    x1, y1, x2, y2 = _columns(kcore.convert_to_tensor(boxes))
    return _join(knp.clip(x1 - left, 0, width), knp.clip(y1 - top, 0, height),
                 knp.clip(x2 - left, 0, width), knp.clip(y2 - top, 0, height))


def pad(boxes, top, left, height=None, width=None, bounding_box_format="xyxy"):
    """`keras.utils.bounding_boxes.pad(boxes, top, left)`: xyxy boxes moved by
    (left, top), as padding the image top and left moves them."""
    _xyxy_only(bounding_box_format)
    x1, y1, x2, y2 = _columns(kcore.convert_to_tensor(boxes))
    return _join(x1 + left, y1 + top, x2 + left, y2 + top)


def _inverse_affine(center_x, center_y, angle, translate_x, translate_y, scale, shear_x,
                    shear_y, height, width):
    """Per-image 3x3 matrices mapping output pixels back to input pixels, Keras's
    parametrization (angles in degrees, translations and center as fractions)."""
    rad = math.pi / 180.0
    cx, cy = center_x * (width - 1), center_y * (height - 1)
    rot, sx, sy = -angle * rad, -shear_x * rad, -shear_y * rad
    tx, ty = -translate_x * (width - 1), -translate_y * (height - 1)
    cos_sy, tan_sx = knp.cos(sy), knp.tan(sx)
    a = knp.cos(rot - sy) / cos_sy
    b = a * tan_sx + knp.sin(rot)
    c = -knp.sin(rot - sy) / cos_sy
    d = knp.cos(rot) - c * tan_sx
    a0, a1, b0, b1 = d * scale, -b * scale, -c * scale, a * scale
    a2 = cx - a0 * (cx + tx) - a1 * (cy + ty)
    b2 = cy - b0 * (cx + tx) - b1 * (cy + ty)
    return knp.stack([knp.stack([a0, a1, a2], axis=-1), knp.stack([b0, b1, b2], axis=-1)],
                     axis=-2)


def affine_transform(boxes, angle, translate_x, translate_y, scale, shear_x, shear_y, height,
                     width, center_x=None, center_y=None, bounding_box_format="xyxy"):
    """`keras.utils.bounding_boxes.affine_transform(boxes, angle, translate_x,
    translate_y, scale, shear_x, shear_y, height, width, center_x=None, center_y=None)`:
    a batch of xyxy boxes (batch, N, 4) mapped through each image's affine matrix
    (the one `RandomAffine`-style layers invert; parameters of shape (batch,)), as
    the box around the four mapped corners."""
    _xyxy_only(bounding_box_format)
    angle = kcore.convert_to_tensor(angle)
    params = [kcore.cast(p, angle.dtype) for p in
              (translate_x, translate_y, scale, shear_x, shear_y)]
    matrix = _inverse_affine(0.5 if center_x is None else center_x,
                             0.5 if center_y is None else center_y, angle, *params,
                             height, width)
    boxes = kcore.cast(boxes, matrix.dtype)
    if len(boxes.shape) != 3:
        raise ValueError("affine_transform() expects batched boxes of shape (batch, N, 4). "
                         f"Received: boxes.shape={tuple(boxes.shape.as_list())}")
    x1, y1, x2, y2 = (boxes[..., i] for i in range(4))
    xs = knp.stack([x1, x2, x2, x1], axis=-1)
    ys = knp.stack([y1, y1, y2, y2], axis=-1)
    row = [matrix[:, i][:, None, None, :] for i in range(2)]
    new_x = xs * row[0][..., 0] + ys * row[0][..., 1] + row[0][..., 2]
    new_y = xs * row[1][..., 0] + ys * row[1][..., 1] + row[1][..., 2]
    return knp.stack([knp.min(new_x, axis=-1), knp.min(new_y, axis=-1),
                      knp.max(new_x, axis=-1), knp.max(new_y, axis=-1)], axis=-1)


def _shape_hw(image_shape):
    if image_shape is None:
        return None, None
    height, width, _ = image_shape
    return height, width


def _check_variance(variance):
    if variance is None:
        return None
    variance = kcore.convert_to_tensor(variance, "float32")
    if variance.shape[-1] != 4:
        raise ValueError(f"`variance` must be length 4, got {variance}")
    return variance


def encode_box_to_deltas(anchors, boxes, anchor_format, box_format,
                         encoding_format="center_yxhw", variance=None, image_shape=None):
    """`keras.utils.bounding_boxes.encode_box_to_deltas(anchors, boxes, anchor_format,
    box_format, encoding_format="center_yxhw", variance=None, image_shape=None)`:
    (center offset / anchor size, log(size / anchor size)) in `encoding_format`,
    divided by `variance` when given."""
    variance = _check_variance(variance)
    if encoding_format not in ("center_xywh", "center_yxhw"):
        raise ValueError("`encoding_format` should be one of 'center_xywh' or 'center_yxhw', "
                         f"got {encoding_format}")
    height, width = _shape_hw(image_shape)
    anchors = convert_format(anchors, anchor_format, encoding_format, height, width)
    boxes = convert_format(boxes, box_format, encoding_format, height, width)
    anchor_size = knp.maximum(anchors[..., 2:], _EPSILON)
    box_size = knp.maximum(boxes[..., 2:], _EPSILON)
    deltas = knp.concatenate([(boxes[..., :2] - anchors[..., :2]) / anchor_size,
                              knp.log(box_size / anchor_size)], axis=-1)
    return deltas if variance is None else deltas / variance


def decode_deltas_to_boxes(anchors, boxes_delta, anchor_format, box_format,
                           encoded_format="center_yxhw", variance=None, image_shape=None):
    """`keras.utils.bounding_boxes.decode_deltas_to_boxes(anchors, boxes_delta,
    anchor_format, box_format, encoded_format="center_yxhw", variance=None,
    image_shape=None)`: the inverse of `encode_box_to_deltas`, in `box_format`;
    dicts of anchors and deltas (one per level) decode level by level."""
    variance = _check_variance(variance)
    if encoded_format not in ("center_xywh", "center_yxhw"):
        raise ValueError("`encoded_format` should be 'center_xywh' or 'center_yxhw', "
                         f"but got '{encoded_format}'.")
    height, width = _shape_hw(image_shape)

    def decode(anchor, delta):
        anchor = convert_format(anchor, anchor_format, encoded_format, height, width)
        delta = kcore.convert_to_tensor(delta)
        if variance is not None:
            delta = delta * variance
        box = knp.concatenate([delta[..., :2] * anchor[..., 2:] + anchor[..., :2],
                               knp.exp(delta[..., 2:]) * anchor[..., 2:]], axis=-1)
        return convert_format(box, encoded_format, box_format, height, width)
    if isinstance(anchors, dict) and isinstance(boxes_delta, dict):
        return {level: decode(anchor, boxes_delta[level]) for level, anchor in anchors.items()}
    return decode(anchors, boxes_delta)


def _check_rank(name, rank, rank1, rank2):
    if rank not in (2, 3):
        raise ValueError(f"compute_iou() expects {name} to be batched, or to be unbatched. "
                         f"Received len(boxes1.shape)={rank1}, len(boxes2.shape)={rank2}. "
                         f"Expected either len({name}.shape)=2 AND or len({name}.shape)=3.")


def _relative_shape(bounding_box_format, image_shape):
    if "rel" in bounding_box_format and image_shape is None:
        raise ValueError("When using relative bounding box formats (e.g. `rel_yxyx`) the "
                         "`image_shape` argument must be provided. "
                         f"Received `image_shape`: {image_shape}")
    return _shape_hw(image_shape)


def compute_iou(boxes1, boxes2, bounding_box_format, use_masking=False, mask_val=-1,
                image_shape=None):
    """`keras.utils.bounding_boxes.compute_iou(boxes1, boxes2, bounding_box_format,
    use_masking=False, mask_val=-1, image_shape=None)`: the (M, N) table of
    intersection over union (+1e-7 in the denominator), batched when either set
    is; with `use_masking`, pairs with a box whose coordinates are all negative
    get `mask_val`."""
    rank1, rank2 = len(kcore.shape(boxes1)), len(kcore.shape(boxes2))
    _check_rank("boxes1", rank1, rank1, rank2)
    _check_rank("boxes2", rank2, rank1, rank2)
    height, width = _relative_shape(bounding_box_format, image_shape)
    boxes1 = convert_format(boxes1, bounding_box_format, "yxyx", height, width)
    boxes2 = convert_format(boxes2, bounding_box_format, "yxyx", height, width)
    perm = [1, 0] if rank2 == 2 else [0, 2, 1]
    top1, left1, bottom1, right1 = _columns(boxes1)
    top2, left2, bottom2, right2 = (knp.transpose(c, perm) for c in _columns(boxes2))
    inter_h = knp.maximum(knp.minimum(bottom1, bottom2) - knp.maximum(top1, top2), 0.0)
    inter_w = knp.maximum(knp.minimum(right1, right2) - knp.maximum(left1, left2), 0.0)
    intersection = inter_h * inter_w
    area1 = (bottom1 - top1) * (right1 - left1)
    area2 = (bottom2 - top2) * (right2 - left2)
    iou = knp.divide(intersection, area1 + area2 - intersection + _EPSILON)
    if not use_masking:
        return iou
    mask1 = knp.less(knp.max(boxes1, axis=-1, keepdims=True), 0.0)
    mask2 = knp.less(knp.max(boxes2, axis=-1, keepdims=True), 0.0)
    perm = [1, 0] if rank1 == 2 else [0, 2, 1]
    background = knp.logical_or(mask1, knp.transpose(mask2, perm))
    return knp.where(background, kcore.cast(mask_val, iou.dtype) * knp.ones_like(iou), iou)


def compute_ciou(boxes1, boxes2, bounding_box_format, image_shape=None):
    """`keras.utils.bounding_boxes.compute_ciou(boxes1, boxes2, bounding_box_format,
    image_shape=None)`: complete IoU of matching boxes (shapes broadcast, last axis
    4): IoU minus the squared center distance over the enclosing box's squared
    diagonal, minus Keras's aspect-ratio term."""
    if "rel" in bounding_box_format and image_shape is None:
        raise ValueError("When using relative bounding box formats (e.g. `rel_yxyx`) the "
                         "`image_shape` argument must be provided.")
    height, width = _shape_hw(image_shape)
    x1a, y1a, x2a, y2a = _columns(convert_format(boxes1, bounding_box_format, "xyxy",
                                                 height, width)[..., :4])
    x1b, y1b, x2b, y2b = _columns(convert_format(boxes2, bounding_box_format, "xyxy",
                                                 height, width)[..., :4])
    w1, h1 = x2a - x1a, y2a - y1a + _EPSILON
    w2, h2 = x2b - x1b, y2b - y1b + _EPSILON
    inter = (knp.maximum(knp.minimum(x2a, x2b) - knp.maximum(x1a, x1b), 0)
             * knp.maximum(knp.minimum(y2a, y2b) - knp.maximum(y1a, y1b), 0))
    union = w1 * h1 + w2 * h2 - inter + _EPSILON
    iou = knp.squeeze(knp.divide(inter, union + _EPSILON), axis=-1)
    hull_w = knp.maximum(x2a, x2b) - knp.minimum(x1a, x1b)
    hull_h = knp.maximum(y2a, y2b) - knp.minimum(y1a, y1b)
    diagonal = knp.squeeze(hull_w ** 2 + hull_h ** 2 + _EPSILON, axis=-1)
    centers = knp.squeeze(((x1a + x2a) / 2 - (x1b + x2b) / 2) ** 2
                          + ((y1a + y2a) / 2 - (y1b + y2b) / 2) ** 2, axis=-1)
    v = knp.squeeze((4 / math.pi ** 2) * knp.power(knp.arctan(w2 / h2) - knp.arctan(w1 / h1), 2),
                    axis=-1)
    alpha = v / (v - iou + (1 + _EPSILON))
    return iou - (centers / diagonal + v * alpha)
