"""TFRecord files: `tf.io.TFRecordWriter`, `tf.io.TFRecordOptions`, and the
record reader behind `tf.data.TFRecordDataset`.

Each record is framed as TensorFlow frames it (all little-endian):

    uint64 length
    uint32 masked crc32c of the 8 length bytes
    byte   data[length]
    uint32 masked crc32c of the data

With compression 'GZIP' or 'ZLIB' the whole file is one gzip or zlib stream
of those frames (zlib's default level, as TensorFlow writes it).

    with TFRecordWriter("a.tfrecord") as w:
        w.write(example.SerializeToString())
    list(read_records("a.tfrecord"))          # [b'...']
"""

import struct
import zlib

from runtime._src.core.errors import DataLossError, FailedPreconditionError, NotFoundError
from runtime._src.io.crc32c import masked_crc32c

__all__ = ["TFRecordOptions", "TFRecordWriter", "compression_of", "frame", "inflate_error",
           "open_stream", "read_records"]

_COMPRESSIONS = {None: "", "": "", "ZLIB": "ZLIB", "GZIP": "GZIP"}
_WBITS = {"ZLIB": zlib.MAX_WBITS, "GZIP": 16 + zlib.MAX_WBITS}


class TFRecordOptions:
    """`tf.io.TFRecordOptions`: the compression of a TFRecord file ('', 'ZLIB'
    or 'GZIP') and zlib's settings for it."""

    compression_type_map = {"ZLIB": "ZLIB", "GZIP": "GZIP", "": ""}

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
                 output_buffer_size=None, window_bits=None, compression_level=None,
                 compression_method=None, mem_level=None, compression_strategy=None):
        self.compression_type = compression_of(compression_type)
        self.flush_mode = flush_mode
        self.input_buffer_size = input_buffer_size
        self.output_buffer_size = output_buffer_size
        self.window_bits = window_bits
        self.compression_level = compression_level
        self.compression_method = compression_method
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy

    @classmethod
    def get_compression_type_string(cls, options):
        """'', 'ZLIB' or 'GZIP' of options (a TFRecordOptions, a string or None)."""
        if isinstance(options, TFRecordOptions):
            return options.compression_type
        return compression_of(options)

    def _compressor(self):
        wbits = _WBITS[self.compression_type]
        if self.window_bits is not None:
            wbits = self.window_bits + (16 if self.compression_type == "GZIP" else 0)
        level = -1 if self.compression_level is None else self.compression_level
        mem_level = 9 if self.mem_level is None else self.mem_level   # TensorFlow's default
        return zlib.compressobj(level, zlib.DEFLATED, wbits, mem_level,
                                self.compression_strategy or 0)


def compression_of(value):
    """'', 'ZLIB' or 'GZIP' from a compression_type argument (a string, bytes,
    an eager string tensor, None or TFRecordOptions)."""
    if hasattr(value, "_value") and hasattr(value, "dtype"):
        value = value._value.item() if hasattr(value._value, "item") else value._value
    if isinstance(value, bytes):
        value = value.decode()
    if isinstance(value, TFRecordOptions):
        return value.compression_type
    if value not in _COMPRESSIONS:
        raise ValueError(f'Not a valid compression_type: "{value}"')
    return _COMPRESSIONS[value]


def frame(data):
    """The TFRecord frame of one record's bytes."""
    length = struct.pack("<Q", len(data))
    return (length + struct.pack("<I", masked_crc32c(length)) + data +
            struct.pack("<I", masked_crc32c(data)))


