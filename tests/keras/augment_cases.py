"""Image augmentation cases with a deterministic result (the factor ranges of one
value, or probability 1), shared by tests/keras/layers/test_image_augmentation.py and
tools/record_keras_augmentation.py (Keras 3.15's outputs)."""

import numpy as np

IMAGES = (np.cos(0.21 * np.arange(2 * 5 * 6 * 3)) * 100 + 120).reshape(2, 5, 6, 3).astype(
    "float32")

# name -> function of the layers module giving the layer (called with training=True)
CASES = {
    "rotation_45": lambda L: L.RandomRotation((0.125, 0.125)),
    "rotation_constant_nearest": lambda L: L.RandomRotation(
        (-0.3, -0.3), fill_mode="constant", fill_value=7.0, interpolation="nearest"),
    "rotation_channels_first": lambda L: L.RandomRotation((0.2, 0.2), fill_mode="wrap",
                                                          data_format="channels_first"),
    "zoom_in": lambda L: L.RandomZoom((-0.3, -0.3)),
    "zoom_out_wrap": lambda L: L.RandomZoom((0.2, 0.2), (-0.1, -0.1), fill_mode="wrap"),
    "translation_nearest": lambda L: L.RandomTranslation((0.2, 0.2), (-0.3, -0.3),
                                                         fill_mode="nearest"),
    "translation_constant": lambda L: L.RandomTranslation((-0.4, -0.4), (0.5, 0.5),
                                                          fill_mode="constant"),
    "brightness": lambda L: L.RandomBrightness((0.1, 0.1)),
    "brightness_range": lambda L: L.RandomBrightness((-0.3, -0.3), value_range=(0, 100)),
    "grayscale": lambda L: L.RandomGrayscale(1.0),
    "invert": lambda L: L.RandomInvert((1.0, 1.0)),
    "solarization": lambda L: L.Solarization(),
    "auto_contrast": lambda L: L.AutoContrast(),
    "auto_contrast_range": lambda L: L.AutoContrast(value_range=(0, 300)),
    "posterization": lambda L: L.RandomPosterization((3, 3)),
    "saturation": lambda L: L.RandomSaturation((0.3, 0.3)),
    "saturation_unit_range": lambda L: L.RandomSaturation((0.7, 0.7), value_range=(0, 1)),
    "color_degeneration": lambda L: L.RandomColorDegeneration((0.6, 0.6)),
    "sharpness": lambda L: L.RandomSharpness((0.8, 0.8)),
    "blur_by_sharpness": lambda L: L.RandomSharpness((0.1, 0.1), value_range=(0, 200)),
    "gaussian_blur": lambda L: L.RandomGaussianBlur((1.0, 1.0), sigma=(0.6, 0.6)),
    "gaussian_blur_wide": lambda L: L.RandomGaussianBlur((1.0, 1.0), kernel_size=5,
                                                         sigma=(0.9, 0.9)),
    "equalization": lambda L: L.Equalization(),
    "equalization_range_bins": lambda L: L.Equalization(value_range=(0, 300), bins=32),
    "color_jitter": lambda L: L.RandomColorJitter(brightness_factor=(0.1, 0.1),
                                                  saturation_factor=(0.2, 0.2)),
    "crop_upscale": lambda L: L.RandomCrop(8, 9),
    "crop_same_size": lambda L: L.RandomCrop(5, 6),
}


def run(keras, name, images=IMAGES):
    layer = CASES[name](keras.layers)
    x = np.transpose(images, (0, 3, 1, 2)) if "channels_first" in name else images
    return np.asarray(layer(x, training=True), np.float64)


# fixed corner moves for keras.ops.image.perspective_transform (RandomPerspective's warp)
PERSPECTIVE_START = np.array([[[0, 0], [5, 0], [0, 4], [5, 4]]] * 2, "float32")
PERSPECTIVE_END = PERSPECTIVE_START + np.array(
    [[[0.5, 0.3], [-0.8, 0.2], [0.1, -0.6], [-0.4, -0.9]],
     [[-0.2, 0.0], [0.7, 0.4], [0.0, 0.5], [0.3, -0.2]]], "float32")
