"""JPEG encoding with numpy alone, byte for byte what TensorFlow 2.21's
`tf.io.encode_jpeg` writes through libjpeg-turbo.

    encode(pixels, quality=95, progressive=False, optimize_size=False,
           chroma_downsampling=True, density_unit="in", x_density=300,
           y_density=300, xmp_metadata="")

The steps are libjpeg's: its RGB to YCbCr tables, edge replication and 2x2
downsampling with alternating bias, the `jfdctint.c` forward DCT, quantization
by reciprocal multiplication, dummy blocks at the MCU edges, the Annex K
Huffman tables or optimal ones (`jpeg_gen_optimal_table`), and
`jpeg_simple_progression`'s scans for progressive files.
"""

import numpy as np

from runtime._src.ops import jpeg_tables as T
from runtime._src.ops.jpeg_entropy import BitWriter, HuffmanCounter, optimal_table
from runtime._src.ops.jpeg_progressive import progressive_scans

__all__ = ["encode"]


def _segment(marker, body):
    return bytes([0xFF, marker]) + (len(body) + 2).to_bytes(2, "big") + body


def _fdct_1d(x, pass1):
    """jfdctint.c's one-dimensional pass (CONST_BITS 13, PASS1_BITS 2)."""
    t0, t7 = x[0] + x[7], x[0] - x[7]
    t1, t6 = x[1] + x[6], x[1] - x[6]
    t2, t5 = x[2] + x[5], x[2] - x[5]
    t3, t4 = x[3] + x[4], x[3] - x[4]
    t10, t13, t11, t12 = t0 + t3, t0 - t3, t1 + t2, t1 - t2
    if pass1:
        out0, out4 = (t10 + t11) << 2, (t10 - t11) << 2
        bits = 11
    else:
        out0, out4 = (t10 + t11 + 2) >> 2, (t10 - t11 + 2) >> 2
        bits = 15
    half = 1 << (bits - 1)
    z1 = (t12 + t13) * 4433
    out2 = (z1 + t13 * 6270 + half) >> bits
    out6 = (z1 + t12 * -15137 + half) >> bits
    z1, z2, z3, z4 = t4 + t7, t5 + t6, t4 + t6, t5 + t7
    z5 = (z3 + z4) * 9633
    t4, t5, t6, t7 = t4 * 2446, t5 * 16819, t6 * 25172, t7 * 12299
    z1, z2 = z1 * -7373, z2 * -20995
    z3, z4 = z3 * -16069 + z5, z4 * -3196 + z5
    return [out0, (t7 + z1 + z4 + half) >> bits, out2, (t6 + z2 + z3 + half) >> bits,
            out4, (t5 + z2 + z4 + half) >> bits, out6, (t4 + z1 + z3 + half) >> bits]


def _fdct(blocks):
    """[n, 8, 8] samples (already minus 128) to [n, 8, 8] DCT coefficients x 8."""
    rows = _fdct_1d(list(blocks.transpose(2, 0, 1)), True)        # over x, per row
    cols = _fdct_1d(list(np.stack(rows, axis=-1).transpose(1, 0, 2)), False)
    return np.stack(cols, axis=1)


def _reciprocals(divisors):
    """libjpeg-turbo's compute_reciprocal: (recip, corr, shift) per divisor."""
    recip, corr, shift = [], [], []
    for d in divisors.tolist():
        if d == 1:
            recip.append(1)
            corr.append(0)
            shift.append(0)
            continue
        r = 16 + d.bit_length() - 1
        fq, fr = divmod(1 << r, d)
        c = d // 2
        if fr == 0:
            fq >>= 1
            r -= 1
        elif fr <= d // 2:
            c += 1
        else:
            fq += 1
        recip.append(fq)
        corr.append(c)
        shift.append(r)
    return (np.array(recip, np.int64), np.array(corr, np.int64), np.array(shift, np.int64))


def _quantize(coef, quant):
    recip, corr, shift = _reciprocals(quant.astype(np.int64) * 8)
    flat = coef.reshape(len(coef), 64)
    mag = ((np.abs(flat) + corr) * recip) >> shift
    return np.where(flat < 0, -mag, mag).astype(np.int32)


