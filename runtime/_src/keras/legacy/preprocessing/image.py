"""`tf.keras.preprocessing.image.ImageDataGenerator` (Keras 3.15's legacy
Keras 2 class): random augmentation and standardization of image batches.

    get_random_transform(img_shape, seed=None)
        the parameters drawn from numpy's global RNG, in Keras's order:
        theta, tx (height shift), ty (width shift), shear, zx and zy, the two
        flips, the channel shift, the brightness
    apply_transform(x, params)
        affine transform, channel shift, flips, brightness (image_transforms.py)
    standardize(x)
        preprocessing_function, rescale, sample- then feature-wise centring and
        scaling (std + 1e-6), ZCA; changes x in place as Keras does
    fit(x, augment=False, rounds=1, seed=None)
        the feature-wise mean and std per channel, the ZCA matrix
    flow(x, y=None, ...), flow_from_directory(directory, ...),
    flow_from_dataframe(dataframe, directory=None, ...)
        NumpyArrayIterator / DirectoryIterator (image_iterators.py),
        DataFrameIterator (image_dataframe.py; pandas)
"""

import math
import warnings

import numpy as np

from runtime._src.keras.backend import config
from runtime._src.keras.legacy.preprocessing.image_dataframe import DataFrameIterator
from runtime._src.keras.legacy.preprocessing.image_iterators import (DirectoryIterator,
                                                                      NumpyArrayIterator)
from runtime._src.keras.legacy.preprocessing.image_transforms import (apply_affine_transform,
                                                                      apply_brightness_shift,
                                                                      apply_channel_shift,
                                                                      zoom_pair)

__all__ = ["ImageDataGenerator"]

_DEPRECATED_DATAFRAME_ARGS = (
    ("has_ext", "has_ext is deprecated, filenames in the dataframe have to match the exact "
                "filenames in disk."),
    ("sort", "sort is deprecated, batches will be created in thesame order than the filenames "
             "provided if `shuffle`is set to `False`."),
    ("drop_duplicates", "drop_duplicates is deprecated, you can drop duplicates by using the "
                        "pandas.DataFrame.drop_duplicates method."))


def _zoom_range(zoom_range):
    if isinstance(zoom_range, (float, int)):
        return [1 - zoom_range, 1 + zoom_range]
    if len(zoom_range) == 2 and all(isinstance(v, (float, int)) for v in zoom_range):
        return [zoom_range[0], zoom_range[1]]
    raise ValueError("`zoom_range` should be a float or a tuple or list of two floats. "
                     f"Received: {zoom_range}")


def _shift(shift_range, side):
    """A shift drawn as Keras 2 does: from the values of a list or int (with a
    random sign), else U(-range, range); times `side` when every value is < 1."""
    if not shift_range:
        return 0
    try:
        shift = np.random.choice(shift_range)
        shift *= np.random.choice([-1, 1])
    except ValueError:          # a float range: numpy cannot choose from it
        shift = np.random.uniform(-shift_range, shift_range)
    if np.max(shift_range) < 1:
        shift *= side
    return shift


def _flip(x, axis):
    return np.flip(np.asarray(x), axis)


