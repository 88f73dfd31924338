"""The column types `make_csv_dataset` infers from a CSV file's first rows:
the first of int32, int64, float32, float64 that holds every value read
(empty and `na_value` fields skipped), else string; as TensorFlow's."""

import csv

import numpy as np

from runtime._src.core import dtypes

__all__ = ["infer_column_types"]

_ORDER = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64, dtypes.string]


def _fits(text, dtype):
    try:
        if dtype.is_integer:
            value = int(text)
            info = np.iinfo(dtype.np_dtype)
            return info.min <= value <= info.max
        value = float(text)
        return dtype == dtypes.float64 or not np.isinf(np.float32(value)) or np.isinf(value)
    except ValueError:
        return False


def _kind(text, at_least):
    for i in range(at_least, len(_ORDER) - 1):
        if _fits(text, _ORDER[i]):
            return i
    return len(_ORDER) - 1


def infer_column_types(files, cols, delim, na_value, header, rows):
    kinds = [0] * len(cols)
    seen = 0
    for path in files:
        with open(path, newline="") as f:
            reader = csv.reader(f, delimiter=delim)
            if header:
                next(reader, None)
            for record in reader:
                if seen >= rows:
                    return [_ORDER[k] for k in kinds]
                for j, c in enumerate(cols):
                    text = record[c] if c < len(record) else ""
                    if text and text != na_value:
                        kinds[j] = _kind(text, kinds[j])
                seen += 1
    return [_ORDER[k] for k in kinds]
