"""`keras.utils.image_dataset_from_directory` (also in `keras.preprocessing`):
the images under a folder as a `tf.data.Dataset` of (image, label) batches.

    main/
      cats/ a.jpg b.png ...       -> label 0
      dogs/ c.jpg ...             -> label 1
    ds = image_dataset_from_directory("main", image_size=(180, 180), batch_size=32)
    ds.class_names                                # ["cats", "dogs"]
    ds.file_paths                                 # the files, in the dataset's order

Files ending in .bmp, .gif, .jpeg, .jpg or .png are read (decoded by the
runtime's own codecs, the same pixels as TF's), resized to `image_size` with
`tf.image.resize` (`interpolation`), after cropping the largest centred
window of the target's aspect (`crop_to_aspect_ratio`) or before padding to
it (`pad_to_aspect_ratio`, `tf.image.resize_with_pad`), as float32 with 1, 3
or 4 channels (`color_mode` "grayscale", "rgb", "rgba"). Labels, subsets and
the file order are as in text_dataset_from_directory; with `shuffle` the
dataset is also shuffled each epoch (buffer of 8 batches), with the
runtime's random numbers. Images are float32, uint8 with "nearest" (as
Keras, which does not cast `tf.image.resize`'s output).
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.data.dataset import Dataset
from runtime._src.keras.backend import config
from runtime._src.keras.utils import io_utils
from runtime._src.keras.utils.dataset_utils import (chosen_subsets, index_directory,
                                                     labels_array)
from runtime._src.ops import image_codecs, image_ops, io_ops
from runtime._src.ops.manipulation_ops import transpose
from runtime._src.ops.script_ops import py_function

__all__ = ["image_dataset_from_directory", "ALLOWLIST_FORMATS"]

ALLOWLIST_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian",
                   "mitchellcubic")
_CHANNELS = {"rgb": 3, "rgba": 4, "grayscale": 1}


def _check(labels, label_mode, class_names, color_mode, image_size, interpolation,
           validation_split, subset, crop, pad):
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError("`labels` argument should be a list/tuple of integer labels, of "
                             "the same size as the number of image files in the target "
                             "directory. If you wish to infer the labels from the "
                             'subdirectory names in the target directory, pass `labels="'
                             'inferred"`. If you wish to get a dataset that only contains '
                             f"images (no labels), pass `labels=None`. Received: labels={labels}")
        if class_names:
            raise ValueError('You can only pass `class_names` if `labels="inferred"`. '
                             f"Received: labels={labels}, and class_names={class_names}")
    if label_mode not in ("int", "categorical", "binary", None):
        raise ValueError('`label_mode` argument must be one of "int", "categorical", '
                         f'"binary", or None. Received: label_mode={label_mode}')
    if color_mode not in _CHANNELS:
        raise ValueError('`color_mode` must be one of {"rgb", "rgba", "grayscale"}. '
                         f"Received: color_mode={color_mode}")
    if not isinstance(image_size, int) and (not isinstance(image_size, (list, tuple))
                                            or len(image_size) != 2):
        raise ValueError("Invalid `image_size` value. Expected a tuple of 2 integers. "
                         f"Received: image_size={image_size}")
    if interpolation.lower() not in _INTERPOLATIONS:
        raise ValueError(f"Argument `interpolation` should be one of {_INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")
    if (subset is None) != (validation_split is None):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in (None, "training", "validation", "both"):
        raise ValueError('`subset` must be either "training", "validation" or "both". '
                         f"Received: subset={subset}")
    if validation_split is not None and not 0 < validation_split < 1:
        raise ValueError("`validation_split` must be between 0 and 1, received: "
                         f"{validation_split}")
    if crop and pad:
        raise ValueError("Only one of `pad_to_aspect_ratio`, `crop_to_aspect_ratio` can be "
                         "set to `True`.")


def _centre_crop(image, height, width):
    """Keras's smart_resize window: the largest centred crop of aspect height:width."""
    in_h, in_w = image.shape[:2]
    crop_h = max(min(in_h, int(float(in_w * height) / width)), 1)
    crop_w = max(min(in_w, int(float(in_h * width) / height)), 1)
    top, left = int(float(in_h - crop_h) / 2), int(float(in_w - crop_w) / 2)
    return image[top:top + crop_h, left:left + crop_w]


