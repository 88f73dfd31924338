"""Summary values in TensorBoard's form, as TensorFlow 2's summary ops write them:

    scalar      a float32 scalar tensor, plugin "scalars"
    histogram   a float64 [k, 3] tensor of (left edge, right edge, count), plugin
                "histograms"; k equal-width buckets between the min and the max
                (TensorBoard's summary_v2 rule; one value: every edge is it)
    text        the string tensor, plugin "text"
    image       a string tensor [width, height, png, png, ...], plugin "images"
    audio       a string tensor [k, 2] of (16-bit WAV, label ""), plugin "audio"
                (content: AudioPluginData, encoding WAV)
    tensor      the tensor as given (`tf.summary.write`)

Built with the `tensorboard` package's protos (writer.require_tensorboard).
"""

import struct
import time
import zlib

import numpy as np

from runtime._src.core.errors import DataLossError, InvalidArgumentError
from runtime._src.ops.audio_ops import _encode_wav
from runtime._src.summary.writer import require_tensorboard

__all__ = ["event", "buckets", "png"]


def _metadata(kind, options):
    _, _, summary_pb2 = require_tensorboard("tf.summary")
    plugin = {"scalar": "scalars", "histogram": "histograms", "text": "text",
              "image": "images", "audio": "audio"}.get(kind, options.get("plugin"))
    meta = summary_pb2.SummaryMetadata(summary_description=options.get("description") or "")
    if plugin:
        meta.plugin_data.plugin_name = plugin
    if kind == "audio":
        meta.plugin_data.content = b"\x10\x0b"     # AudioPluginData(encoding=WAV)
    return meta


def _raw_summary(blobs, summary_pb2):
    """One Summary merging the serialized Summary protos of `blobs` (write_raw_pb)."""
    from google.protobuf.message import DecodeError
    summary = summary_pb2.Summary()
    for i, blob in enumerate(np.asarray(blobs, object).reshape(-1).tolist()):
        try:
            summary.MergeFromString(bytes(blob))
        except DecodeError:
            raise DataLossError(f"Bad tf.compat.v1.Summary binary proto tensor string at "
                                f"index {i}", "WriteRawProtoSummary") from None
    return summary


def event(kind, tag, value, step, options):
    """The Event protobuf of one summary value (or, for "raw", of the serialized
    Summary protos given)."""
    from tensorboard.util import tensor_util
    _, event_pb2, summary_pb2 = require_tensorboard("tf.summary")
    if kind == "raw":
        return event_pb2.Event(wall_time=time.time(), step=step,
                               summary=_raw_summary(value, summary_pb2))
    value = np.asarray(value)
    if kind == "histogram":
        value = buckets(value, options.get("buckets", 30))
    elif kind == "image":
        value = _images(value, options.get("max_outputs", 3))
    elif kind == "audio":
        value = _clips(value, options["sample_rate"], options.get("max_outputs", 3))
    elif kind == "scalar":
        value = np.float32(value)
    proto = tensor_util.make_tensor_proto(value)
    summary = summary_pb2.Summary(value=[summary_pb2.Summary.Value(
        tag=tag, tensor=proto, metadata=_metadata(kind, options))])
    return event_pb2.Event(wall_time=time.time(), step=step, summary=summary)


def buckets(data, count=30):
    """TensorBoard's histogram buckets: a float64 [count, 3] array."""
    data = np.asarray(data, dtype=np.float64).reshape(-1)
    count = max(0, int(count))
    if data.size == 0 or count == 0:
        return np.zeros((count, 3), np.float64)
    low, high = data.min(), data.max()
    if high == low:
        counts = np.zeros(count)
        counts[-1] = data.size
        edges = np.full(count, high)
        return np.stack([edges, edges, counts], axis=1)
    width = (high - low) / count
    index = np.minimum(np.floor((data - low) / width).astype(np.int64), count - 1)
    counts = np.bincount(index, minlength=count).astype(np.float64)
    edges = np.linspace(low, high, count + 1)
    edges[-1] = high
    return np.stack([edges[:-1], edges[1:], counts], axis=1)


def _images(batch, max_outputs):
    batch = np.asarray(batch)
    if batch.dtype.kind == "f":      # tf.image.convert_image_dtype(..., uint8, saturate=True)
        batch = np.clip(batch * 255.5, 0, 255).astype(np.uint8)
    elif batch.dtype != np.uint8:
        batch = np.clip(batch, 0, 255).astype(np.uint8)
    height, width = batch.shape[1], batch.shape[2]
    pngs = [png(img) for img in batch[:max_outputs]]
    return np.array([str(width).encode(), str(height).encode()] + pngs, dtype=object)


def _clips(batch, sample_rate, max_outputs):
    if max_outputs < 0:
        raise InvalidArgumentError(f"max_outputs must be non-negative, got {max_outputs}",
                                   "WriteSummary")
    wavs = [_encode_wav(clip, sample_rate).item() for clip in batch[:max_outputs]]
    return np.array([[w, b""] for w in wavs], dtype=object).reshape(-1, 2)


def png(image):
    """PNG bytes of a uint8 [h, w, c] image (c: 1 gray, 3 RGB, 4 RGBA)."""
    height, width, channels = image.shape
    color = {1: 0, 3: 2, 4: 6}[channels]
    rows = b"".join(b"\x00" + image[y].tobytes() for y in range(height))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    header = struct.pack(">IIBBBBB", width, height, 8, color, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) +
            chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
