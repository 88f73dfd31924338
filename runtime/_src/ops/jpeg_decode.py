"""JPEG decoding with numpy alone, giving libjpeg-turbo's pixels as
TensorFlow 2.21 calls it (`tf.io.decode_jpeg`).

    frame = read_frame(data)          # markers, tables, quantized coefficients
    pixels = decode(data, channels=3, dct_method="", fancy=True, ratio=1)

Baseline and progressive (spectral selection and successive approximation)
Huffman-coded JPEGs, 8-bit samples, one to four components, any sampling
factors, restart intervals. The inverse DCTs are libjpeg's integer ones
(`jidctfst.c`, TF's default; `jidctint.c` for INTEGER_ACCURATE; the reduced
`jidctred.c` sizes for `ratio` 2, 4 and 8), the chroma upsampling its "fancy"
triangle filters (or box replication), and the colour conversion its 16-bit
fixed-point tables, so every pixel equals TF's; CMYK and YCCK files become
RGB by TF's formula. Arithmetic coding, 12-bit samples and lossless JPEG are
refused with an InvalidArgumentError.
"""

import functools

import numpy as np

from runtime._src.core.errors import InvalidArgumentError
from runtime._src.ops import jpeg_idct
from runtime._src.ops.jpeg_scans import finish, read_scan
from runtime._src.ops.jpeg_tables import ZIGZAG, ycc_to_rgb

__all__ = ["read_frame", "decode", "jpeg_shape"]

_SOF_BASELINE = (0xC0, 0xC1)
_SOF_PROGRESSIVE = 0xC2
_SOF_UNSUPPORTED = {0xC3: "lossless", 0xC5: "hierarchical", 0xC6: "hierarchical",
                    0xC7: "hierarchical", 0xC9: "arithmetic-coded", 0xCA: "arithmetic-coded",
                    0xCB: "arithmetic-coded", 0xCD: "arithmetic-coded",
                    0xCE: "arithmetic-coded", 0xCF: "arithmetic-coded"}
_OP = "DecodeJpeg"


def _fail(message, op=_OP):
    raise InvalidArgumentError(message, op)


class Component:
    """One colour component: id, sampling factors, quantization table, and
    its quantized coefficients [block rows, block columns, 64] (natural order)."""

    def __init__(self, ident, h, v, tq):
        self.id, self.h, self.v, self.tq = ident, h, v, tq
        self.coef = None
        self.width = self.height = self.bw = self.bh = 0


