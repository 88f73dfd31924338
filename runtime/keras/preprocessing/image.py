"""`tf.keras.preprocessing.image`: load, save and convert images (PIL images
where Keras uses them; Pillow is then needed), and `smart_resize`."""

from runtime._src.keras.utils.image_utils import (array_to_img, img_to_array, load_img,
                                                   save_img, smart_resize)

__all__ = ["array_to_img", "img_to_array", "load_img", "save_img", "smart_resize"]
