"""libjpeg's integer inverse DCTs, vectorized over blocks: `jidctfst.c`
(INTEGER_FAST, TensorFlow's default), `jidctint.c` (INTEGER_ACCURATE), and
`jidctred.c`'s 4x4, 2x2 and 1x1 outputs for scaled decoding. Each is the
library's fixed-point arithmetic step for step, so its samples are libjpeg's.

    inverse(coef [n, 64], quant [64], dct_method, size)   # [n, size * size] uint8
"""

import numpy as np

__all__ = ["inverse", "scaled_size"]

# jddctmgr.c: the AA&N scale factors (14 bits) that prescale INTEGER_FAST's table
_AAN = np.array([1.0] + [np.cos(k * np.pi / 16) * np.sqrt(2) for k in range(1, 8)])
_AAN_SCALES = np.round(np.outer(_AAN, _AAN).ravel() * 16384).astype(np.int64)


def _range_limit(v):
    """libjpeg's post-IDCT range limit: 10-bit wraparound, then + 128 clamped."""
    return np.clip(((v + 512) & 1023) - 512 + 128, 0, 255).astype(np.uint8)


def _descale(x, n):
    return (x + (1 << (n - 1))) >> n


# --- jidctfst.c: AA&N, CONST_BITS 8, truncating shifts --------------------------------

def _fast_1d(x):
    f1414, f1847, f1082, f2613 = 362, 473, 277, 669
    tmp10, tmp11 = x[0] + x[4], x[0] - x[4]
    tmp13 = x[2] + x[6]
    tmp12 = (((x[2] - x[6]) * f1414) >> 8) - tmp13
    t0, t3, t1, t2 = tmp10 + tmp13, tmp10 - tmp13, tmp11 + tmp12, tmp11 - tmp12
    z13, z10 = x[5] + x[3], x[5] - x[3]
    z11, z12 = x[1] + x[7], x[1] - x[7]
    t7 = z11 + z13
    tmp11 = ((z11 - z13) * f1414) >> 8
    z5 = ((z10 + z12) * f1847) >> 8
    tmp10 = ((z12 * f1082) >> 8) - z5
    tmp12 = ((z10 * -f2613) >> 8) + z5
    t6 = tmp12 - t7
    t5 = tmp11 - t6
    t4 = tmp10 + t5
    return [t0 + t7, t1 + t6, t2 + t5, t3 - t4, t3 + t4, t2 - t5, t1 - t6, t0 - t7]


def _fast(coef, quant):
    table = (quant.astype(np.int64) * _AAN_SCALES + (1 << 11)) >> 12
    blocks = (coef.astype(np.int64) * table).reshape(-1, 8, 8)
    cols = _fast_1d(list(blocks.transpose(1, 0, 2)))          # [u] -> [y], over x freq
    rows = _fast_1d(list(np.stack(cols, axis=1).transpose(2, 0, 1)))  # [v] -> [x]
    return _range_limit(np.stack(rows, axis=-1) >> 5)          # [n, y, x]


# --- jidctint.c: Loeffler-Ligtenberg-Moschytz, CONST_BITS 13, PASS1_BITS 2 -----------

def _slow_1d(x, shift_in, out_bits):
    z1 = (x[2] + x[6]) * 4433
    tmp2 = z1 + x[6] * -15137
    tmp3 = z1 + x[2] * 6270
    tmp0 = (x[0] + x[4]) << shift_in
    tmp1 = (x[0] - x[4]) << shift_in
    tmp10, tmp13, tmp11, tmp12 = tmp0 + tmp3, tmp0 - tmp3, tmp1 + tmp2, tmp1 - tmp2
    o0, o1, o2, o3 = x[7], x[5], x[3], x[1]
    z1, z2, z3, z4 = o0 + o3, o1 + o2, o0 + o2, o1 + o3
    z5 = (z3 + z4) * 9633
    o0, o1, o2, o3 = o0 * 2446, o1 * 16819, o2 * 25172, o3 * 12299
    z1, z2 = z1 * -7373, z2 * -20995
    z3, z4 = z3 * -16069 + z5, z4 * -3196 + z5
    o0 += z1 + z3
    o1 += z2 + z4
    o2 += z2 + z3
    o3 += z1 + z4
    d = out_bits
    return [_descale(tmp10 + o3, d), _descale(tmp11 + o2, d), _descale(tmp12 + o1, d),
            _descale(tmp13 + o0, d), _descale(tmp13 - o0, d), _descale(tmp12 - o1, d),
            _descale(tmp11 - o2, d), _descale(tmp10 - o3, d)]


def _slow(coef, quant):
    blocks = (coef.astype(np.int64) * quant).reshape(-1, 8, 8)
    cols = _slow_1d(list(blocks.transpose(1, 0, 2)), 13, 11)
    rows = _slow_1d(list(np.stack(cols, axis=1).transpose(2, 0, 1)), 13, 18)
    return _range_limit(np.stack(rows, axis=-1))


# --- jidctred.c: 4x4, 2x2 and 1x1 outputs (CONST_BITS 13, PASS1_BITS 2) --------------

def _red4_1d(x, out_bits):
    tmp0 = x[0] << 14
    tmp2 = x[2] * 15137 + x[6] * -6270
    tmp10, tmp12 = tmp0 + tmp2, tmp0 - tmp2
    z1, z2, z3, z4 = x[7], x[5], x[3], x[1]
    t0 = z1 * -1730 + z2 * 11893 + z3 * -17799 + z4 * 8697
    t2 = z1 * -4176 + z2 * -4926 + z3 * 7373 + z4 * 20995
    d = out_bits
    return [_descale(tmp10 + t2, d), _descale(tmp12 + t0, d), _descale(tmp12 - t0, d),
            _descale(tmp10 - t2, d)]


def _red2_1d(x, out_bits):
    tmp10 = x[0] << 15
    tmp0 = x[7] * -5906 + x[5] * 6967 + x[3] * -10426 + x[1] * 29692
    return [_descale(tmp10 + tmp0, out_bits), _descale(tmp10 - tmp0, out_bits)]


def _reduced(coef, quant, size):
    blocks = (coef.astype(np.int64) * quant).reshape(-1, 8, 8)
    if size == 1:
        return _range_limit(_descale(blocks[:, :1, :1], 3))
    one_d, first, second = (_red4_1d, 12, 19) if size == 4 else (_red2_1d, 13, 20)
    cols = one_d(list(blocks.transpose(1, 0, 2)), first)
    rows = one_d(list(np.stack(cols, axis=1).transpose(2, 0, 1)), second)
    return _range_limit(np.stack(rows, axis=-1))


def inverse(coef, quant, dct_method, size=8):
    """[n, size * size] uint8 samples of [n, 64] quantized coefficients
    (natural order) and their quantization table."""
    if size == 8:
        pixels = _slow(coef, quant) if dct_method == "INTEGER_ACCURATE" else _fast(coef, quant)
    else:
        pixels = _reduced(coef, quant, size)
    return pixels.reshape(len(coef), size * size)


def scaled_size(min_size, h, v, hmax, vmax):
    """The IDCT output size libjpeg picks for a component when the image is
    scaled to min_size / 8 (jdmaster.c: chroma scaled up by the IDCT, not
    by the upsampler, where the factors allow)."""
    size = min_size
    while (size < 8 and (hmax * min_size) % (h * size * 2) == 0
           and (vmax * min_size) % (v * size * 2) == 0):
        size *= 2
    return size
