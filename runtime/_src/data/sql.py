"""`tf.data.experimental.SqlDataset`: the rows of an SQL query, through
Python's sqlite3 (TensorFlow's one driver, "sqlite").

    ds = SqlDataset("sqlite", "/tmp/db.sqlite", "SELECT name, age FROM people",
                    (tf.string, tf.int32))      # elements (b'ann', 31), ...

A column is read as SQLite's C API reads it for the requested type: text
to a number takes its leading number (0 when there is none), a number to a
string its text.
"""

import re
import sqlite3

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError, UnknownError
from runtime._src.core.tensor import TensorSpec
from runtime._src.data import structure
from runtime._src.data.node import DatasetNode

__all__ = ["SqlDatasetV2"]

_TYPES = ("string", "int8", "int16", "int32", "int64", "uint8", "uint16", "bool", "float64")
_NUMBER = re.compile(r"\s*[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)")


class SqlDatasetV2(DatasetNode):
    """`SqlDataset(driver_name, data_source_name, query, output_types)`."""

    def __init__(self, driver_name, data_source_name, query, output_types):
        self._params = tuple(structure.normalize(v, "SqlDataset")
                             for v in (driver_name, data_source_name, query))
        self._types = structure.pack(output_types, [dtypes.as_dtype(t) for t in
                                                    structure.flatten(output_types)])
        for t in structure.flatten(self._types):
            if t.name not in _TYPES:
                raise InvalidArgumentError(
                    "Each element of `output_types_` must be one of: DT_STRING, DT_INT8, "
                    "DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_BOOL, DT_DOUBLE ",
                    "SqlDataset")
        driver = self._params[0]
        if hasattr(driver, "_value") and _text(driver._value) != "sqlite":
            raise InvalidArgumentError(
                f"The database type, {_text(driver._value)}, is not supported by SqlDataset. "
                "The set of supported databases is: {'sqlite'}.", "SqlDataset")
        super().__init__(structure.pack(self._types, [
            TensorSpec([], t) for t in structure.flatten(self._types)]))

    def _iterate(self, env):
        _, source, query = (_text(env.value(p)) for p in self._params)
        types = structure.flatten(self._types)
        connection = sqlite3.connect(source)
        try:
            try:
                cursor = connection.execute(query)
            except sqlite3.Error as e:
                raise UnknownError(f"Prepare() failed: {e}: {query}", "IteratorGetNext") from None
            if len(cursor.description) != len(types):
                raise InvalidArgumentError(
                    f"The number of columns in query ({len(cursor.description)}) must match "
                    f"the number of elements in output_types ({len(types)}).", "IteratorGetNext")
            for row in cursor:
                yield structure.pack(self._types, [_column(v, t) for v, t in zip(row, types)])
        finally:
            connection.close()


def _text(value):
    value = value.item() if isinstance(value, np.ndarray) else value
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _column(value, dtype):
    """One column as sqlite3_column_text/int64/double give it."""
    if dtype == dtypes.string:
        if value is None:
            return np.asarray(b"", dtype=object)[()]
        text = value if isinstance(value, bytes) else str(value).encode("utf-8")
        return np.asarray(text, dtype=object)[()]
    number = _number(value)
    if dtype == dtypes.float64:
        return np.float64(number)
    if dtype == dtypes.bool:
        return np.bool_(int(number) != 0)
    return np.asarray(int(number)).astype(dtype.as_numpy_dtype)[()]


def _number(value):
    if value is None:
        return 0
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    match = _NUMBER.match(value)
    return float(match.group(0)) if match else 0
