"""`tf.keras.preprocessing.image`'s Keras 2 batch iterators (Keras 3.15's
legacy module): PyDatasets of image batches.

    Iterator(n, batch_size, shuffle, seed)
        batch i holds the samples index_array[i * batch_size:(i + 1) * batch_size];
        index_array is a permutation from numpy's global RNG when shuffling,
        which is seeded with seed + batches seen before each batch; also an
        endless Python iterator (next())
    NumpyArrayIterator(x, y, image_data_generator, batch_size=32, shuffle=False,
                       sample_weight=None, seed=None, ...)
        x (rank 4) cast to the dtype, each image transformed and standardized;
        (x,), (x, y) or (x, y, sample_weight) batches
    DirectoryIterator(directory, image_data_generator, target_size=(256, 256),
                      color_mode="rgb", classes=None, class_mode="categorical", ...)
        the images of each class's subfolder (sorted), loaded with load_img
"""

import os
import threading
import warnings

import numpy as np

from runtime._src.keras.backend import config
from runtime._src.keras.trainers.data_adapters.py_dataset import PyDataset
from runtime._src.keras.utils import image_utils, io_utils

__all__ = ["DirectoryIterator", "Iterator", "NumpyArrayIterator"]


class Iterator(PyDataset):
    """`tf.keras.preprocessing.image.Iterator`: the index bookkeeping."""

    white_list_formats = ("png", "jpg", "jpeg", "bmp", "ppm", "tif", "tiff")

    def __init__(self, n, batch_size, shuffle, seed, **kwargs):
        super().__init__(**kwargs)
        self.n, self.batch_size, self.seed, self.shuffle = n, batch_size, seed, shuffle
        self.batch_index, self.total_batches_seen = 0, 0
        self.lock = threading.Lock()
        self.index_array = None
        self.index_generator = self._flow_index()

    def _set_index_array(self):
        self.index_array = np.random.permutation(self.n) if self.shuffle else np.arange(self.n)

    def _seed_next_batch(self):
        if self.seed is not None:
            np.random.seed(self.seed + self.total_batches_seen)
        self.total_batches_seen += 1

    def __getitem__(self, idx):
        if idx >= len(self):
            raise ValueError(f"Asked to retrieve element {idx}, but the Sequence has length "
                             f"{len(self)}")
        self._seed_next_batch()
        if self.index_array is None:
            self._set_index_array()
        rows = self.index_array[self.batch_size * idx:self.batch_size * (idx + 1)]
        return self._get_batches_of_transformed_samples(rows)

    def __len__(self):
        return (self.n + self.batch_size - 1) // self.batch_size

    def on_epoch_end(self):
        self._set_index_array()

    def reset(self):
        self.batch_index = 0

    def _flow_index(self):
        self.reset()
        while True:
            if self.seed is not None:
                np.random.seed(self.seed + self.total_batches_seen)
            if self.batch_index == 0:
                self._set_index_array()
            start = 0 if self.n == 0 else (self.batch_index * self.batch_size) % self.n
            self.batch_index = self.batch_index + 1 if self.n > start + self.batch_size else 0
            self.total_batches_seen += 1
            yield self.index_array[start:start + self.batch_size]

    def __iter__(self):
        return self

    def __next__(self):
        with self.lock:
            rows = next(self.index_generator)
        return self._get_batches_of_transformed_samples(rows)

    def _get_batches_of_transformed_samples(self, index_array):
        raise NotImplementedError


def _transformed(generator, x):
    if generator is None:
        return x
    x = generator.apply_transform(x, generator.get_random_transform(x.shape))
    return generator.standardize(x)


def _save(batch, index_array, data_format, directory, prefix, file_format, high):
    for image, j in zip(batch, index_array):
        img = image_utils.array_to_img(image, data_format, scale=True)
        img.save(os.path.join(directory, f"{prefix}_{j}_{np.random.randint(high)}."
                                         f"{file_format}"))


def _split_misc(x):
    """(images, [other inputs]) of `x`, a list/tuple (images, other(s)) or an array."""
    if not isinstance(x, (tuple, list)):
        return x, []
    misc = [np.asarray(x[1])] if not isinstance(x[1], list) else [np.asarray(m) for m in x[1]]
    for m in misc:
        if len(x[0]) != len(m):
            raise ValueError("All of the arrays in `x` should have the same length. Found a "
                             f"pair with: len(x[0]) = {len(x[0])}, len(x[?]) = {len(m)}")
    return x[0], misc


