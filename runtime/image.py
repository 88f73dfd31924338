"""`tf.image`: resizing, flips, rotation and standardization of images
(defined in runtime/_src/ops/image_ops.py); dtype conversion, brightness,
contrast, grayscale and central crops (runtime/_src/ops/image_color.py).

    tf.image.resize(images, [64, 64])              # bilinear, float32
    tf.image.resize(images, [64, 64], "nearest")   # keeps the dtype
"""

from runtime._src.ops.image_ops import (ResizeMethod, flip_left_right,
                                        flip_up_down, per_image_standardization, resize,
                                        rot90)

from runtime._src.ops.image_color import (adjust_brightness, adjust_contrast,
                                          central_crop, convert_image_dtype,
                                          grayscale_to_rgb, rgb_to_grayscale)

__all__ = ["adjust_brightness", "adjust_contrast", "central_crop", "convert_image_dtype",
           "grayscale_to_rgb", "rgb_to_grayscale", "resize", "ResizeMethod", "flip_left_right", "flip_up_down", "rot90",
           "per_image_standardization"]
