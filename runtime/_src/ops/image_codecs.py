"""PNG and BMP images to and from bytes, with zlib and numpy alone:
`decode_png`, `encode_png`, `decode_bmp`, and `decode_image` for PNG and BMP
data, and `is_jpeg` (`tf.image` and `tf.io` names), as TensorFlow 2.21 decodes them.

    decode_png(tf.io.read_file("a.png"))             # [h, w, channels] uint8
    decode_png(data, channels=3, dtype=tf.uint16)
    encode_png(image)                                 # a scalar string

PNG: every colour type (grey, RGB, palette, with alpha), bit depths 1 to 16,
interlaced or not; a palette's tRNS chunk becomes an alpha channel (a grey or
RGB image's is ignored, as TF does). `channels` converts: grey to RGB repeats
the channel, RGB to grey is libpng's 0.299 R + 0.587 G + 0.114 B (15-bit fixed
point), alpha is dropped or added opaque. 16-bit samples to uint8 keep the high byte,
8-bit ones to uint16 are scaled by 257 (decode_image's float32: the uint16
value / 65535). BMP: uncompressed 8, 24 or 32 bits per
pixel, bottom-up or top-down. JPEG data goes to the JPEG decoder
(ops/jpeg_decode.py), GIF data to ops/image_gif.py; WebP is not decoded
(decode_image says so).
"""

import struct
import zlib

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops.image_gif import gif_frames
from runtime._src.ops.jpeg_decode import decode as decode_jpeg_bytes
from runtime._src.ops.math_ops import equal
from runtime._src.ops.text_ops import substr

__all__ = ["decode_png", "encode_png", "decode_bmp", "decode_image", "is_jpeg", "is_jpeg_bytes", "png_bytes",
           "png_pixels"]

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# samples per pixel of each PNG colour type
_SAMPLES = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
# Adam7 passes: (row start, column start, row step, column step)
_ADAM7 = [(0, 0, 8, 8), (0, 4, 8, 8), (4, 0, 8, 4), (0, 2, 4, 4), (2, 0, 4, 2), (0, 1, 2, 2),
          (1, 0, 2, 1)]


def _bytes(value):
    v = value.item() if isinstance(value, np.ndarray) else value
    return v if isinstance(v, bytes) else str(v).encode("latin-1")


def _chunks(data, op):
    if data[:8] != _PNG_MAGIC:
        raise InvalidArgumentError("Invalid PNG data, size " + str(len(data)), op)
    pos, chunks = 8, []
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunks.append((kind, data[pos + 8:pos + 8 + length]))
        pos += 12 + length
        if kind == b"IEND":
            break
    return chunks


def _unfilter(raw, rows, row_bytes, bpp):
    """The scanlines of one (sub)image with PNG's per-row filters undone."""
    out = np.zeros([rows, row_bytes], np.uint8)
    prev = np.zeros(row_bytes, np.int32)
    stride = row_bytes + 1
    for r in range(rows):
        kind = raw[r * stride]
        line = np.frombuffer(raw, np.uint8, row_bytes, r * stride + 1).astype(np.int32)
        if kind == 0:
            cur = line
        elif kind == 2:
            cur = (line + prev) & 255
        elif kind == 1:
            cur = np.zeros_like(line)
            for lane in range(bpp):
                cur[lane::bpp] = np.cumsum(line[lane::bpp]) & 255
        else:
            cur = _unfilter_serial(line, prev, bpp, kind)
        out[r] = cur
        prev = cur
    return out