class NumpyArrayIterator(Iterator):
    """`tf.keras.preprocessing.image.NumpyArrayIterator`."""

    def __init__(self, x, y, image_data_generator, batch_size=32, shuffle=False,
                 sample_weight=None, seed=None, data_format=None, save_to_dir=None,
                 save_prefix="", save_format="png", subset=None, ignore_class_split=False,
                 dtype=None):
        data_format = data_format or config.image_data_format()
        self.dtype = dtype or config.floatx()
        x, misc = _split_misc(x)
        _check_lengths(x, y, sample_weight)
        if subset is not None:
            x, y, misc = _subset(x, y, misc, subset, image_data_generator, ignore_class_split)
        self.x, self.x_misc = np.asarray(x, dtype=self.dtype), misc
        if self.x.ndim != 4:
            raise ValueError("Input data in `NumpyArrayIterator` should have rank 4. You "
                             f"passed an array with shape {self.x.shape}")
        axis = 3 if data_format == "channels_last" else 1
        if self.x.shape[axis] not in {1, 3, 4}:
            warnings.warn(f'NumpyArrayIterator is set to use the data format convention '
                          f'"{data_format}" (channels on axis {axis}), i.e. expected either '
                          f"1, 3, or 4 channels on axis {axis}. However, it was passed an "
                          f"array with shape {self.x.shape} ({self.x.shape[axis]} channels).")
        self.y = None if y is None else np.asarray(y)
        self.sample_weight = None if sample_weight is None else np.asarray(sample_weight)
        self.image_data_generator, self.data_format = image_data_generator, data_format
        self.save_to_dir, self.save_prefix = save_to_dir, save_prefix
        self.save_format = save_format
        super().__init__(self.x.shape[0], batch_size, shuffle, seed)

    def _get_batches_of_transformed_samples(self, index_array):
        batch = np.zeros((len(index_array),) + self.x.shape[1:], dtype=self.dtype)
        for i, j in enumerate(index_array):
            batch[i] = _transformed(self.image_data_generator, self.x[j].astype(self.dtype))
        if self.save_to_dir:
            _save(batch, index_array, self.data_format, self.save_to_dir, self.save_prefix,
                  self.save_format, 10_000)
        misc = [m[index_array] for m in self.x_misc]
        inputs = [batch] + misc if misc else batch
        if self.y is None:
            return inputs
        if self.sample_weight is None:
            return inputs, self.y[index_array]
        return inputs, self.y[index_array], self.sample_weight[index_array]


def _check_lengths(x, y, sample_weight):
    for name, other in (("`y` (labels)", y), ("`sample_weight`", sample_weight)):
        if other is not None and len(x) != len(other):
            what = "y" if name.startswith("`y`") else "sample_weight"
            raise ValueError(f"`x` (images tensor) and {name} should have the same length. "
                             f"Found: x.shape = {np.asarray(x).shape}, {what}.shape = "
                             f"{np.asarray(other).shape}")


def _subset(x, y, misc, subset, generator, ignore_class_split):
    if subset not in {"training", "validation"}:
        raise ValueError(f'Invalid subset name: {subset}; expected "training" or '
                         '"validation".')
    cut = int(len(x) * generator._validation_split)
    if (y is not None and not ignore_class_split
            and not np.array_equal(np.unique(y[:cut]), np.unique(y[cut:]))):
        raise ValueError("Training and validation subsets have different number of classes "
                         "after the split. If your numpy arrays are sorted by the label, you "
                         "might want to shuffle them.")
    part = slice(None, cut) if subset == "validation" else slice(cut, None)
    return x[part], (None if y is None else y[part]), [np.asarray(m[part]) for m in misc]


def _image_files(directory, follow_links, formats):
    """(root, file name) of the images under `directory`, folders and files sorted."""
    for root, _, files in sorted(os.walk(directory, followlinks=follow_links),
                                 key=lambda entry: entry[0]):
        for name in sorted(files):
            if name.lower().endswith(".tiff"):
                warnings.warn('Using ".tiff" files with multiple bands will cause '
                              "distortion. Please verify your output.")
            if name.lower().endswith(formats):
                yield root, name


def _class_files(directory, formats, split, follow_links):
    files = list(_image_files(directory, follow_links, formats))
    if split:
        files = files[int(split[0] * len(files)):int(split[1] * len(files))]
    base = os.path.basename(directory)
    return [os.path.join(base, os.path.relpath(os.path.join(root, name), directory))
            for root, name in files]


_CHANNELS = {"rgba": 4, "rgb": 3, "grayscale": 1}


