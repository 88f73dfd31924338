"""`tf.image`: resizing by every TF method (runtime/_src/ops/image_resize.py);
flips, rotation, crops and pads (image_ops.py); dtype conversion and colour
(image_color.py).

    tf.image.resize(images, [64, 64])              # bilinear, float32
    tf.image.resize(images, [64, 64], "nearest")   # keeps the dtype
"""

from runtime._src.ops.image_resize import ResizeMethod, resize

from runtime._src.ops.image_ops import (crop_to_bounding_box, flip_left_right, flip_up_down,
                                        pad_to_bounding_box, per_image_standardization,
                                        resize_with_crop_or_pad, resize_with_pad, rot90,
                                        transpose)

from runtime._src.ops.image_color import (adjust_brightness, adjust_contrast,
                                          central_crop, convert_image_dtype,
                                          grayscale_to_rgb, rgb_to_grayscale)

from runtime._src.ops.image_hsv import (adjust_gamma, adjust_hue, adjust_saturation,
                                        hsv_to_rgb, rgb_to_hsv, rgb_to_yiq, rgb_to_yuv,
                                        yiq_to_rgb, yuv_to_rgb)

from runtime._src.ops.image_nms import (combined_non_max_suppression, non_max_suppression,
                                        non_max_suppression_overlaps,
                                        non_max_suppression_padded,
                                        non_max_suppression_with_scores)

from runtime._src.ops.image_crops import (crop_and_resize, draw_bounding_boxes,
                                          extract_glimpse, extract_patches)

from runtime._src.ops.image_metrics import (image_gradients, psnr, sobel_edges, ssim,
                                            ssim_multiscale, total_variation)

from runtime._src.ops.image_random import (
    random_brightness, random_contrast, random_crop, random_flip_left_right,
    random_flip_up_down, random_hue, random_saturation, sample_distorted_bounding_box,
    stateless_random_brightness, stateless_random_contrast, stateless_random_crop,
    stateless_random_flip_left_right, stateless_random_flip_up_down, stateless_random_hue,
    stateless_random_saturation, stateless_sample_distorted_bounding_box)

from runtime._src.ops.image_codecs import (decode_bmp, decode_image, decode_png, encode_png,
                                           is_jpeg)
from runtime._src.ops.image_gif import decode_gif
from runtime._src.ops.image_jpeg import (adjust_jpeg_quality, decode_and_crop_jpeg, decode_jpeg,
                                        encode_jpeg, extract_jpeg_shape, random_jpeg_quality,
                                        stateless_random_jpeg_quality)

__all__ = ["decode_gif", "adjust_jpeg_quality", "decode_and_crop_jpeg", "decode_jpeg", "encode_jpeg", "extract_jpeg_shape", "random_jpeg_quality", "stateless_random_jpeg_quality",
           "decode_bmp", "decode_image", "decode_png", "encode_png", "is_jpeg",
           "random_brightness", "random_contrast", "random_crop", "random_flip_left_right",
           "random_flip_up_down", "random_hue", "random_saturation",
           "sample_distorted_bounding_box", "stateless_random_brightness",
           "stateless_random_contrast", "stateless_random_crop",
           "stateless_random_flip_left_right", "stateless_random_flip_up_down",
           "stateless_random_hue", "stateless_random_saturation",
           "stateless_sample_distorted_bounding_box",
           "image_gradients", "psnr", "sobel_edges", "ssim", "ssim_multiscale",
           "total_variation",
           "crop_and_resize", "draw_bounding_boxes", "extract_glimpse", "extract_patches",
           "combined_non_max_suppression", "non_max_suppression",
           "non_max_suppression_overlaps", "non_max_suppression_padded",
           "non_max_suppression_with_scores",
           "adjust_gamma", "adjust_hue", "adjust_saturation", "hsv_to_rgb", "rgb_to_hsv",
           "rgb_to_yiq", "rgb_to_yuv", "yiq_to_rgb", "yuv_to_rgb",
           "adjust_brightness", "adjust_contrast", "central_crop", "convert_image_dtype",
           "grayscale_to_rgb", "rgb_to_grayscale", "resize", "ResizeMethod", "flip_left_right",
           "flip_up_down", "rot90", "per_image_standardization", "transpose",
           "crop_to_bounding_box", "pad_to_bounding_box", "resize_with_crop_or_pad",
           "resize_with_pad"]
