"""`keras.utils`' data helpers: `pack_x_y_sample_weight` /
`unpack_x_y_sample_weight`, `split_dataset` and
`timeseries_dataset_from_array`.

    x, y, sw = unpack_x_y_sample_weight(data)     # (x, y, None) from (x, y)
    left, right = split_dataset(arrays, left_size=0.8)   # two tf.data.Datasets
    timeseries_dataset_from_array(data, targets, sequence_length=10, batch_size=32)

`split_dataset` takes a numpy array, a tuple/list/dict of arrays (one
sample: one row of each) or a `tf.data.Dataset`: the samples are read into memory, then the
first `left_size` and the last `right_size` become two datasets (a float is a
fraction of the samples, rounded as Python rounds). Shuffling (`shuffle=True`)
draws numpy's permutation, not Keras's.
"""

import numbers

import os

import numpy as np

from runtime._src.core import nest
from runtime._src.data.dataset import Dataset

__all__ = ["chosen_subsets", "files_under", "index_directory", "labels_array",
           "pack_x_y_sample_weight",
           "split_dataset", "timeseries_dataset_from_array", "unpack_x_y_sample_weight"]


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """`x` (a tuple/list `x` as `(x,)`), `(x, y)` or `(x, y, sample_weight)`."""
    if y is None:
        return (x,) if isinstance(x, (tuple, list)) else x
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def unpack_x_y_sample_weight(data):
    """`(x, y, sample_weight)` from `x`, `(x,)`, `(x, y)` or `(x, y, sample_weight)`."""
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return (data, None, None)
    if len(data) in (1, 2, 3):
        return tuple(data) + (None,) * (3 - len(data))
    raise ValueError("Data is expected to be in format `x`, `(x,)`, `(x, y)`, or "
                     f"`(x, y, sample_weight)`, found: {data}")


# --- split_dataset --------------------------------------------------------------------

def _samples(dataset):
    """The samples of `dataset` as a list, and a function rebuilding a
    Dataset from some of them."""
    if isinstance(dataset, Dataset):
        samples = [nest.map_structure(np.asarray, s) for s in dataset]
    elif isinstance(dataset, np.ndarray):
        samples = list(dataset)
    elif isinstance(dataset, (tuple, dict, list)):
        dataset = tuple(dataset) if isinstance(dataset, list) else dataset
        leaves = [np.asarray(v) for v in nest.flatten(dataset)]
        if len({len(v) for v in leaves}) > 1:
            raise ValueError("split_dataset: the arrays of `dataset` must have the same "
                             f"length; got lengths {[len(v) for v in leaves]}")
        samples = [nest.pack_sequence_as(dataset, [v[i] for v in leaves])
                   for i in range(len(leaves[0]) if leaves else 0)]
    else:
        raise TypeError("The `dataset` argument must be either a `tf.data.Dataset`, a "
                        "`torch.utils.data.Dataset` object, or a list/tuple of arrays. "
                        f"Received: dataset={dataset} of type {type(dataset)}")
    return samples


def _rebuild(samples):
    leaves = [np.stack(column) for column in zip(*[nest.flatten(s) for s in samples])]
    return Dataset.from_tensor_slices(nest.pack_sequence_as(samples[0], leaves))


def _check_size(name, size, total):
    if size is None:
        return
    if not isinstance(size, numbers.Real) or isinstance(size, bool):
        raise TypeError(f"Invalid `{name}` Type. Expected: int or float or None, Received: "
                        f"type({name})={type(size)}.")
    is_int = isinstance(size, numbers.Integral)
    if (is_int and not 0 < size < total) or (not is_int and not 0 < size < 1):
        raise ValueError(f"`{name}` should be either a positive integer smaller than {total}, "
                         f"or a float within the range `[0, 1]`. Received: {name}={size}")


def _split_sizes(left, right, total):
    """Keras's sizes: fractions rounded, the missing side the rest."""
    if left is None and right is None:
        raise ValueError("At least one of the `left_size` or `right_size` must be specified. "
                         f"Received: left_size={left} and right_size={right}")
    _check_size("left_size", left, total)
    _check_size("right_size", right, total)
    if isinstance(left, float) and isinstance(right, float) and left + right > 1:
        raise ValueError("The sum of `left_size` and `right_size` is greater than 1. It must "
                         "be less than or equal to 1.")
    left = round(left * total) if isinstance(left, float) else left
    right = round(right * total) if isinstance(right, float) else right
    left = total - right if left is None else left
    right = total - left if right is None else right
    if left + right > total:
        raise ValueError(f"The sum of `left_size` and `right_size` should be smaller than the "
                         f"{total}. Received: left_size + right_size = {left + right} and "
                         f"total_length = {total}")
    for size, side in ((left, "left"), (right, "right")):
        if size == 0:
            raise ValueError(f"With `dataset` of length={total}, `left_size`={left} and "
                             f"`right_size`={right}. Resulting {side} side dataset split will "
                             "be empty. Adjust any of the aforementioned parameters")
    return int(left), int(right)


def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None,
                  preferred_backend=None):
    """Two `tf.data.Dataset`s: the first `left_size` samples and the last
    `right_size` (see the module's docstring)."""
    samples = _samples(dataset)
    left, right = _split_sizes(left_size, right_size, len(samples))
    if shuffle:
        order = np.random.RandomState(seed).permutation(len(samples))
        samples = [samples[i] for i in order]
    return _rebuild(samples[:left]), _rebuild(samples[len(samples) - right:])


# --- timeseries_dataset_from_array ----------------------------------------------------

