"""`tf.image`: resizing, flips, rotation and standardization of images
(defined in runtime/_src/ops/image_ops.py).

    tf.image.resize(images, [64, 64])              # bilinear, float32
    tf.image.resize(images, [64, 64], "nearest")   # keeps the dtype
"""

from runtime._src.ops.image_ops import (ResizeMethod, flip_left_right,
                                        flip_up_down, per_image_standardization, resize,
                                        rot90)

__all__ = ["resize", "ResizeMethod", "flip_left_right", "flip_up_down", "rot90",
           "per_image_standardization"]
