"""`keras.visualization.draw_segmentation_masks`: class masks painted over images.

    out = draw_segmentation_masks(images, masks, num_classes=3, alpha=0.5)

`images` [batch, height, width, channels] and integer `masks` [batch,
height, width, 1] (channels first with data_format="channels_first"). Each
pixel of class k takes the k-th color (Keras's palette, or `color_mapping`),
blended as images * (1 - alpha) + color * alpha and returned as a uint8 numpy
array; pixels of `ignore_index` keep the image. Without `num_classes` it is
the largest class in `masks`, whose pixels are then left unpainted, as Keras
counts it. With blend=False the painted float32 images come back unblended.
"""

import numpy as np

from runtime._src.core.tensor import convert_to_tensor
from runtime._src.keras.backend import config as backend_config

__all__ = ["draw_segmentation_masks"]


def _palette(num_classes):
    """Keras's colors: class i is (i * (2**25 - 1, 2**15 - 1, 2**21 - 1)) % 255."""
    palette = np.array([2 ** 25 - 1, 2 ** 15 - 1, 2 ** 21 - 1])
    return [((i * palette) % 255).tolist() for i in range(num_classes)]


def draw_segmentation_masks(images, segmentation_masks, num_classes=None, color_mapping=None,
                            alpha=0.8, blend=True, ignore_index=-1, data_format=None):
    """Paint each class of `segmentation_masks` over `images` in its color."""
    data_format = data_format or backend_config.image_data_format()
    images = np.asarray(images)
    if images.ndim != 4:
        raise ValueError(f"`images` must be batched 4D tensor. Received: "
                         f"images.shape={tuple(images.shape)}")
    masks = np.asarray(segmentation_masks)
    if data_format == "channels_first":
        images, masks = images.transpose(0, 2, 3, 1), masks.transpose(0, 2, 3, 1)
    images = images.astype("float32")
    if masks.dtype.kind not in "iu":
        raise TypeError("`segmentation_masks` must be in integer dtype. Received: "
                        f"segmentation_masks.dtype={masks.dtype.name}")
    if num_classes is None:
        num_classes = int(masks.max())
    colors = _palette(num_classes) if color_mapping is None else [
        color_mapping[i] for i in range(num_classes)]
    valid = masks[..., 0] != ignore_index
    painted = images.copy()
    for k, color in enumerate(colors):
        painted[masks[..., 0] == k] = np.asarray(color, "float32")[None, :]
    if not blend:
        return convert_to_tensor(painted)
    out = images * (1 - alpha) + painted * alpha
    out = np.where(valid[..., None], out, images)
    return out.astype("uint8")