class _FileBatches(Iterator):
    """Batches of image files: loading, transforming, saving, the labels."""

    def _setup(self, image_data_generator, target_size, color_mode, data_format, save_to_dir,
               save_prefix, save_format, subset, interpolation, keep_aspect_ratio):
        self.image_data_generator = image_data_generator
        self.target_size, self.keep_aspect_ratio = tuple(target_size), keep_aspect_ratio
        if color_mode not in _CHANNELS:
            raise ValueError(f'Invalid color mode: {color_mode}; expected "rgb", "rgba", or '
                             '"grayscale".')
        self.color_mode, self.data_format = color_mode, data_format
        channels = (_CHANNELS[color_mode],)
        self.image_shape = self.target_size + channels \
            if data_format == "channels_last" else channels + self.target_size
        self.save_to_dir, self.save_prefix = save_to_dir, save_prefix
        self.save_format, self.interpolation = save_format, interpolation
        self.split, self.subset = _split_of(subset, image_data_generator), subset

    def _load(self, path):
        img = image_utils.load_img(path, color_mode=self.color_mode,
                                   target_size=self.target_size,
                                   interpolation=self.interpolation,
                                   keep_aspect_ratio=self.keep_aspect_ratio)
        x = image_utils.img_to_array(img, data_format=self.data_format)
        img.close()
        return x

    def _labels_of(self, index_array, batch):
        mode = self.class_mode
        if mode == "input":
            return batch.copy()
        if mode in {"binary", "sparse"}:
            return np.array([self.classes[j] for j in index_array], dtype=self.dtype)
        if mode == "categorical":
            y = np.zeros((len(batch), len(self.class_indices)), dtype=self.dtype)
            for i, j in enumerate(index_array):
                y[i, self.classes[j]] = 1.0
            return y
        if mode == "multi_output":
            return [output[index_array] for output in self.labels]
        return self.labels[index_array]             # raw

    def _get_batches_of_transformed_samples(self, index_array):
        batch = np.zeros((len(index_array),) + self.image_shape, dtype=self.dtype)
        for i, j in enumerate(index_array):
            batch[i] = _transformed(self.image_data_generator, self._load(self.filepaths[j]))
        if self.save_to_dir:
            _save(batch, index_array, self.data_format, self.save_to_dir, self.save_prefix,
                  self.save_format, int(1e7))
        if self.class_mode is None:
            return batch
        y = self._labels_of(index_array, batch)
        if self.sample_weight is None:
            return batch, y
        return batch, y, self.sample_weight[index_array]


class DirectoryIterator(_FileBatches):
    """`tf.keras.preprocessing.image.DirectoryIterator`."""

    allowed_class_modes = {"categorical", "binary", "sparse", "input", None}

    def __init__(self, directory, image_data_generator, target_size=(256, 256),
                 color_mode="rgb", classes=None, class_mode="categorical", batch_size=32,
                 shuffle=True, seed=None, data_format=None, save_to_dir=None, save_prefix="",
                 save_format="png", follow_links=False, subset=None, interpolation="nearest",
                 keep_aspect_ratio=False, dtype=None):
        self.dtype = dtype or config.floatx()
        self._setup(image_data_generator, target_size, color_mode,
                    data_format or config.image_data_format(), save_to_dir, save_prefix,
                    save_format, subset, interpolation, keep_aspect_ratio)
        if class_mode not in self.allowed_class_modes:
            raise ValueError(f"Invalid class_mode: {class_mode}; expected one of: "
                             f"{self.allowed_class_modes}")
        self.directory, self.class_mode = directory, class_mode
        classes = classes or [d for d in sorted(os.listdir(directory))
                              if os.path.isdir(os.path.join(directory, d))]
        self.num_classes = len(classes)
        self.class_indices = {c: i for i, c in enumerate(classes)}
        self.filenames, labels = [], []
        for c in classes:
            names = _class_files(os.path.join(directory, c), self.white_list_formats,
                                 self.split, follow_links)
            self.filenames += names
            labels += [self.class_indices[c]] * len(names)
        self.samples = len(self.filenames)
        self.classes = np.array(labels, dtype="int32")
        io_utils.print_msg(f"Found {self.samples} images belonging to {self.num_classes} "
                           "classes.")
        self._filepaths = [os.path.join(directory, f) for f in self.filenames]
        super().__init__(self.samples, batch_size, shuffle, seed)

    @property
    def filepaths(self):
        return self._filepaths

    @property
    def labels(self):
        return self.classes

    @property
    def sample_weight(self):
        return None


def _split_of(subset, generator):
    if subset is None:
        return None
    if subset == "validation":
        return (0, generator._validation_split)
    if subset == "training":
        return (generator._validation_split, 1)
    raise ValueError(f'Invalid subset name: {subset};expected "training" or "validation"')
