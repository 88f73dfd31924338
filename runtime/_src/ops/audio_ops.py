"""`tf.audio.decode_wav` and `encode_wav`: 16-bit PCM WAV files, byte for
byte as TensorFlow writes and reads them.

A file is a RIFF header ("RIFF", size, "WAVE"), a "fmt " chunk (PCM format 1,
channels, sample rate, byte rate, block align, 16 bits per sample), any other
chunks (skipped when reading), and the "data" chunk of little-endian int16
samples, channels interleaved. Samples read as int16 / 32768; written as
round(x * 32768) clamped to [-32768, 32767] (so 1.0 becomes 32767).

    wav = encode_wav(constant([[0.5], [-0.5]]), 16000)   # 48 bytes
    audio, rate = decode_wav(wav)                        # [[0.5], [-0.5]], 16000
"""

import struct

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.context import current_graph
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op, not_differentiable

__all__ = ["decode_wav", "encode_wav"]


def _bytes(value):
    v = value.item() if isinstance(value, np.ndarray) else value
    return v if isinstance(v, bytes) else str(v).encode("utf-8")


class _Reader:
    """Reads a WAV file's fields in order, with TF's error messages."""

    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, n):
        if self.pos + n > len(self.data):
            raise InvalidArgumentError("Data too short when trying to read string", "DecodeWav")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def tag(self, expected):
        found = self.take(4)
        if found != expected:
            raise InvalidArgumentError(f"Header mismatch: Expected {expected.decode()} but found "
                                       f"{found.decode('latin-1')}", "DecodeWav")

    def number(self, fmt):
        size = struct.calcsize(fmt)
        if self.pos + size > len(self.data):
            raise InvalidArgumentError("Data too short when trying to read value", "DecodeWav")
        return struct.unpack(fmt, self.take(size))[0]


def _read_wav(data):
    """(int16 samples [frames, channels], sample rate) of a 16-bit PCM file."""
    r = _Reader(data)
    r.tag(b"RIFF")
    r.number("<I")
    r.tag(b"WAVE")
    r.tag(b"fmt ")
    fmt_size = r.number("<I")
    audio_format, channels, rate = r.number("<H"), r.number("<H"), r.number("<I")
    r.number("<I")
    r.number("<H")
    bits = r.number("<H")
    if audio_format != 1:
        raise InvalidArgumentError(f"Bad audio format for WAV: Expected 1 (PCM), but got"
                                   f"{audio_format}", "DecodeWav")
    if bits != 16:
        raise InvalidArgumentError(f"Can only read 16-bit WAV files, but received {bits}",
                                   "DecodeWav")
    if channels == 0:
        raise InvalidArgumentError("Bad number of channels for WAV file: 0", "DecodeWav")
    r.take(fmt_size - 16)
    while True:
        chunk, size = r.take(4), r.number("<I")
        if chunk == b"data":
            raw = r.take(size)
            break
        r.take(size + (size % 2))               # chunks are padded to even sizes
    frames = len(raw) // (2 * channels)
    samples = np.frombuffer(raw[:frames * 2 * channels], "<i2").reshape(frames, channels)
    return samples, rate


def _infer_decode(inputs, attrs):
    samples = attrs["desired_samples"] if attrs["desired_samples"] > 0 else None
    channels = attrs["desired_channels"] if attrs["desired_channels"] > 0 else None
    return [(dtypes.float32, TensorShape([samples, channels])), (dtypes.int32, TensorShape([]))]


@define_op("DecodeWav", infer=_infer_decode, num_outputs=2)
def _decode_wav(contents, desired_channels, desired_samples):
    samples, rate = _read_wav(_bytes(contents))
    audio = samples.astype(np.float32) / np.float32(32768)
    if desired_channels > 0:                     # missing channels repeat the last one
        index = np.minimum(np.arange(desired_channels), audio.shape[1] - 1)
        audio = audio[:, index]
    if desired_samples > 0:
        padded = np.zeros((desired_samples, audio.shape[1]), np.float32)
        keep = min(desired_samples, audio.shape[0])
        padded[:keep] = audio[:keep]
        audio = padded
    return audio, np.int32(rate)


def _infer_encode(inputs, attrs):
    audio = inputs[0]
    if audio.shape.rank not in (2, None):
        raise ValueError(f"EncodeWav: audio must be 2-dimensional [length, channels], got "
                         f"shape {audio.shape}")
    return [(dtypes.string, TensorShape([]))]


@define_op("EncodeWav", infer=_infer_encode)
def _encode_wav(audio, sample_rate):
    if audio.ndim != 2:
        raise InvalidArgumentError(f"audio must be 2-dimensional{list(audio.shape)}",
                                   "EncodeWav")
    frames, channels = audio.shape
    scaled = np.asarray(audio, np.float64) * 32768.0
    rounded = np.sign(scaled) * np.floor(np.abs(scaled) + 0.5)      # half away from zero
    data = np.clip(rounded, -32768, 32767).astype("<i2").tobytes()
    rate = int(sample_rate)
    header = (b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVE" + b"fmt " +
              struct.pack("<IHHIIHH", 16, 1, channels, rate, rate * channels * 2, channels * 2,
                          16) + b"data" + struct.pack("<I", len(data)))
    return np.array(header + data, dtype=object)


not_differentiable("DecodeWav", "EncodeWav")


def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """`tf.audio.decode_wav`: (audio float32 [samples, channels] in [-1, 1),
    sample_rate int32) of a 16-bit PCM WAV file's bytes. desired_channels
    keeps the first channels (or repeats the last); desired_samples truncates
    or pads with zeros."""
    contents = convert_to_tensor(contents, dtypes.string)
    if contents.shape.rank not in (0, None):
        raise ValueError(f"decode_wav: contents must be a scalar string, got shape "
                         f"{contents.shape}")
    return apply("DecodeWav", (contents,), {"desired_channels": int(desired_channels),
                                            "desired_samples": int(desired_samples)})


def encode_wav(audio, sample_rate, name=None):
    """`tf.audio.encode_wav`: the bytes of a 16-bit PCM WAV file of `audio`
    (float32 [length, channels], clamped to [-1, 1]) at `sample_rate` (int32)."""
    audio = convert_to_tensor(audio, dtypes.float32)
    if audio.dtype is not dtypes.float32:
        raise TypeError(f"encode_wav: audio must be float32, got {audio.dtype.name}")
    sample_rate = convert_to_tensor(sample_rate, dtypes.int32)
    if current_graph() is None and audio.shape.rank != 2:      # TF's eager error
        raise InvalidArgumentError(f"audio must be 2-dimensional{audio.shape.as_list()}",
                                   "EncodeWav")
    return apply("EncodeWav", (audio, sample_rate))
