"""`ImageDataGenerator.flow_from_dataframe`'s iterator (Keras 3.15's legacy
DataFrameIterator): image files named in a pandas DataFrame column, labels
from another.

class_mode: "categorical" (string or list labels, one-hot / multi-hot),
"binary" / "sparse" (string labels, class indices), "raw" (the y_col values),
"multi_output" (one array per y_col column), "input" (the images), None.
Classes are the sorted labels unless `classes` lists them; rows whose label is
not among them, and (validate_filenames) rows naming no image file, are
dropped with a warning.
"""

import os
import warnings

import numpy as np

from runtime._src.keras.legacy.preprocessing.image_iterators import _FileBatches
from runtime._src.keras.utils import io_utils

__all__ = ["DataFrameIterator"]

_NO_CLASSES = ("input", "multi_output", "raw", None)


def _check(df, class_mode, allowed, x_col, y_col, weight_col, classes):
    if class_mode not in allowed:
        raise ValueError(f"Invalid class_mode: {class_mode}; expected one of: {allowed}")
    if class_mode == "multi_output" and not isinstance(y_col, list):
        raise TypeError(f'If class_mode="{class_mode}", y_col must be a list. Received '
                        f"{type(y_col).__name__}.")
    if not all(isinstance(v, str) for v in df[x_col]):
        raise TypeError(f"All values in column x_col={x_col} must be strings.")
    if class_mode in {"binary", "sparse"} and not all(isinstance(v, str) for v in df[y_col]):
        raise TypeError(f'If class_mode="{class_mode}", y_col="{y_col}" column values must '
                        "be strings.")
    if class_mode == "binary":
        count = len(set(classes)) if classes else df[y_col].nunique()
        if count != 2:
            said = f"{count} class/es were given." if classes else f"Found {count} classes."
            raise ValueError(f'If class_mode="binary" there must be 2 classes. {said}')
    if class_mode == "categorical" and not all(isinstance(v, (str, list, tuple))
                                               for v in df[y_col]):
        raise TypeError(f'If class_mode="{class_mode}", y_col="{y_col}" column values must be '
                        "type string, list or tuple.")
    if classes and class_mode in _NO_CLASSES:
        warnings.warn(f'`classes` will be ignored given the class_mode="{class_mode}"')
    if weight_col and not issubclass(df[weight_col].dtype.type, np.number):
        raise TypeError(f"Column weight_col={weight_col} must be numeric.")


def _kept_labels(label, classes, y_col):
    if isinstance(label, (list, tuple)):
        return [c for c in label if c in classes] or None
    if isinstance(label, str):
        return label if label in classes else None
    raise TypeError(f"Expect string, list or tuple but found {type(label)} in {y_col} column ")


def _filter_classes(df, y_col, classes):
    """(df without rows of other labels, the class names)."""
    df = df.copy()
    if classes:
        classes = list(dict.fromkeys(classes))
        df[y_col] = df[y_col].apply(lambda v: _kept_labels(v, classes, y_col))
    else:
        found = set()
        for v in df[y_col]:
            found.update(v if isinstance(v, (list, tuple)) else [v])
        classes = sorted(found)
    return df.dropna(subset=[y_col]), classes


class DataFrameIterator(_FileBatches):
    """The iterator `ImageDataGenerator.flow_from_dataframe` returns."""

    allowed_class_modes = {"binary", "categorical", "input", "multi_output", "raw", "sparse",
                           None}

    def __init__(self, dataframe, directory=None, image_data_generator=None, x_col="filename",
                 y_col="class", weight_col=None, target_size=(256, 256), color_mode="rgb",
                 classes=None, class_mode="categorical", batch_size=32, shuffle=True,
                 seed=None, data_format="channels_last", save_to_dir=None, save_prefix="",
                 save_format="png", subset=None, interpolation="nearest",
                 keep_aspect_ratio=False, dtype="float32", validate_filenames=True):
        self._setup(image_data_generator, target_size, color_mode, data_format, save_to_dir,
                    save_prefix, save_format, subset, interpolation, keep_aspect_ratio)
        df = dataframe.copy()
        self.directory, self.class_mode, self.dtype = directory or "", class_mode, dtype
        _check(df, class_mode, self.allowed_class_modes, x_col, y_col, weight_col, classes)
        if validate_filenames:
            df = self._valid_files(df, x_col)
        if class_mode not in _NO_CLASSES:
            df, classes = _filter_classes(df, y_col, classes)
            self.class_indices = {c: i for i, c in enumerate(classes)}
        if self.split:
            n = len(df)
            df = df.iloc[int(self.split[0] * n):int(self.split[1] * n), :]
        if class_mode not in _NO_CLASSES:
            self.classes = [[self.class_indices[c] for c in v] if isinstance(v, (list, tuple))
                            else self.class_indices[v] for v in df[y_col]]
        self.filenames = df[x_col].tolist()
        self._sample_weight = df[weight_col].values if weight_col else None
        if class_mode == "multi_output":
            self._targets = [np.array(df[col].tolist()) for col in y_col]
        if class_mode == "raw":
            self._targets = df[y_col].values
        self.samples = len(self.filenames)
        validated = "validated" if validate_filenames else "non-validated"
        tail = "." if class_mode in _NO_CLASSES else \
            f" belonging to {len(self.class_indices)} classes."
        io_utils.print_msg(f"Found {self.samples} {validated} image filenames{tail}")
        self._filepaths = [os.path.join(self.directory, f) for f in self.filenames]
        super().__init__(self.samples, batch_size, shuffle, seed)

    def _valid_files(self, df, x_col):
        paths = df[x_col].map(lambda name: os.path.join(self.directory, name))
        mask = paths.apply(lambda f: f.lower().endswith(self.white_list_formats)
                           and os.path.isfile(f))
        invalid = int((~mask).sum())
        if invalid:
            warnings.warn(f'Found {invalid} invalid image filename(s) in x_col="{x_col}". '
                          "These filename(s) will be ignored.")
        return df[mask]

    def _labels_of(self, index_array, batch):
        if self.class_mode == "categorical":
            y = np.zeros((len(batch), len(self.class_indices)), dtype=self.dtype)
            for i, j in enumerate(index_array):
                y[i, self.classes[j]] = 1.0
            return y
        return super()._labels_of(index_array, batch)

    @property
    def filepaths(self):
        return self._filepaths

    @property
    def labels(self):
        return self._targets if self.class_mode in {"multi_output", "raw"} else self.classes

    @property
    def sample_weight(self):
        return self._sample_weight
