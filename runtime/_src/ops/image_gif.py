"""GIF decoding with numpy alone: `decode_gif` (`tf.io` and `tf.image`), and
GIF data in `decode_image`, frame for frame as TensorFlow 2.21 composes them.

    tf.io.decode_gif(tf.io.read_file("a.gif"))      # [frames, h, w, 3] uint8

TF's canvas (gif_io.cc) is as tall and wide as the largest frame, not the
logical screen. Each frame starts as a copy of the one before (black for the
first), its rectangle is painted from its own colour table or the global one,
and pixels of the frame's transparent index keep what was there; disposal
methods are not applied, as in TF. Interlaced frames are put in row order.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op, not_differentiable

__all__ = ["decode_gif", "gif_frames"]

_OP = "DecodeGif"


def _fail(message, size):
    raise InvalidArgumentError(f"Invalid GIF data (size {size}), {message}", _OP)


def _sub_blocks(data, pos):
    """The bytes of a chain of data sub-blocks starting at pos, and the end."""
    parts = []
    while pos < len(data):
        n = data[pos]
        pos += 1
        if n == 0:
            return b"".join(parts), pos
        parts.append(data[pos:pos + n])
        pos += n
    return b"".join(parts), pos


def _lzw(code_bytes, min_size, count):
    """`count` colour indices from GIF's LZW data (codes LSB first)."""
    clear, end = 1 << min_size, (1 << min_size) + 1
    stream = int.from_bytes(code_bytes, "little")
    nbits = len(code_bytes) * 8
    out = bytearray()
    table = [bytes([i]) for i in range(clear)] + [b"", b""]
    size, pos, prev = min_size + 1, 0, None
    while pos + size <= nbits and len(out) < count:
        code = (stream >> pos) & ((1 << size) - 1)
        pos += size
        if code == clear:
            table = table[:end + 1]
            size, prev = min_size + 1, None
            continue
        if code == end:
            break
        if code < len(table):
            entry = table[code]
            if prev is not None and len(table) < 4096:
                table.append(prev + entry[:1])
        elif prev is not None and code == len(table):
            entry = prev + prev[:1]
            table.append(entry)
        else:
            break                        # a code past the table: the data is corrupt
        out += entry
        prev = entry
        if len(table) == 1 << size and size < 12:
            size += 1
    return np.frombuffer(bytes(out[:count]).ljust(count, b"\0"), np.uint8)


def _deinterlaced(indices, h, w):
    rows = indices.reshape(h, w)
    order = [r for start, step in ((0, 8), (4, 8), (2, 4), (1, 2)) for r in range(start, h, step)]
    out = np.empty_like(rows)
    out[order] = rows
    return out


def _palette(data, pos, packed):
    n = 3 << ((packed & 7) + 1)
    return np.frombuffer(data, np.uint8, n, pos).reshape(-1, 3), pos + n


def _parse(data):
    """(global palette, [(left, top, w, h, indices [h, w], palette, transparent)])."""
    size = len(data)
    if data[:4] != b"GIF8":
        raise InvalidArgumentError("Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, "
                                   "BMP, WebP required.", _OP)
    if data[:6] not in (b"GIF87a", b"GIF89a") or size < 13:
        _fail("failed to open gif file: No screen descriptor detected", size)
    packed = data[10]
    pos, palette = 13, None
    if packed & 0x80:
        palette, pos = _palette(data, pos, packed)
    frames, transparent = [], -1
    while pos < size:
        kind = data[pos]
        pos += 1
        if kind == 0x3B:
            break
        if kind == 0x21:
            label = data[pos]
            body, pos = _sub_blocks(data, pos + 1)
            if label == 0xF9 and len(body) >= 4:
                transparent = body[3] if body[0] & 1 else -1
            continue
        if kind != 0x2C or pos + 9 > size:
            _fail("failed to slurp gif file: Wrong record type detected", size)
        left, top, w, h = np.frombuffer(data, "<u2", 4, pos).tolist()
        flags = data[pos + 8]
        pos += 9
        local = None
        if flags & 0x80:
            local, pos = _palette(data, pos, flags)
        min_size = data[pos]
        codes, pos = _sub_blocks(data, pos + 1)
        indices = _lzw(codes, min_size, w * h)
        indices = (_deinterlaced(indices, h, w) if flags & 0x40 else indices.reshape(h, w))
        frames.append((left, top, w, h, indices, local, transparent))
        transparent = -1
    if not frames:
        _fail("failed to slurp gif file: no image in the file", size)
    return palette, frames


def gif_frames(data, first_only=False):
    """[frames, h, w, 3] uint8: TF's composition of a GIF's frames."""
    palette, frames = _parse(data)
    if first_only:
        frames = frames[:1]
    height = max(f[3] for f in frames)
    width = max(f[2] for f in frames)
    out = np.zeros([len(frames), height, width, 3], np.uint8)
    for k, (left, top, w, h, indices, local, transparent) in enumerate(frames):
        if k:
            out[k] = out[k - 1]
        colors = local if local is not None else palette
        if colors is None:
            raise InvalidArgumentError("missing color map", _OP)
        bottom, right = min(top + h, height), min(left + w, width)
        if top >= bottom or left >= right:
            continue
        part = indices[:bottom - top, :right - left]
        if part.max() >= len(colors):
            raise InvalidArgumentError(f"found color index {int(part.max())} outside of color "
                                       f"map range {len(colors)}", _OP)
        keep = part == transparent
        region = out[k, top:bottom, left:right]
        out[k, top:bottom, left:right] = np.where(keep[..., None], region, colors[part])
    return out


def _infer(inputs, attrs):
    contents = inputs[0]
    if contents.dtype != dtypes.string or contents.shape.rank not in (None, 0):
        raise ValueError(f"contents must be a scalar string, got {contents.dtype.name} of "
                         f"shape {contents.shape}")
    return [(dtypes.uint8, TensorShape([None, None, None, 3]))]


@define_op("DecodeGif", infer=_infer)
def _decode_gif(contents):
    value = contents.item() if isinstance(contents, np.ndarray) else contents
    return gif_frames(value if isinstance(value, bytes) else str(value).encode("latin-1"))


not_differentiable("DecodeGif")


def decode_gif(contents, name=None):
    """[frames, height, width, 3] uint8 RGB frames of a GIF, composed as TF does."""
    args = (convert_to_tensor(contents),)
    _infer(args, {})
    return apply("DecodeGif", args, {})