def _check_positive(name, value):
    if value <= 0:
        raise ValueError(f"`{name}` must be higher than 0. Received: {name}={value}")


def _window_starts(length, sequence_length, sequence_stride, sampling_rate, start_index,
                   end_index):
    start = start_index or 0
    end = length if end_index is None else end_index
    if not 0 <= start < length:
        raise ValueError("`start_index` must be 0 or greater and lower than the length of "
                         f"`data`. Received: start_index={start_index}, for data of length "
                         f"{length}")
    if not start < end <= length:
        raise ValueError("`end_index` must be higher than `start_index` and lower or equal "
                         "to the length of `data`. Received: start_index="
                         f"{start_index}, end_index={end_index}, for data of length {length}")
    last = end - (sequence_length - 1) * sampling_rate
    return np.arange(start, max(last, start), sequence_stride)


def timeseries_dataset_from_array(data, targets, sequence_length, sequence_stride=1,
                                  sampling_rate=1, batch_size=128, shuffle=False, seed=None,
                                  start_index=None, end_index=None):
    """Sliding windows over `data` (its first axis is time): window i holds
    `data[s, s + sampling_rate, ...]` (`sequence_length` steps) from start
    `s = start_index + i * sequence_stride`, with target `targets[s]`;
    batched by `batch_size` (None: single windows), in a random order when
    `shuffle` (numpy's, seeded by `seed`)."""
    for name, value in (("sequence_length", sequence_length),
                        ("sequence_stride", sequence_stride),
                        ("sampling_rate", sampling_rate)):
        _check_positive(name, value)
    data = np.asarray(data)
    starts = _window_starts(len(data), sequence_length, sequence_stride, sampling_rate,
                            start_index, end_index)
    if shuffle:
        starts = starts[np.random.RandomState(seed).permutation(len(starts))]
    steps = np.arange(sequence_length) * sampling_rate
    windows = data[starts[:, None] + steps] if len(starts) else \
        np.zeros((0, sequence_length) + data.shape[1:], data.dtype)
    elements = windows
    if targets is not None:
        targets = np.asarray(targets)
        elements = (windows, targets[starts] if len(starts) else targets[:0])
    ds = Dataset.from_tensor_slices(elements)
    return ds if batch_size is None else ds.batch(batch_size)


def files_under(folder, follow_links, formats):
    """The files under `folder` whose names end in one of `formats`,
    recursively: each folder's files in sorted order, then its subfolders in
    sorted order (as Keras's index_directory)."""
    found = []
    for root, dirs, files in os.walk(folder, followlinks=follow_links):
        dirs.sort()
        found.extend(os.path.join(root, f) for f in sorted(files)
                     if f.lower().endswith(formats))
    return found


def index_directory(directory, labels, formats, class_names, follow_links, say):
    """(paths, integer labels or None, class names) of the files under
    `directory` (see text_dataset_from_directory for `labels`)."""
    if labels != "inferred":
        paths = files_under(directory, follow_links, formats)
        if labels is not None and len(labels) != len(paths):
            raise ValueError("Expected the lengths of `labels` to match the number of files "
                             f"in the target directory. len(labels) is {len(labels)} while "
                             f"we found {len(paths)} files in directory {directory}.")
        if labels is None:
            say(f"Found {len(paths)} files.")
            return paths, None, None
        names = [str(c) for c in sorted(set(labels))]
        say(f"Found {len(paths)} files belonging to {len(names)} classes.")
        return paths, list(labels), names
    subdirs = sorted(d for d in os.listdir(directory)
                     if os.path.isdir(os.path.join(directory, d)))
    if class_names is not None:
        missing = [c for c in class_names if c not in subdirs]
        if missing:
            raise ValueError("The `class_names` passed did not match the names of the "
                             f"subdirectories of the target directory. Expected: {subdirs} "
                             f"(or a subset of it), but received: class_names={class_names}")
        subdirs = list(class_names)
    paths, found = [], []
    for label, name in enumerate(subdirs):
        files = files_under(os.path.join(directory, name), follow_links, formats)
        paths.extend(files)
        found.extend([label] * len(files))
    say(f"Found {len(paths)} files belonging to {len(subdirs)} classes.")
    return paths, found, subdirs


def labels_array(labels, label_mode, num_classes):
    labels = np.asarray(labels, dtype="int32")
    if label_mode == "binary":
        return labels.astype("float32").reshape(-1, 1)
    if label_mode == "categorical":
        return np.eye(num_classes, dtype="float32")[labels].reshape(-1, num_classes)
    return labels


def chosen_subsets(paths, labels, shuffle, seed, validation_split, subset, say):
    """[(part, paths, labels)] of the indexed files that `subset` asks for:
    shuffled first by numpy's RandomState(seed) as Keras shuffles them, the
    last `validation_split` of them for validation, each part said as Keras
    says it ("Using 7 files for training.")."""
    if shuffle:
        order = np.random.RandomState(seed).permutation(len(paths))
        paths = [paths[i] for i in order]
        labels = None if labels is None else [labels[i] for i in order]
    parts = {"all": (paths, labels)}
    if validation_split is not None:
        cut = len(paths) - int(validation_split * len(paths))
        parts = {"training": (paths[:cut], labels and labels[:cut]),
                 "validation": (paths[cut:], labels and labels[cut:])}
    chosen = []
    for part in ["training", "validation"] if subset == "both" else [subset or "all"]:
        if part != "all":
            say(f"Using {len(parts[part][0])} files for {part}.")
        chosen.append((part,) + parts[part])
    return chosen