class Frame:
    """What a JPEG's markers say: the size, the components, the tables, the
    scans' coefficients once read, and the Adobe/JFIF colour hints."""

    def __init__(self):
        self.width = self.height = 0
        self.progressive = False
        self.components = []
        self.quant = {}
        self.huffman = {}
        self.restart = 0
        self.adobe = None
        self.jfif = False
        self.truncated = False

    def layout(self):
        hmax = max(c.h for c in self.components)
        vmax = max(c.v for c in self.components)
        self.hmax, self.vmax = hmax, vmax
        self.mcux = -(-self.width // (8 * hmax))
        self.mcuy = -(-self.height // (8 * vmax))
        for c in self.components:
            c.width = -(-self.width * c.h // hmax)
            c.height = -(-self.height * c.v // vmax)
            c.bw, c.bh = -(-c.width // 8), -(-c.height // 8)
            c.coef = np.zeros([self.mcuy * c.v, self.mcux * c.h, 64], np.int32)


def _segments(data):
    """(marker, payload start, payload end) of each marker segment up to the
    first SOS, then each SOS with its entropy-coded data's end."""
    if data[:2] != b"\xff\xd8":
        _fail("Not a JPEG file: starts with 0x%s" % data[:2].hex())
    pos, n = 2, len(data)
    while pos < n:
        if data[pos] != 0xFF:
            pos += 1                     # garbage between markers, as libjpeg skips it
            continue
        while pos < n and data[pos] == 0xFF:
            pos += 1
        if pos >= n:
            break
        marker = data[pos]
        pos += 1
        if marker == 0xD9:
            return
        if 0xD0 <= marker <= 0xD7 or marker == 0x01:
            continue
        if pos + 2 > n:
            break
        length = (data[pos] << 8) | data[pos + 1]
        start, end = pos + 2, pos + length
        if end > n:
            break
        if marker == 0xDA:
            stop = _scan_end(data, end)
            yield marker, start, end, stop
            pos = stop
        else:
            yield marker, start, end, end
            pos = end
    yield None, n, n, n                  # the data ended without EOI


def _scan_end(data, pos):
    """Where the entropy-coded data starting at pos ends: the first marker
    that is neither a stuffed zero nor a restart marker."""
    n = len(data)
    while True:
        pos = data.find(b"\xff", pos)
        if pos < 0 or pos + 1 >= n:
            return n
        nxt = data[pos + 1]
        if nxt == 0 or 0xD0 <= nxt <= 0xD7 or nxt == 0xFF:
            pos += 1 if nxt == 0xFF else 2
            continue
        return pos


def _read_dqt(frame, seg):
    pos = 0
    while pos < len(seg):
        precision, ident = seg[pos] >> 4, seg[pos] & 15
        if precision:
            values = np.frombuffer(seg, ">u2", 64, pos + 1).astype(np.int32)
            pos += 129
        else:
            values = np.frombuffer(seg, np.uint8, 64, pos + 1).astype(np.int32)
            pos += 65
        table = np.zeros(64, np.int32)
        table[ZIGZAG] = values
        frame.quant[ident] = table


class Huffman:
    """A decoding table. `lut[16 bits] = length << 8 | symbol` (length 0 for
    bits that start no code); `fast[16 bits] = (bits, symbol, value)`: the
    code and its magnitude bits read at once, `value` already sign-extended
    (bits < 0: only the code, -bits long, fits in the window). Both are
    built when first used."""

    def __init__(self, bits, values, is_ac):
        self.bits, self.values, self.is_ac = bits, values, is_ac
        self._codes = self._lut = self._fast = None

    @property
    def codes(self):
        if self._codes is None:
            codes = np.zeros(65536, np.int64)
            code = k = 0
            for length in range(1, 17):
                for _ in range(self.bits[length - 1]):
                    codes[code << (16 - length):(code + 1) << (16 - length)] = (
                        (length << 8) | self.values[k])
                    code += 1
                    k += 1
                code <<= 1
            self._codes = codes
        return self._codes

    @property
    def lut(self):
        if self._lut is None:
            self._lut = self.codes.tolist()
        return self._lut

    @property
    def fast(self):
        if self._fast is None:
            self._fast = _fast_table(self.codes, self.is_ac)
        return self._fast


def _fast_table(lut, is_ac):
    peek = np.arange(65536, dtype=np.int64)
    length, symbol = lut >> 8, lut & 255
    size = symbol & 15 if is_ac else symbol
    total = length + size
    whole = (length > 0) & (total <= 16)
    raw = (peek >> np.clip(16 - total, 0, 16)) & ((1 << size) - 1)
    half = 1 << np.maximum(size - 1, 0)
    value = np.where(size == 0, 0, np.where(raw < half, raw - (1 << size) + 1, raw))
    bits = np.where(whole, total, -length)
    return list(zip(bits.tolist(), symbol.tolist(), np.where(whole, value, 0).tolist()))


@functools.lru_cache(maxsize=32)
def _huffman(bits, values, is_ac):
    """Tables are built once per distinct table (most files share Annex K's)."""
    return Huffman(list(bits), list(values), is_ac)


def _read_dht(frame, seg):
    pos = 0
    while pos + 17 <= len(seg):
        kind, ident = seg[pos] >> 4, seg[pos] & 15
        bits = list(seg[pos + 1:pos + 17])
        count = sum(bits)
        values = list(seg[pos + 17:pos + 17 + count])
        frame.huffman[(kind, ident)] = _huffman(bytes(bits), bytes(values), kind == 1)
        pos += 17 + count


def _read_sof(frame, seg, marker):
    if seg[0] != 8:
        _fail(f"Unsupported JPEG data precision {seg[0]}")
    frame.height = (seg[1] << 8) | seg[2]
    frame.width = (seg[3] << 8) | seg[4]
    count = seg[5]
    if frame.width == 0 or frame.height == 0 or count not in (1, 2, 3, 4):
        _fail("Invalid JPEG frame header: empty image or bad component count")
    frame.progressive = marker == _SOF_PROGRESSIVE
    for i in range(count):
        ident, hv, tq = seg[6 + 3 * i:9 + 3 * i]
        if not (1 <= hv >> 4 <= 4 and 1 <= hv & 15 <= 4):
            _fail("Invalid JPEG sampling factors")
        frame.components.append(Component(ident, hv >> 4, hv & 15, tq))
    frame.layout()


def _entropy_bytes(data, start, stop):
    """The scan's restart intervals: each as bytes with stuffing removed."""
    body = data[start:stop]
    parts, pos, last = [], 0, 0
    while True:
        pos = body.find(b"\xff", pos)
        if pos < 0 or pos + 1 >= len(body):
            break
        nxt = body[pos + 1]
        if 0xD0 <= nxt <= 0xD7:
            parts.append(body[last:pos])
            last = pos + 2
        pos += 2
    parts.append(body[last:])
    return [p.replace(b"\xff\x00", b"\xff") for p in parts]


def read_frame(data, op=_OP):
    """A Frame with every scan's coefficients read (raises for bad data)."""
    frame = Frame()
    for marker, start, end, stop in _segments(data):
        if marker is None:
            frame.truncated = True
            break
        seg = data[start:end]
        if marker == 0xDB:
            _read_dqt(frame, seg)
        elif marker == 0xC4:
            _read_dht(frame, seg)
        elif marker in _SOF_BASELINE or marker == _SOF_PROGRESSIVE:
            _read_sof(frame, seg, marker)
        elif marker in _SOF_UNSUPPORTED:
            _fail(f"Unsupported JPEG process: {_SOF_UNSUPPORTED[marker]} (SOF{marker - 0xC0})",
                  op)
        elif marker == 0xDD:
            frame.restart = (seg[0] << 8) | seg[1]
        elif marker == 0xEE and seg[:5] == b"Adobe" and len(seg) >= 12:
            frame.adobe = seg[11]
        elif marker == 0xE0 and seg[:5] == b"JFIF\x00":
            frame.jfif = True
        elif marker == 0xDA:
            if not frame.components:
                _fail("Invalid JPEG data: a scan before the frame header", op)
            if not read_scan(frame, seg, _entropy_bytes(data, end, stop)):
                frame.truncated = True
    if not frame.components:
        _fail("Invalid JPEG data: no frame header", op)
    finish(frame)
    return frame


def jpeg_shape(data, op="ExtractJpegShape"):
    """[height, width, components] from the frame header alone."""
    for marker, start, end, _ in _segments(data):
        if marker in _SOF_BASELINE or marker == _SOF_PROGRESSIVE or (
                marker in _SOF_UNSUPPORTED):
            seg = data[start:end]
            return [(seg[1] << 8) | seg[2], (seg[3] << 8) | seg[4], seg[5]]
        if marker is None or marker == 0xDA:
            break
    _fail("Invalid JPEG data: no frame header", op)


def _samples(frame, comp, dct_method, size):
    """[rows, cols] uint8 samples of one component, size x size per block."""
    q = frame.quant.get(comp.tq)
    if q is None:
        _fail(f"Invalid JPEG data: quantization table {comp.tq} is not defined")
    blocks = comp.coef[:comp.bh, :comp.bw]
    pixels = jpeg_idct.inverse(blocks.reshape(-1, 64), q, dct_method, size)
    bh, bw = blocks.shape[:2]
    return pixels.reshape(bh, bw, size, size).transpose(0, 2, 1, 3).reshape(
        bh * size, bw * size)


def _upsampled(plane, fx, fy, real, out, fancy):
    """A component's real samples (`real`: rows, columns) at the output's
    size `out`, as libjpeg's jdsample.c: fancy (triangle) filters for 2x1,
    1x2 and 2x2 where `fancy`, else replication."""
    (real_h, real_w), (height, width) = real, out
    plane = plane[:real_h, :real_w].astype(np.int32)
    if fancy and (fx, fy) in ((2, 1), (1, 2), (2, 2)):
        if fy == 2:
            up = np.concatenate([plane[:1], plane[:-1]])
            down = np.concatenate([plane[1:], plane[-1:]])
            top, bottom = plane * 3 + up, plane * 3 + down
            if fx == 1:
                out = np.stack([(top + 1) >> 2, (bottom + 2) >> 2], axis=1)
                return out.reshape(2 * real_h, real_w)[:height, :width]
            rows = np.stack([_h2(top, 8, 7, 4), _h2(bottom, 8, 7, 4)], axis=1)
            return rows.reshape(2 * real_h, 2 * real_w)[:height, :width]
        return _h2(plane, 1, 2, 2)[:height, :width]
    out = np.repeat(np.repeat(plane, fy, axis=0), fx, axis=1)
    return out[:height, :width]


def _h2(sums, even_bias, odd_bias, shift):
    """Horizontal 2x triangle filter: out[2c] = (3 s[c] + s[c-1] + even_bias)
    >> shift and out[2c+1] = (3 s[c] + s[c+1] + odd_bias) >> shift, edges
    replicated (libjpeg's h2v1/h2v2 fancy upsampling)."""
    left = np.concatenate([sums[:, :1], sums[:, :-1]], axis=1)
    right = np.concatenate([sums[:, 1:], sums[:, -1:]], axis=1)
    three = sums * 3
    out = np.stack([(three + left + even_bias) >> shift, (three + right + odd_bias) >> shift],
                   axis=2)
    return out.reshape(len(sums), -1)


def _color_space(frame):
    """libjpeg's guess of the file's colour space (jdapimin.c default_decompress_parms)."""
    n = len(frame.components)
    if n == 1:
        return "gray"
    if n == 3:
        if frame.jfif:
            return "ycc"
        if frame.adobe is not None:
            return "rgb" if frame.adobe == 0 else "ycc"
        ids = [c.id for c in frame.components]
        return "rgb" if ids == [82, 71, 66] else "ycc"
    if n == 4:
        return "ycck" if frame.adobe == 2 else "cmyk"
    return "other"


def _component_pixels(frame, comp, dct_method, min_size, fancy, columns):
    """One component's samples at the output size (the image scaled by
    min_size / 8), over output `columns` (start, width) as libjpeg-turbo's
    jpeg_crop_scanline decodes them: the edges of the window are the
    upsampler's edges."""
    hmax, vmax = frame.hmax, frame.vmax
    size = jpeg_idct.scaled_size(min_size, comp.h, comp.v, hmax, vmax)
    plane = _samples(frame, comp, dct_method, size)
    per = comp.h * size, hmax * min_size          # component columns per output column
    full_w = -(-frame.width * comp.h * size // (hmax * 8))
    start, width = columns
    real_w = -(-width * per[0] // per[1])
    plane = plane[:, start * per[0] // per[1]:]
    real = (-(-frame.height * comp.v * size // (vmax * 8)), real_w)
    out = (-(-frame.height * min_size // 8), width)
    fx, fy = hmax * min_size // (comp.h * size), vmax * min_size // (comp.v * size)
    # jdsample.c: 2x1 and 2x2 are fancy over more than 2 columns; a crop keeps the
    # full image's choice unless it leaves fewer than 2 (jpeg_crop_scanline re-inits)
    wide = (real_w if real_w < 2 <= full_w else full_w) > 2
    fancy = fancy and min_size > 1 and (fx == 1 or wide)
    return _upsampled(plane, fx, fy, real, out, fancy)


def decode(data, channels=0, dct_method="", fancy=True, ratio=1, try_recover_truncated=False,
           acceptable_fraction=1.0, crop=None, op=_OP):
    """[h, w, channels] uint8 pixels of JPEG bytes (channels 0: the file's),
    or of the window crop = (y, x, height, width) of them."""
    try:
        frame = read_frame(data, op)
    except InvalidArgumentError as e:
        _fail(f"jpeg::Uncompress failed. Invalid JPEG data or crop window. ({e.message})", op)
    if frame.truncated and not try_recover_truncated:
        _fail("jpeg::Uncompress failed. Invalid JPEG data or crop window. (the data ends "
              "early: pass try_recover_truncated=True to decode what is there)", op)
    space = _color_space(frame)
    if space == "other" or (space in ("cmyk", "ycck") and channels == 1):
        _fail("jpeg::Uncompress failed. Invalid JPEG data or crop window. (Unsupported "
              f"color conversion request: {space} to {channels} channel(s))", op)
    min_size = 8 // ratio
    out_h = -(-frame.height * min_size // 8)
    out_w = -(-frame.width * min_size // 8)
    y, x, h, w = crop if crop is not None else (0, 0, out_h, out_w)
    if min(y, x, h, w) < 0 or h == 0 or w == 0 or y + h > out_h or x + w > out_w:
        _fail("jpeg::Uncompress failed. Invalid JPEG data or crop window.", op)
    align = min_size * (frame.hmax if len(frame.components) > 1 else 1)
    start = x // align * align
    columns = (start, x + w - start)
    want = channels or (1 if space == "gray" else 3)
    comps = frame.components[:1] if want == 1 else frame.components
    planes = [_component_pixels(frame, comp, dct_method, min_size, fancy, columns)[
        y:y + h, x - start:] for comp in comps]
    if want == 1 or space == "gray":
        gray = planes[0].astype(np.uint8)
        return gray[..., None] if want == 1 else np.repeat(gray[..., None], 3, axis=-1)
    if space == "rgb":
        return np.stack(planes, axis=-1).astype(np.uint8)
    if space in ("cmyk", "ycck"):
        return _cmyk_to_rgb(planes, space, frame.adobe is not None)
    return ycc_to_rgb(*(p.astype(np.uint8) for p in planes))


def _cmyk_to_rgb(planes, space, adobe):
    """TF's RGB of a four-component JPEG: libjpeg's CMYK (YCCK converted by
    its jdcolor.c ycck_cmyk_convert), then TF's jpeg_mem.cc formula, which
    reads Adobe files' inverted inks."""
    c, m, y, k = (p.astype(np.int64) for p in planes)
    if space == "ycck":
        rgb = ycc_to_rgb(*(p.astype(np.uint8) for p in (c, m, y))).astype(np.int64)
        c, m, y = (255 - rgb[..., i] for i in range(3))
    if adobe:
        rgb = [k * c // 255, k * m // 255, k * y // 255]
    else:
        rgb = [(255 - k) * (255 - c) // 255, (255 - k) * (255 - m) // 255,
               (255 - k) * (255 - y) // 255]
    return np.stack(rgb, axis=-1).astype(np.uint8)
