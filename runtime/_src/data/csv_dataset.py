"""`tf.data.experimental.make_csv_dataset`: batches of (features, label)
from CSV files, the columns named by the header and typed by their first
rows (int32, int64, float32, float64, else string), as TensorFlow's.

    ds = make_csv_dataset("train*.csv", batch_size=32, label_name="survived")
    for features, label in ds: ...       # features: an OrderedDict of [batch] columns

Files are read in sorted order (shuffled per epoch when `shuffle`), through
`CsvDataset`; a missing value of an inferred column is 0 (or "").
"""

import collections
import glob
import os

import numpy as np

from runtime._src.core import dtypes
from runtime._src.data.csv_types import infer_column_types
from runtime._src.data.dataset import AUTOTUNE, CsvDatasetV2

__all__ = ["make_csv_dataset"]


def _files(file_pattern):
    patterns = [file_pattern] if isinstance(file_pattern, (str, bytes, os.PathLike)) \
        else list(file_pattern)
    files = sorted({f for p in patterns for f in glob.glob(os.fsdecode(p))})
    if not files:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    return files


def _header(path, delim):
    with open(path, newline="") as f:
        return f.readline().rstrip("\r\n").split(delim)


def _selected(select_columns, names):
    if select_columns is None:
        return list(range(len(names)))
    if all(isinstance(c, int) for c in select_columns):
        return sorted(select_columns)
    missing = [c for c in select_columns if c not in names]
    if missing:
        raise ValueError(f"`select_columns` {missing} not found in the column names "
                         f"{names}.")
    return sorted(names.index(c) for c in select_columns)


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None,
                     label_name=None, select_columns=None, field_delim=",",
                     use_quote_delim=True, na_value="", header=True, num_epochs=None,
                     shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False,
                     num_rows_for_inference=100, compression_type=None, ignore_errors=False,
                     encoding="utf-8"):
    files = _files(file_pattern)
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither was "
                             "provided.")
        column_names = _header(files[0], field_delim)
    column_names = list(column_names)
    if len(set(column_names)) != len(column_names):
        raise ValueError(f"Found duplicate column names: {column_names}")
    cols = _selected(select_columns, column_names)
    names = [column_names[i] for i in cols]
    if label_name is not None and label_name not in names:
        raise ValueError(f"`label_name` provided must be one of the columns: {names}. "
                         f"Received: {label_name}.")
    if column_defaults is None:
        types = infer_column_types(files, cols, field_delim, na_value, header,
                                   num_rows_for_inference)
        column_defaults = [np.zeros([], t.np_dtype) if t != dtypes.string else ""
                           for t in types]
    elif len(column_defaults) != len(cols):
        raise ValueError(f"The number of `column_defaults` ({len(column_defaults)}) must "
                         f"match the number of selected columns ({len(cols)}).")
    ds = CsvDatasetV2(files, column_defaults, compression_type=compression_type, header=header,
                      field_delim=field_delim, use_quote_delim=use_quote_delim,
                      na_value=na_value, select_cols=cols)
    return _pipeline(ds, names, label_name, batch_size, num_epochs, shuffle,
                     shuffle_buffer_size, shuffle_seed, prefetch_buffer_size, ignore_errors)


def _pipeline(ds, names, label_name, batch_size, num_epochs, shuffle, buffer, seed,
              prefetch, ignore_errors):
    if ignore_errors:
        ds = ds.ignore_errors()
    if num_epochs != 1:
        ds = ds.repeat(num_epochs)
    if shuffle:
        ds = ds.shuffle(buffer, seed)
    ds = ds.batch(batch_size)

    def to_features(*columns):
        features = collections.OrderedDict(zip(names, columns))
        if label_name is None:
            return features
        label = features.pop(label_name)
        return features, label
    ds = ds.map(to_features)
    return ds.prefetch(AUTOTUNE if prefetch is None else prefetch)