def _planes(pixels, sampled):
    """The component planes, converted and (for 4:2:0) downsampled, each
    padded as libjpeg pads: columns and rows replicated to whole blocks."""
    h, w = pixels.shape[:2]
    if pixels.shape[2] == 1:
        return [pixels[..., 0].astype(np.int64)]
    y, cb, cr = (p.astype(np.int64) for p in T.rgb_to_ycc(pixels))
    if not sampled:
        return [y, cb, cr]
    cols = -(-w // 16) * 16                      # the chroma's whole blocks, times two
    out = [y]
    for plane in (cb, cr):
        padded = np.pad(plane, ((0, h % 2), (0, cols - w)), mode="edge")
        sums = padded[0::2, 0::2] + padded[0::2, 1::2] + padded[1::2, 0::2] + padded[1::2, 1::2]
        bias = np.tile([1, 2], sums.shape[1] // 2)
        out.append((sums + bias) >> 2)
    return out


class _Component:
    def __init__(self, ident, h, v, tq, plane, mcux, mcuy):
        self.id, self.h, self.v, self.tq = ident, h, v, tq
        self.bw, self.bh = -(-plane.shape[1] // 8), -(-plane.shape[0] // 8)
        self.cols, self.rows = mcux * h, mcuy * v
        self.plane = plane


def _component_blocks(comp, quant):
    """[rows, cols, 64] quantized coefficients (natural order) of a component
    over its whole MCUs; dummy blocks past the image keep only a DC."""
    plane = np.pad(comp.plane, ((0, comp.bh * 8 - comp.plane.shape[0]),
                                (0, comp.bw * 8 - comp.plane.shape[1])), mode="edge")
    blocks = (plane - 128).reshape(comp.bh, 8, comp.bw, 8).transpose(0, 2, 1, 3)
    coef = _quantize(_fdct(blocks.reshape(-1, 8, 8)), quant).reshape(comp.bh, comp.bw, 64)
    full = np.zeros([comp.rows, comp.cols, 64], np.int32)
    full[:comp.bh, :comp.bw] = coef
    for c in range(comp.bw, comp.cols):          # dummy blocks at the right edge
        full[:comp.bh, c, 0] = full[:comp.bh, c - 1, 0]
    last = np.arange(comp.cols) // comp.h * comp.h + comp.h - 1
    for r in range(comp.bh, comp.rows):          # dummy block rows at the bottom take
        full[r, :, 0] = full[r - 1, last, 0]     # the DC of their MCU's block before
    return full


def _mcu_blocks(comps):
    """(component index, block) of every block in interleaved MCU order."""
    order = []
    mcuy, mcux = comps[0].rows // comps[0].v, comps[0].cols // comps[0].h
    for my in range(mcuy):
        for mx in range(mcux):
            for i, c in enumerate(comps):
                for v in range(c.v):
                    for h in range(c.h):
                        order.append((i, my * c.v + v, mx * c.h + h))
    return order


def _encode_block(out, block, last_dc, dc, ac):
    """jchuff.c encode_one_block: `block` is 64 ints in zig-zag order."""
    diff = block[0] - last_dc
    nbits = abs(diff).bit_length()
    out.symbol(dc, nbits)
    if nbits:
        out.bits(diff if diff >= 0 else diff - 1, nbits)
    run = 0
    for k in range(1, 64):
        v = block[k]
        if v == 0:
            run += 1
            continue
        while run > 15:
            out.symbol(ac, 0xF0)
            run -= 16
        nbits = abs(v).bit_length()
        out.symbol(ac, (run << 4) + nbits)
        out.bits(v if v >= 0 else v - 1, nbits)
        run = 0
    if run:
        out.symbol(ac, 0)


def _sequential_scan(comps, coefs, tables):
    """The entropy-coded data of one interleaved baseline scan."""
    order = _mcu_blocks(comps)
    zigzag = [c[..., T.ZIGZAG].tolist() for c in coefs]

    def run(out):
        last = [0] * len(comps)
        for i, r, c in order:
            block = zigzag[i][r][c]
            dc, ac = tables[comps[i].tq]
            _encode_block(out, block, last[i], dc, ac)
            last[i] = block[0]
    return run


def _dht(tables):
    body = b""
    for (kind, ident), (bits, values) in tables:
        body_one = bytes([kind << 4 | ident]) + bytes(bits) + bytes(values)
        body += _segment(0xC4, body_one)
    return body


def _headers(pixels, comps, quants, density, xmp, progressive):
    h, w = pixels.shape[:2]
    unit, xd, yd = density
    out = [b"\xff\xd8", _segment(0xE0, b"JFIF\x00\x01\x01" + bytes([unit]) +
                                 xd.to_bytes(2, "big") + yd.to_bytes(2, "big") + b"\x00\x00")]
    if xmp:
        out.append(_segment(0xE1, b"http://ns.adobe.com/xap/1.0/\x00" + xmp))
    for tq in sorted({c.tq for c in comps}):
        out.append(_segment(0xDB, bytes([tq]) + bytes(quants[tq][T.ZIGZAG].tolist())))
    sof = bytes([8]) + h.to_bytes(2, "big") + w.to_bytes(2, "big") + bytes([len(comps)])
    for c in comps:
        sof += bytes([c.id, c.h << 4 | c.v, c.tq])
    out.append(_segment(0xC2 if progressive else 0xC0, sof))
    return b"".join(out)


def _sos(comps, table_ids, ss, se, ah, al):
    body = bytes([len(comps)])
    for c, (td, ta) in zip(comps, table_ids):
        body += bytes([c.id, td << 4 | ta])
    return _segment(0xDA, body + bytes([ss, se, ah << 4 | al]))


def encode(pixels, quality=95, progressive=False, optimize_size=False,
           chroma_downsampling=True, density_unit="in", x_density=300, y_density=300,
           xmp_metadata=b""):
    """JPEG bytes of [h, w, 1 or 3] uint8 pixels, as TF's EncodeJpeg writes them."""
    gray = pixels.shape[2] == 1
    sampled = chroma_downsampling and not gray
    planes = _planes(pixels, sampled)
    quants = [T.quality_scaled(T.LUMA_QUANT, quality), T.quality_scaled(T.CHROMA_QUANT, quality)]
    hv = [(2, 2), (1, 1), (1, 1)] if sampled else [(1, 1)] * 3
    hmax = vmax = 2 if sampled else 1
    height, width = pixels.shape[:2]
    mcux, mcuy = -(-width // (8 * hmax)), -(-height // (8 * vmax))
    comps = [_Component(i + 1, hv[i][0], hv[i][1], min(i, 1), planes[i], mcux, mcuy)
             for i in range(len(planes))]
    coefs = [_component_blocks(c, quants[c.tq]) for c in comps]
    density = ({"in": 1, "cm": 2}.get(density_unit, 1), int(x_density), int(y_density))
    head = _headers(pixels, comps, quants, density, xmp_metadata, progressive)
    if progressive:
        body = progressive_scans(comps, coefs, _dht, _sos)
        return head + body + b"\xff\xd9"
    used = sorted({c.tq for c in comps})
    if optimize_size:
        counts = {t: (HuffmanCounter(), HuffmanCounter()) for t in used}
        _sequential_scan(comps, coefs, counts)(_Counting())
        specs = {t: (optimal_table(counts[t][0].freq), optimal_table(counts[t][1].freq))
                 for t in used}
    else:
        specs = {0: (T.DC_LUMA, T.AC_LUMA), 1: (T.DC_CHROMA, T.AC_CHROMA)}
    tables = {t: (T.canonical_codes(*specs[t][0]), T.canonical_codes(*specs[t][1]))
              for t in used}
    writer = BitWriter()
    _sequential_scan(comps, coefs, tables)(writer)
    dht = _dht([((k, t), specs[t][k]) for t in used for k in (0, 1)])
    sos = _sos(comps, [(c.tq, c.tq) for c in comps], 0, 63, 0, 0)
    return head + dht + sos + writer.flush() + b"\xff\xd9"


class _Counting:
    """A writer that counts symbols into HuffmanCounters (the tables passed
    to the scan are the counters) and drops the bits."""

    @staticmethod
    def symbol(counter, value):
        counter.freq[value] += 1

    @staticmethod
    def bits(value, nbits):
        pass
