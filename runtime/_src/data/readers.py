"""Datasets read from files: `tf.data.TFRecordDataset`, `TextLineDataset`,
`FixedLengthRecordDataset` (each element one record, a scalar string) and
`tf.data.experimental.CsvDataset` (a tuple of scalars per CSV record).

    TFRecordDataset(["a.tfrecord", "b.tfrecord"], compression_type="GZIP")
    TextLineDataset("lines.txt")                    # each line, without \\n or \\r\\n
    FixedLengthRecordDataset("x.bin", record_bytes=4, header_bytes=2)

`filenames` is a string, a list of them, a string tensor, or a dataset of
strings; files are read when the dataset is iterated (inside a tf.function,
when the graph runs). With `num_parallel_reads` > 1 the records of that many
files interleave, one record from each in turn, as TensorFlow's
deterministic order gives.
"""

import os

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.context import init_scope
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor import TensorSpec
from runtime._src.data import structure
from runtime._src.data.node import AUTOTUNE, DatasetNode, static_int
from runtime._src.data.env import Env
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.io.csv_record import csv_lines, split_record
from runtime._src.io.decode_ops import csv_default, csv_field
from runtime._src.io.tfrecord import TFRecordOptions
from runtime._src.io.tfrecord import TFRecordWriter as RecordFileWriter
from runtime._src.io.tfrecord import compression_of, open_stream, read_records

__all__ = ["CsvDatasetV2", "FixedLengthRecordDatasetV2", "TFRecordDatasetV2", "TFRecordWriter",
           "TextLineDatasetV2"]


class _FileDataset(DatasetNode):
    """The records of a list of files, read by `_records(path)`."""

    _WHAT = "Dataset"

    def __init__(self, filenames, compression_type, num_parallel_reads):
        if isinstance(filenames, DatasetNode):
            spec = filenames.element_spec
            if not isinstance(spec, TensorSpec) or spec.dtype != dtypes.string:
                raise TypeError(f"{self._WHAT}: `filenames` must be a dataset of tf.string "
                                f"scalars, got element_spec {spec!r}")
            self._inputs = (filenames,)
        else:
            names = structure.normalize(filenames, self._WHAT)
            if getattr(names, "dtype", None) != dtypes.string:
                got = getattr(getattr(names, "dtype", None), "name", type(names).__name__)
                raise TypeError("The `filenames` argument must contain `tf.string` elements. "
                                f"Got `tf.{got}` elements.")
            self._params = (names,)
        self._compression = compression_of(compression_type)
        self._parallel = 1
        if num_parallel_reads is not None:
            n = static_int(num_parallel_reads, "num_parallel_reads", self._WHAT)
            self._parallel = (os.cpu_count() or 1) if n == AUTOTUNE else max(1, n)
        super().__init__(TensorSpec([], dtypes.string))

    def _filenames(self, env):
        if self._inputs:
            for name in self._inputs[0]._iterate(env):
                yield _text(name)
        else:
            for name in np.ravel(env.value(self._params[0])):
                yield _text(name)

    def _iterate(self, env):
        files = self._filenames(env)
        if self._parallel == 1:
            for path in files:
                yield from self._records(path)
            return
        yield from _round_robin((self._records(p) for p in files), self._parallel)

    def _records(self, path):
        """The records of one file: each reader class defines it."""
        raise NotImplementedError(f"{type(self).__name__} must define _records")


def _text(name):
    name = name.item() if isinstance(name, np.ndarray) else name
    return name.decode("utf-8") if isinstance(name, bytes) else str(name)


def _round_robin(sources, cycle):
    """One item from each of `cycle` open sources in turn; an exhausted slot
    takes the next source when its turn comes again."""
    slots = [None] * cycle
    done, i = False, 0
    while True:
        if slots[i] is None and not done:
            slots[i] = next(sources, None)
            done = slots[i] is None
        if slots[i] is not None:
            item = next(slots[i], _END)
            if item is _END:
                slots[i] = None
            else:
                yield item
        elif done and all(s is None for s in slots):
            return
        i = (i + 1) % cycle


_END = object()


class TFRecordDatasetV2(_FileDataset):
    """`tf.data.TFRecordDataset(filenames, compression_type=None,
    buffer_size=None, num_parallel_reads=None)`: the records of TFRecord files."""

    _WHAT = "TFRecordDataset"

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        super().__init__(filenames, compression_type, num_parallel_reads)

    def _records(self, path):
        yield from read_records(path, self._compression)


class TextLineDatasetV2(_FileDataset):
    """`tf.data.TextLineDataset(filenames, compression_type=None,
    buffer_size=None, num_parallel_reads=None)`: the lines of text files,
    without their line ending ('\\n' or '\\r\\n')."""

    _WHAT = "TextLineDataset"

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        super().__init__(filenames, compression_type, num_parallel_reads)

    def _records(self, path):
        data = open_stream(path, self._compression)
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        for line in lines:
            yield line[:-1] if line.endswith(b"\r") else line