class ImageDataGenerator:
    """`tf.keras.preprocessing.image.ImageDataGenerator`."""

    def __init__(self, featurewise_center=False, samplewise_center=False,
                 featurewise_std_normalization=False, samplewise_std_normalization=False,
                 zca_whitening=False, zca_epsilon=1e-6, rotation_range=0, width_shift_range=0.0,
                 height_shift_range=0.0, brightness_range=None, shear_range=0.0,
                 zoom_range=0.0, channel_shift_range=0.0, fill_mode="nearest", cval=0.0,
                 horizontal_flip=False, vertical_flip=False, rescale=None,
                 preprocessing_function=None, data_format=None, validation_split=0.0,
                 interpolation_order=1, dtype=None):
        data_format = data_format or config.image_data_format()
        self.dtype = dtype or config.floatx()
        self.featurewise_center, self.samplewise_center = featurewise_center, samplewise_center
        self.featurewise_std_normalization = featurewise_std_normalization
        self.samplewise_std_normalization = samplewise_std_normalization
        self.zca_whitening, self.zca_epsilon = zca_whitening, zca_epsilon
        self.rotation_range, self.shear_range = rotation_range, shear_range
        self.width_shift_range, self.height_shift_range = width_shift_range, height_shift_range
        self.channel_shift_range, self.fill_mode, self.cval = channel_shift_range, fill_mode, cval
        self.horizontal_flip, self.vertical_flip = horizontal_flip, vertical_flip
        self.rescale, self.preprocessing_function = rescale, preprocessing_function
        self.interpolation_order = interpolation_order
        if data_format not in {"channels_last", "channels_first"}:
            raise ValueError('`data_format` should be `"channels_last"` (channel after row and '
                             'column) or `"channels_first"` (channel before row and column). '
                             f"Received: {data_format}")
        self.data_format = data_format
        self.channel_axis, self.row_axis, self.col_axis = \
            (3, 1, 2) if data_format == "channels_last" else (1, 2, 3)
        if validation_split and not 0 < validation_split < 1:
            raise ValueError("`validation_split` must be strictly between 0 and 1.  Received: "
                             f"{validation_split}")
        self._validation_split = validation_split
        self.mean = self.std = self.zca_whitening_matrix = None
        self.zoom_range = _zoom_range(zoom_range)
        self._implied_settings()
        if brightness_range is not None and (not isinstance(brightness_range, (tuple, list))
                                             or len(brightness_range) != 2):
            raise ValueError("`brightness_range should be tuple or list of two floats. "
                             f"Received: {brightness_range}")
        self.brightness_range = brightness_range

    def _implied_settings(self):
        """ZCA and std normalization imply centring (Keras's warnings)."""
        if self.zca_whitening:
            if not self.featurewise_center:
                self.featurewise_center = True
                warnings.warn("This ImageDataGenerator specifies `zca_whitening`, which "
                              "overrides setting of `featurewise_center`.")
            if self.featurewise_std_normalization:
                self.featurewise_std_normalization = False
                warnings.warn("This ImageDataGenerator specifies `zca_whitening` which "
                              "overrides setting of`featurewise_std_normalization`.")
        if self.featurewise_std_normalization and not self.featurewise_center:
            self.featurewise_center = True
            warnings.warn("This ImageDataGenerator specifies `featurewise_std_normalization`, "
                          "which overrides setting of `featurewise_center`.")
        if self.samplewise_std_normalization and not self.samplewise_center:
            self.samplewise_center = True
            warnings.warn("This ImageDataGenerator specifies `samplewise_std_normalization`, "
                          "which overrides setting of `samplewise_center`.")

    def flow(self, x, y=None, batch_size=32, shuffle=True, sample_weight=None, seed=None,
             save_to_dir=None, save_prefix="", save_format="png", ignore_class_split=False,
             subset=None):
        """Batches of the arrays `x` (and `y`, `sample_weight`) transformed."""
        return NumpyArrayIterator(x, y, self, batch_size=batch_size, shuffle=shuffle,
                                  sample_weight=sample_weight, seed=seed,
                                  data_format=self.data_format, save_to_dir=save_to_dir,
                                  save_prefix=save_prefix, save_format=save_format,
                                  ignore_class_split=ignore_class_split, subset=subset,
                                  dtype=self.dtype)

    def flow_from_directory(self, directory, target_size=(256, 256), color_mode="rgb",
                            classes=None, class_mode="categorical", batch_size=32,
                            shuffle=True, seed=None, save_to_dir=None, save_prefix="",
                            save_format="png", follow_links=False, subset=None,
                            interpolation="nearest", keep_aspect_ratio=False):
        """Batches of the images in `directory`'s class subfolders, transformed."""
        return DirectoryIterator(directory, self, target_size=target_size,
                                 color_mode=color_mode, keep_aspect_ratio=keep_aspect_ratio,
                                 classes=classes, class_mode=class_mode,
                                 data_format=self.data_format, batch_size=batch_size,
                                 shuffle=shuffle, seed=seed, save_to_dir=save_to_dir,
                                 save_prefix=save_prefix, save_format=save_format,
                                 follow_links=follow_links, subset=subset,
                                 interpolation=interpolation, dtype=self.dtype)

    def flow_from_dataframe(self, dataframe, directory=None, x_col="filename", y_col="class",
                            weight_col=None, target_size=(256, 256), color_mode="rgb",
                            classes=None, class_mode="categorical", batch_size=32,
                            shuffle=True, seed=None, save_to_dir=None, save_prefix="",
                            save_format="png", subset=None, interpolation="nearest",
                            validate_filenames=True, **kwargs):
        """Batches of the image files a DataFrame names (image_dataframe.py)."""
        for key, message in _DEPRECATED_DATAFRAME_ARGS:
            if key in kwargs:
                warnings.warn(message, DeprecationWarning)
        if class_mode == "other":
            warnings.warn('`class_mode="other"` is deprecated, please use `class_mode="raw"`.',
                          DeprecationWarning)
            class_mode = "raw"
        return DataFrameIterator(dataframe, directory, self, x_col=x_col, y_col=y_col,
                                 weight_col=weight_col, target_size=target_size,
                                 color_mode=color_mode, classes=classes,
                                 class_mode=class_mode, data_format=self.data_format,
                                 batch_size=batch_size, shuffle=shuffle, seed=seed,
                                 save_to_dir=save_to_dir, save_prefix=save_prefix,
                                 save_format=save_format, subset=subset,
                                 interpolation=interpolation,
                                 validate_filenames=validate_filenames, dtype=self.dtype)

    def _unfit(self, what):
        warnings.warn(f"This ImageDataGenerator specifies `{what}`, but it hasn't been fit on "
                      "any training data. Fit it first by calling `.fit(numpy_data)`.")

    def standardize(self, x):
        """x normalized by the generator's settings (in place where Keras is)."""
        if self.preprocessing_function:
            x = self.preprocessing_function(x)
        if self.rescale:
            x *= self.rescale
        if self.samplewise_center:
            x -= np.mean(x, keepdims=True)
        if self.samplewise_std_normalization:
            x /= np.std(x, keepdims=True) + 1e-6
        for flag, stat, what in ((self.featurewise_center, self.mean, "featurewise_center"),
                                 (self.featurewise_std_normalization, self.std,
                                  "featurewise_std_normalization")):
            if flag and stat is None:
                self._unfit(what)
            elif flag and what == "featurewise_center":
                x -= stat
            elif flag:
                x /= stat + 1e-6
        if self.zca_whitening:
            if self.zca_whitening_matrix is None:
                self._unfit("zca_whitening")
            else:
                flat = x.reshape(-1, math.prod(x.shape[-3:]))
                x = np.reshape(flat @ self.zca_whitening_matrix, x.shape)
        return x

    def get_random_transform(self, img_shape, seed=None):
        """The random parameters of one image's transform (a dict)."""
        if seed is not None:
            np.random.seed(seed)
        theta = np.random.uniform(-self.rotation_range, self.rotation_range) \
            if self.rotation_range else 0
        tx = _shift(self.height_shift_range, img_shape[self.row_axis - 1])
        ty = _shift(self.width_shift_range, img_shape[self.col_axis - 1])
        shear = np.random.uniform(-self.shear_range, self.shear_range) \
            if self.shear_range else 0
        zx, zy = zoom_pair(self.zoom_range)
        flip_h = (np.random.random() < 0.5) * self.horizontal_flip
        flip_v = (np.random.random() < 0.5) * self.vertical_flip
        channel_shift = None
        if self.channel_shift_range != 0:
            channel_shift = np.random.uniform(-self.channel_shift_range,
                                              self.channel_shift_range)
        brightness = None
        if self.brightness_range is not None:
            brightness = np.random.uniform(self.brightness_range[0], self.brightness_range[1])
        return {"theta": theta, "tx": tx, "ty": ty, "shear": shear, "zx": zx, "zy": zy,
                "flip_horizontal": flip_h, "flip_vertical": flip_v,
                "channel_shift_intensity": channel_shift, "brightness": brightness}

    def apply_transform(self, x, transform_parameters):
        """One image (3-D) transformed by the parameters given."""
        p = transform_parameters
        rows, cols, channels = self.row_axis - 1, self.col_axis - 1, self.channel_axis - 1
        x = apply_affine_transform(x, p.get("theta", 0), p.get("tx", 0), p.get("ty", 0),
                                   p.get("shear", 0), p.get("zx", 1), p.get("zy", 1),
                                   row_axis=rows, col_axis=cols, channel_axis=channels,
                                   fill_mode=self.fill_mode, cval=self.cval,
                                   order=self.interpolation_order)
        if p.get("channel_shift_intensity") is not None:
            x = apply_channel_shift(x, p["channel_shift_intensity"], channels)
        if p.get("flip_horizontal", False):
            x = _flip(x, cols)
        if p.get("flip_vertical", False):
            x = _flip(x, rows)
        if p.get("brightness") is not None:
            x = apply_brightness_shift(x, p["brightness"], False)
        return x

    def random_transform(self, x, seed=None):
        """One image transformed by freshly drawn parameters."""
        return self.apply_transform(x, self.get_random_transform(x.shape, seed))

    def _per_channel(self, values, channels):
        shape = [1, 1, 1]
        shape[self.channel_axis - 1] = channels
        return np.reshape(values, shape)

    def fit(self, x, augment=False, rounds=1, seed=None):
        """The feature-wise statistics (and ZCA matrix) of the images `x`."""
        x = np.asarray(x, dtype=self.dtype)
        if x.ndim != 4:
            raise ValueError("Input to `.fit()` should have rank 4. Got array with shape: "
                             + str(x.shape))
        channels = x.shape[self.channel_axis]
        if channels not in {1, 3, 4}:
            warnings.warn(f'Expected input to be images (as Numpy array) following the data '
                          f'format convention "{self.data_format}" (channels on axis '
                          f"{self.channel_axis}), i.e. expected either 1, 3 or 4 channels on "
                          f"axis {self.channel_axis}. However, it was passed an array with "
                          f"shape {x.shape} ({channels} channels).")
        if seed is not None:
            np.random.seed(seed)
        x = np.copy(x)
        if self.rescale:
            x *= self.rescale
        if augment:
            x = np.stack([self.random_transform(x[i]) for _ in range(rounds)
                          for i in range(x.shape[0])]).astype(self.dtype)
        axes = (0, self.row_axis, self.col_axis)
        if self.featurewise_center:
            self.mean = self._per_channel(np.mean(x, axis=axes), channels)
            x -= self.mean
        if self.featurewise_std_normalization:
            self.std = self._per_channel(np.std(x, axis=axes), channels)
            x /= self.std + 1e-6
        if self.zca_whitening:
            flat = np.reshape(x, (len(x), -1))
            u, s, _ = np.linalg.svd(flat.T, full_matrices=False)
            self.zca_whitening_matrix = (u * (np.sqrt(len(x)) / (s + self.zca_epsilon))).dot(u.T)
