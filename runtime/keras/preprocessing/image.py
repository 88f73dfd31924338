"""`tf.keras.preprocessing.image`: load, save and convert images (PIL images
where Keras uses them; Pillow is then needed), `smart_resize`, and tf.keras's
Keras 2 augmentation: ImageDataGenerator, its iterators and the apply_* /
random_* transforms of one image (runtime/_src/keras/legacy/preprocessing/)."""

from runtime._src.keras.legacy.preprocessing.image import ImageDataGenerator
from runtime._src.keras.legacy.preprocessing.image_iterators import (DirectoryIterator, Iterator,
                                                                      NumpyArrayIterator)
from runtime._src.keras.legacy.preprocessing.image_transforms import (
    apply_affine_transform, apply_brightness_shift, apply_channel_shift, random_brightness,
    random_channel_shift, random_rotation, random_shear, random_shift, random_zoom)
from runtime._src.keras.utils.image_utils import (array_to_img, img_to_array, load_img,
                                                   save_img, smart_resize)

__all__ = ["array_to_img", "img_to_array", "load_img", "save_img", "smart_resize",
           "DirectoryIterator", "ImageDataGenerator", "Iterator", "NumpyArrayIterator",
           "apply_affine_transform", "apply_brightness_shift", "apply_channel_shift",
           "random_brightness", "random_channel_shift", "random_rotation", "random_shear",
           "random_shift", "random_zoom"]