class FixedLengthRecordDatasetV2(_FileDataset):
    """`tf.data.FixedLengthRecordDataset(filenames, record_bytes,
    header_bytes=None, footer_bytes=None, buffer_size=None,
    compression_type=None, num_parallel_reads=None)`: records of
    `record_bytes` bytes each, after a header and before a footer."""

    _WHAT = "FixedLengthRecordDataset"

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None,
                 buffer_size=None, compression_type=None, num_parallel_reads=None, name=None):
        self._record = static_int(record_bytes, "record_bytes", self._WHAT)
        self._header = static_int(header_bytes or 0, "header_bytes", self._WHAT)
        self._footer = static_int(footer_bytes or 0, "footer_bytes", self._WHAT)
        if self._record <= 0:
            raise InvalidArgumentError(f"record_bytes must be positive, got {self._record}")
        super().__init__(filenames, compression_type, num_parallel_reads)

    def _records(self, path):
        data = open_stream(path, self._compression)
        body = len(data) - self._header - self._footer
        if body % self._record:
            raise InvalidArgumentError(
                f"Excluding the header ({self._header} bytes) and footer ({self._footer} "
                f'bytes), input file "{path}" has body length {body} bytes, which is not an '
                f"exact multiple of the record length ({self._record} bytes).")
        for start in range(self._header, self._header + body, self._record):
            yield data[start:start + self._record]


class CsvDatasetV2(_FileDataset):
    """`tf.data.experimental.CsvDataset(filenames, record_defaults,
    compression_type=None, buffer_size=None, header=False, field_delim=',',
    use_quote_delim=True, na_value='', select_cols=None, exclude_cols=None)`:
    a tuple of scalars per CSV record; each column's dtype and default come
    from `record_defaults` (a dtype, or an empty tensor, makes it required)."""

    _WHAT = "CsvDataset"

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None,
                 header=False, field_delim=",", use_quote_delim=True, na_value="",
                 select_cols=None, exclude_cols=None, name=None):
        with init_scope():          # Python defaults stay eager inside a trace
            self._defaults = [_csv_default(v, i) for i, v in enumerate(record_defaults)]
        if not all(hasattr(d, "_value") for d in self._defaults):
            raise TypeError("CsvDataset: record_defaults must be known when the dataset is "
                            "built (Python values or eager tensors)")
        if select_cols is not None and exclude_cols is not None:
            raise InvalidArgumentError("Either select_cols or exclude_cols should be empty")
        self._select = None if select_cols is None else [int(c) for c in select_cols]
        self._exclude = set() if exclude_cols is None else {int(c) for c in exclude_cols}
        if self._select is not None and len(self._select) != len(self._defaults):
            raise InvalidArgumentError("select_cols should match output size")
        self._header, self._quotes = bool(header), bool(use_quote_delim)
        self._delim = field_delim.encode() if isinstance(field_delim, str) else field_delim
        self._na = na_value.encode() if isinstance(na_value, str) else na_value
        super().__init__(filenames, compression_type, None)
        self._spec = tuple(TensorSpec([], d.dtype) for d in self._defaults)

    def _columns(self, count):
        if self._select is not None:
            return self._select
        return [c for c in range(count) if c not in self._exclude]

    def _records(self, path):
        lines = csv_lines(open_stream(path, self._compression), self._quotes)
        wanted = len(self._defaults)
        for line in lines[1:] if self._header else lines:
            fields = split_record(line, self._delim, self._quotes) or [b""]
            columns = self._columns(len(fields))
            if len(columns) != wanted or (self._select and self._select[-1] >= len(fields)):
                more = "more" if len(columns) > wanted else len(fields)
                raise InvalidArgumentError(f"Expect {wanted} fields but have {more} in record")
            yield tuple(self._value(fields[c], i) for i, c in enumerate(columns))

    def _value(self, text, i):
        default = self._defaults[i]
        if text == b"" or text == self._na:
            if np.asarray(default._value).size == 0:
                raise InvalidArgumentError(f"Field {i} is required but missing in record!")
            return np.asarray(default._value).reshape(-1)[0]
        value = csv_field(text, default.dtype, i, "record")
        return value if default.dtype == dtypes.string else default.dtype.np_dtype.type(value)


def _csv_default(value, i):
    if isinstance(value, dtypes.DType):
        return convert_to_tensor(np.zeros(0, value.np_dtype) if value != dtypes.string
                                 else np.array([], object), value)
    return csv_default(value, i)



# --- writing a dataset -------------------------------------------------------------------------

@define_op("DatasetToTFRecord", infer=lambda inputs, attrs: [], side_effect=True,
           num_outputs=0)
def _dataset_to_tfrecord(filename, *values, dataset, compression):
    env = Env({id(t): v for t, v in zip(dataset._symbolic(), values)})
    with RecordFileWriter(_text(filename), TFRecordOptions(compression)) as w:
        for record in dataset._iterate(env):
            w.write(bytes(record))
    return ()


not_differentiable("DatasetToTFRecord")


class TFRecordWriter:
    """`tf.data.experimental.TFRecordWriter(filename, compression_type=None)`:
    `write(dataset)` writes a dataset of scalar strings to a TFRecord file
    (eagerly at once; inside a tf.function when the graph runs)."""

    def __init__(self, filename, compression_type=None):
        self._filename = convert_to_tensor(filename, dtypes.string)
        self._compression = compression_of(compression_type)

    def write(self, dataset):
        spec = getattr(dataset, "element_spec", None)
        if not isinstance(spec, TensorSpec) or spec.dtype != dtypes.string or \
                spec.shape.rank not in (0, None):
            raise TypeError("`dataset` must produce scalar `DT_STRING` tensors whereas it "
                            f"produces {spec!r}")
        apply("DatasetToTFRecord", [self._filename] + list(dataset._symbolic()),
              {"dataset": dataset, "compression": self._compression})