class TFRecordWriter:
    """`tf.io.TFRecordWriter(path, options=None)`: writes records (bytes) to a
    TFRecord file; a context manager. `options` is a TFRecordOptions or a
    compression type string."""

    def __init__(self, path, options=None):
        opts = options if isinstance(options, TFRecordOptions) else TFRecordOptions(options)
        self._file = open(_path(path), "wb")
        self._zip = opts._compressor() if opts.compression_type else None
        self._flush_mode = zlib.Z_PARTIAL_FLUSH if opts.flush_mode is None else opts.flush_mode

    def write(self, record):
        """Write one record (bytes, or a str written as UTF-8)."""
        if isinstance(record, str):
            record = record.encode("utf-8")
        elif not isinstance(record, (bytes, bytearray, memoryview)):
            raise TypeError(f"TFRecordWriter.write: the record must be bytes, got "
                            f"{type(record).__name__}")
        self._check_open()
        data = frame(bytes(record))
        self._file.write(self._zip.compress(data) if self._zip else data)

    def flush(self):
        """Write what is buffered (a compressed stream: zlib's partial flush, as TF)."""
        self._check_open()
        if self._zip:
            self._file.write(self._zip.flush(self._flush_mode))
        self._file.flush()

    def _check_open(self):
        if self._file.closed:
            raise FailedPreconditionError("Writer is closed.")

    def close(self):
        if self._file.closed:
            return
        if self._zip:
            self._file.write(self._zip.flush())
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        file = getattr(self, "_file", None)
        if file is not None and not file.closed:
            self.close()


def _path(path):
    if hasattr(path, "__fspath__"):
        return path.__fspath__()
    if isinstance(path, bytes):
        return path.decode("utf-8")
    return path


# --- reading -------------------------------------------------------------------------------

def _open(path):
    path = _path(path)
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise NotFoundError(f"{path}; No such file or directory") from None
    except IsADirectoryError:
        raise DataLossError(f"{path}; Is a directory") from None


def inflate_error(e):
    """TF's words for a zlib error ("Error -3 while decompressing data: why")."""
    code, _, why = str(e).partition(" while decompressing data: ")
    return DataLossError(f"inflate() failed with error {code.replace('Error ', '')}: "
                         f"{why or e}")


class _Stream:
    """Bytes of a file, inflated as they are read ('' / 'ZLIB' / 'GZIP')."""

    _CHUNK = 1 << 16

    def __init__(self, path, compression):
        self._file = _open(path)
        self._inflater = zlib.decompressobj(_WBITS[compression]) if compression else None
        self._buffer = b""

    def read(self, n):
        """The next `n` bytes, or fewer at the end of the file."""
        if self._inflater is None:
            return self._file.read(n)
        while len(self._buffer) < n:
            chunk = self._file.read(self._CHUNK)
            try:
                self._buffer += (self._inflater.decompress(chunk) if chunk else
                                 self._inflater.flush())
            except zlib.error as e:
                raise inflate_error(e) from None
            if not chunk:
                break
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def close(self):
        self._file.close()


def open_stream(path, compression):
    """The whole bytes of a file, inflated; NotFoundError if it is missing,
    DataLossError if it does not inflate."""
    stream = _Stream(path, compression)
    try:
        parts = []
        while True:
            part = stream.read(_Stream._CHUNK)
            if not part:
                return b"".join(parts)
            parts.append(part)
    finally:
        stream.close()


def _truncated(pos):
    return DataLossError(f"truncated record at {pos}' failed with Read less bytes than "
                         "requested")


def read_records(path, compression=""):
    """Yield each record's bytes of a TFRecord file as it is read, checking
    both CRCs."""
    stream, pos = _Stream(path, compression), 0
    try:
        while True:
            header = stream.read(12)
            if not header:
                return
            if len(header) < 12:
                raise _truncated(pos)
            if struct.unpack_from("<I", header, 8)[0] != masked_crc32c(header[:8]):
                hint = " (Is this even a TFRecord file?)" if pos == 0 else ""
                raise DataLossError(f"corrupted record at {pos}{hint}")
            length = struct.unpack_from("<Q", header)[0]
            body = stream.read(length + 4)
            if len(body) < length + 4:
                raise _truncated(pos)
            record = body[:length]
            if struct.unpack_from("<I", body, length)[0] != masked_crc32c(record):
                raise DataLossError(f"corrupted record at {pos + 12}")
            yield record
            pos += length + 16
    finally:
        stream.close()