def _loader(size, channels, interpolation, data_format, crop, pad):
    """path -> float32 image, run eagerly per file (its size is known then)."""
    height, width = size

    def load(path):
        image = image_codecs.decode_image(io_ops.read_file(path), channels=channels,
                                          expand_animations=False)
        if crop:
            image = _centre_crop(image, height, width)
        if pad:
            image = image_ops.resize_with_pad(image, height, width, method=interpolation)
        else:
            image = image_ops.resize(image, [height, width], method=interpolation)
        return transpose(image, [2, 0, 1]) if data_format == "channels_first" else image
    return load


def _paths_dataset(paths, labels, label_mode, num_classes, load, spec, shuffle, seed,
                   buffer):
    shape, dtype = spec

    def read(path):
        image = py_function(load, [path], dtype)
        image.set_shape(shape)
        return image

    ds = Dataset.from_tensor_slices(np.array(paths, dtype=object))
    if label_mode:
        ds = Dataset.zip((ds, Dataset.from_tensor_slices(
            labels_array(labels, label_mode, num_classes))))
    if shuffle:
        ds = ds.shuffle(buffer, seed=seed)
    if label_mode:
        return ds.map(lambda path, label: (read(path), label))
    return ds.map(read)


def image_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                 class_names=None, color_mode="rgb", batch_size=32,
                                 image_size=(256, 256), shuffle=True, seed=None,
                                 validation_split=None, subset=None, interpolation="bilinear",
                                 follow_links=False, crop_to_aspect_ratio=False,
                                 pad_to_aspect_ratio=False, data_format=None, verbose=True,
                                 format="tf"):
    """The images under `directory` as a batched, prefetched Dataset with
    `class_names` and `file_paths` (see the module's docstring)."""
    _check(labels, label_mode, class_names, color_mode, image_size, interpolation,
           validation_split, subset, crop_to_aspect_ratio, pad_to_aspect_ratio)
    if format != "tf":
        raise ValueError(f"format={format!r}: runtime.keras makes tf.data datasets ('tf')")
    if labels is None or label_mode is None:
        labels = label_mode = None
    size = (image_size, image_size) if isinstance(image_size, int) else tuple(image_size)
    channels = _CHANNELS[color_mode]
    data_format = data_format or config.image_data_format()
    if seed is None:
        seed = np.random.randint(1e6)
    say = io_utils.print_msg if verbose else (lambda message: None)
    paths, found, names = index_directory(directory, labels, ALLOWLIST_FORMATS, class_names,
                                          follow_links, say)
    if label_mode == "binary" and len(names or ()) != 2:
        raise ValueError('When passing `label_mode="binary"`, there must be exactly 2 '
                         f"class_names. Received: class_names={names}")
    load = _loader(size, channels, interpolation.lower(), data_format, crop_to_aspect_ratio,
                   pad_to_aspect_ratio)
    shape = (size + (channels,)) if data_format == "channels_last" else (channels,) + size
    spec = shape, dtypes.uint8 if interpolation.lower() == "nearest" else dtypes.float32
    num_classes = len(names) if names else 0
    datasets = []
    for part, part_paths, part_labels in chosen_subsets(paths, found, shuffle, seed,
                                                        validation_split, subset, say):
        if not part_paths:
            kind = {"all": "", "training": "training ", "validation": "validation "}[part]
            raise ValueError(f"No {kind}images found in directory {directory}. Allowed "
                             f"formats: {ALLOWLIST_FORMATS}")
        ds = _paths_dataset(part_paths, part_labels, label_mode, num_classes, load, spec,
                            shuffle and not (subset == "both" and part == "validation"), seed,
                            batch_size * 8 if batch_size is not None else 1024)
        if batch_size is not None:
            ds = ds.batch(batch_size)
        ds = ds.prefetch(-1)
        ds.class_names = names
        ds.file_paths = part_paths
        datasets.append(ds)
    return datasets if subset == "both" else datasets[0]