def _unfilter_serial(line, prev, bpp, kind):
    """Undo the Average (3) or Paeth (4) filter of one scanline (each byte
    depends on the one bpp to its left, so this runs on Python ints)."""
    if kind not in (3, 4):
        raise InvalidArgumentError(f"Invalid PNG data: unknown filter type {kind}", "DecodePng")
    cur, up = line.tolist(), prev.tolist()
    for i in range(len(cur)):
        a = cur[i - bpp] if i >= bpp else 0
        b = up[i]
        if kind == 3:
            pred = (a + b) >> 1
        else:
            c = up[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
        cur[i] = (cur[i] + pred) & 255
    return np.array(cur, np.int32)


def _samples(rows, width, depth, samples):
    """[h, w, samples] integer samples of unfiltered scanlines."""
    if depth == 16:
        flat = rows.reshape(len(rows), -1).view(">u2").astype(np.uint16)
    elif depth == 8:
        flat = rows
    else:
        bits = np.unpackbits(rows, axis=1).reshape(len(rows), -1, depth)
        weights = (1 << np.arange(depth - 1, -1, -1)).astype(np.uint8)
        flat = (bits * weights).sum(axis=2).astype(np.uint8)
    return flat[:, :width * samples].reshape(len(rows), width, samples)


def _pixels(raw, width, height, depth, samples, interlaced):
    bpp = max(1, depth * samples // 8)

    def sub(data, w, h):
        row_bytes = (w * samples * depth + 7) // 8
        return _samples(_unfilter(data, h, row_bytes, bpp), w, depth, samples), h * (
            row_bytes + 1)
    if not interlaced:
        return sub(raw, width, height)[0]
    out = np.zeros([height, width, samples], np.uint16 if depth == 16 else np.uint8)
    pos = 0
    for r0, c0, dr, dc in _ADAM7:
        h, w = len(range(r0, height, dr)), len(range(c0, width, dc))
        if h and w:
            part, used = sub(raw[pos:], w, h)
            out[r0::dr, c0::dc] = part
            pos += used
    return out


def png_pixels(data, op="DecodePng"):
    """(pixels [h, w, c] uint8 or uint16, bit depth) of PNG bytes, palette
    expanded (its tRNS as alpha), depths below 8 scaled to 0..255."""
    chunks = _chunks(data, op)
    header = dict(chunks).get(b"IHDR")
    if header is None or len(header) < 13:
        raise InvalidArgumentError("Invalid PNG header", op)
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", header[:13])
    if color not in _SAMPLES:
        raise InvalidArgumentError(f"Invalid PNG colour type {color}", op)
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    px = _pixels(raw, width, height, depth, _SAMPLES[color], interlace == 1)
    trns = dict(chunks).get(b"tRNS")
    if color == 3:
        palette = np.frombuffer(dict(chunks)[b"PLTE"], np.uint8).reshape(-1, 3)
        rgb = palette[np.minimum(px[..., 0], len(palette) - 1)]
        if trns is not None:
            alpha = np.full(len(palette), 255, np.uint8)
            alpha[:len(trns)] = np.frombuffer(trns, np.uint8)[:len(palette)]
            rgb = np.concatenate([rgb, alpha[px[..., :1].astype(np.int64)]], axis=-1)
        return rgb, 8
    if depth < 8:
        px = (px.astype(np.uint16) * (255 // ((1 << depth) - 1))).astype(np.uint8)
    return px, max(depth, 8)


def _to_gray(rgb, dtype):
    """libpng's rgb_to_gray as TF sets it up: 0.299 R + 0.587 G + 0.114 B in
    15-bit fixed point, truncated for 8-bit samples, rounded for 16-bit."""
    r, g, b = (rgb[..., i].astype(np.int64) for i in range(3))
    half = 16384 if rgb.dtype == np.uint16 else 0
    return ((9797 * r + 19234 * g + 3737 * b + half) >> 15).astype(dtype)[..., None]


def _convert_channels(px, channels):
    have = px.shape[-1]
    if channels in (0, have):
        return px
    full = np.iinfo(px.dtype).max
    color, alpha = px[..., :3 if have >= 3 else 1], px[..., 3:] if have == 4 else (
        px[..., 1:] if have == 2 else None)
    if channels in (1, 2):
        gray = color if color.shape[-1] == 1 else _to_gray(color, px.dtype)
        if channels == 1:
            return gray
        return np.concatenate([gray, alpha if alpha is not None else np.full_like(gray, full)],
                              axis=-1)
    rgb = np.repeat(color, 3, axis=-1) if color.shape[-1] == 1 else color
    if channels == 3:
        return rgb
    return np.concatenate([rgb, alpha if alpha is not None else np.full_like(rgb[..., :1],
                                                                             full)], axis=-1)


def _infer_decode(inputs, attrs):
    contents = inputs[0]
    if contents.dtype != dtypes.string or contents.shape.rank not in (None, 0):
        raise ValueError(f"contents must be a scalar string, got {contents.dtype.name} of "
                         f"shape {contents.shape}")
    channels = attrs["channels"] or None
    return [(attrs["dtype"], TensorShape([None, None, channels]))]


@define_op("DecodePng", infer=_infer_decode)
def _decode_png(contents, *, channels, dtype):
    if not _bytes(contents).startswith(_PNG_MAGIC):   # TF's kernel decodes any format
        return _decode_image(contents, channels=channels, dtype=dtype,
                             expand_animations=False, op="DecodePng")
    px, depth = png_pixels(_bytes(contents))
    px = _convert_channels(px, channels)       # at the file's depth, as libpng
    if dtype == dtypes.uint8 and depth == 16:
        px = (px >> 8).astype(np.uint8)
    elif dtype == dtypes.uint16 and depth == 8:
        px = px.astype(np.uint16) * np.uint16(257)
    return px.astype(dtype.np_dtype)


def _check_channels(channels, allowed, op):
    channels = int(channels or 0)
    if channels not in allowed:
        names = ", ".join(str(c) for c in allowed[:-1]) + f" or {allowed[-1]}"
        raise InvalidArgumentError(f"`channels` must be {names} but got {channels}", op)
    return channels


def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    """[h, w, channels] pixels of a PNG (uint8 or uint16); channels=0 keeps
    the file's (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.uint8, dtypes.uint16):
        raise TypeError(f"decode_png: dtype must be uint8 or uint16, got {dtype.name}")
    attrs = {"channels": _check_channels(channels, (0, 1, 3, 4), "decode_png"),
             "dtype": dtype}
    args = (convert_to_tensor(contents),)
    _infer_decode(args, attrs)
    return apply("DecodePng", args, attrs)


def _chunk(kind, body):
    return (struct.pack(">I", len(body)) + kind + body +
            struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))


def png_bytes(pixels, compression=-1):
    """PNG bytes of [h, w, c] uint8/uint16 pixels (c: 1 to 4; no filtering)."""
    h, w, c = pixels.shape
    depth = 16 if pixels.dtype == np.uint16 else 8
    color = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    rows = pixels.astype(">u2" if depth == 16 else np.uint8).reshape(h, -1).view(np.uint8)
    raw = np.concatenate([np.zeros([h, 1], np.uint8), rows], axis=1).tobytes()
    level = 6 if compression in (-1, None) else int(compression)
    return (_PNG_MAGIC + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, color, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(raw, level)) + _chunk(b"IEND", b""))


def _infer_encode(inputs, attrs):
    image = inputs[0]
    if image.dtype not in (dtypes.uint8, dtypes.uint16):
        raise TypeError(f"encode_png: image must be uint8 or uint16, got {image.dtype.name}")
    dims = image.shape.dims
    if dims is not None and (len(dims) != 3 or dims[-1] not in (None, 1, 2, 3, 4)):
        got = dims[-1] if len(dims) == 3 else f"shape {image.shape}"
        raise ValueError(f"encode_png: image must have 1, 2, 3, or 4 channels, got {got}")
    return [(dtypes.string, TensorShape([]))]


@define_op("EncodePng", infer=_infer_encode)
def _encode_png(image, *, compression):
    return np.array(png_bytes(image, compression), dtype=object)


def encode_png(image, compression=-1, name=None):
    """PNG bytes (a scalar string) of a [h, w, c] uint8 or uint16 image;
    `compression` is zlib's level (-1: its default)."""
    level = int(compression)
    if not -1 <= level <= 9:
        raise ValueError(f"encode_png: compression must be in [-1, 9], got {level}")
    args = (convert_to_tensor(image),)
    _infer_encode(args, {})
    return apply("EncodePng", args, {"compression": level})


def bmp_pixels(data, channels, op="DecodeBmp"):
    """[h, w, c] uint8 pixels of uncompressed BMP bytes (BGR(A) to RGB(A))."""
    if data[:2] != b"BM" or len(data) < 54:
        raise InvalidArgumentError("Invalid BMP data: no 'BM' header", op)
    offset = struct.unpack("<I", data[10:14])[0]
    width, height = struct.unpack("<ii", data[18:26])
    bpp = struct.unpack("<H", data[28:30])[0]
    if bpp not in (8, 24, 32):
        raise InvalidArgumentError(f"Only 8, 24 and 32 bits per pixel are supported, got "
                                   f"{bpp}", op)
    c = bpp // 8
    if channels not in (0, c):
        raise InvalidArgumentError(f"channels attribute {channels} does not match bits per "
                                   f"pixel from file {c}", op)
    h, w = abs(height), width
    row = (w * c + 3) // 4 * 4
    if len(data) < offset + row * h:
        raise InvalidArgumentError("Invalid BMP data: the pixel rows are cut short", op)
    rows = np.frombuffer(data, np.uint8, row * h, offset).reshape(h, row)[:, :w * c]
    px = rows.reshape(h, w, c)
    if height > 0:
        px = px[::-1]
    if c >= 3:
        px = np.concatenate([px[..., 2::-1], px[..., 3:]], axis=-1)
    return np.ascontiguousarray(px)


@define_op("DecodeBmp", infer=lambda inputs, attrs: _infer_decode(
    inputs, {"channels": attrs["channels"], "dtype": dtypes.uint8}))
def _decode_bmp(contents, *, channels):
    return bmp_pixels(_bytes(contents), channels)


def decode_bmp(contents, channels=0, name=None):
    """[h, w, channels] uint8 pixels of an uncompressed BMP (8, 24 or 32 bits)."""
    attrs = {"channels": _check_channels(channels, (0, 1, 3, 4), "decode_bmp")}
    args = (convert_to_tensor(contents),)
    _infer_decode(args, {"channels": attrs["channels"], "dtype": dtypes.uint8})
    return apply("DecodeBmp", args, attrs)


def _from_8_bits(px, dtype):
    """8-bit pixels in decode_image's dtype, as TF's kernel scales them."""
    if dtype == dtypes.float32:
        return px.astype(np.float32) * np.float32(1 / 255)
    return px.astype(np.uint16) * np.uint16(256) if dtype == dtypes.uint16 else px


def _gif(data, channels, expand_animations, op):
    if channels not in (0, 3):
        raise InvalidArgumentError(f"channels must be 0 or 3 for GIF, got {channels}", op)
    frames = gif_frames(data, first_only=not expand_animations)
    if not expand_animations and op != "DecodeImage" and len(gif_frames(data)) > 1:
        raise InvalidArgumentError(f"Got {len(gif_frames(data))} frames, but animated gifs "
                                   f"can only be decoded by tf.io.decode_gif or "
                                   f"tf.io.decode_image", op)
    return frames if expand_animations else frames[0]


def _infer_decode_image(inputs, attrs):
    [(dtype, shape)] = _infer_decode(inputs, attrs)
    return [(dtype, TensorShape(None) if attrs.get("expand_animations", True) else shape)]


@define_op("DecodeImage", infer=_infer_decode_image)
def _decode_image(contents, *, channels, dtype, expand_animations=True, op="DecodeImage"):
    data = _bytes(contents)
    if data[:8] == _PNG_MAGIC:
        if dtype != dtypes.float32:
            return _decode_png(contents, channels=channels, dtype=dtype)
        wide = _decode_png(contents, channels=channels, dtype=dtypes.uint16)
        return wide.astype(np.float32) * np.float32(1 / 65535)
    if data[:2] == b"BM":
        if channels not in (0, 3, 4):
            raise InvalidArgumentError(f"`channels` must be 0, 3 or 4 for BMP, but got "
                                       f"{channels}", op)
        return _from_8_bits(bmp_pixels(data, channels, op), dtype)
    if is_jpeg_bytes(data):
        if channels == 4:
            raise InvalidArgumentError("JPEG does not support 4 channels", op)
        return _from_8_bits(decode_jpeg_bytes(data, channels=channels, op=op), dtype)
    if data[:4] == b"GIF8":
        return _from_8_bits(_gif(data, channels, expand_animations, op), dtype)
    if data[8:12] == b"WEBP":
        raise InvalidArgumentError("decode_image: WebP images are not decoded here (PNG, "
                                   "JPEG, GIF and BMP are)", op)
    raise InvalidArgumentError("Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, "
                               "BMP, WebP required.", op)


not_differentiable("DecodePng", "EncodePng", "DecodeBmp", "DecodeImage")


def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None,
                 expand_animations=True):
    """A PNG, JPEG, GIF or BMP image (told apart by its first bytes) as
    [h, w, c] uint8, uint16 or float32 (in [0, 1], scaled as TF's kernel
    scales); an animated GIF as [frames, h, w, 3] unless not expand_animations
    (then its first frame)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.uint8, dtypes.uint16, dtypes.float32):
        raise ValueError(f"decode_image: dtype must be uint8, uint16 or float32, got "
                         f"{dtype.name}")
    attrs = {"channels": _check_channels(channels, (0, 1, 3, 4), "decode_image"),
             "dtype": dtype, "expand_animations": bool(expand_animations)}
    args = (convert_to_tensor(contents),)
    _infer_decode_image(args, attrs)
    return apply("DecodeImage", args, attrs)


def is_jpeg_bytes(data):
    """Whether bytes start with JPEG's magic FF D8 FF."""
    return data[:3] == b"\xff\xd8\xff"


def is_jpeg(contents, name=None):
    """Whether each string starts with JPEG's magic bytes FF D8 FF (bool)."""
    return equal(substr(convert_to_tensor(contents), 0, 3), b"\xff\xd8\xff")
