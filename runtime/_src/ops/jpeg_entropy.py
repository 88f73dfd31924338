"""Huffman coding for the JPEG encoder: a bit writer with JPEG's byte
stuffing, symbol counters, and libjpeg's `jpeg_gen_optimal_table` (the
Annex K.2 procedure with its tie-breaking), so optimized tables are TF's.
"""

import numpy as np

__all__ = ["BitWriter", "HuffmanCounter", "optimal_table"]


class BitWriter:
    """Collects (value, nbits) fields; `flush` packs them MSB first, pads the
    last byte with ones and stuffs a zero after every 0xFF byte."""

    def __init__(self):
        self.values, self.lengths = [], []

    def symbol(self, codes, value):
        code, length = codes[value]
        self.values.append(code)
        self.lengths.append(length)

    def bits(self, value, nbits):
        self.values.append(value & ((1 << nbits) - 1))
        self.lengths.append(nbits)

    def flush(self):
        if not self.values:
            return b""
        values = np.array(self.values, np.int64)
        lengths = np.array(self.lengths, np.int64)
        total = int(lengths.sum())
        ends = np.cumsum(lengths)
        owner = np.repeat(np.arange(len(values)), lengths)
        shift = ends[owner] - 1 - np.arange(total)
        bits = ((values[owner] >> shift) & 1).astype(np.uint8)
        pad = (-total) % 8
        bits = np.concatenate([bits, np.ones(pad, np.uint8)])
        data = np.packbits(bits).tobytes()
        self.values, self.lengths = [], []
        return data.replace(b"\xff", b"\xff\x00")


class HuffmanCounter:
    """Symbol frequencies for one table (libjpeg's gather pass)."""

    def __init__(self):
        self.freq = [0] * 257


def optimal_table(freq):
    """(BITS, HUFFVAL) of libjpeg's jpeg_gen_optimal_table for 256 symbol counts."""
    freq = list(freq[:256]) + [1]          # one reserved code point, so no code is all ones
    codesize = [0] * 257
    others = [-1] * 257
    while True:
        c1 = c2 = -1
        v = 1000000000
        for i in range(257):
            if freq[i] and freq[i] <= v:
                v, c1 = freq[i], i
        v = 1000000000
        for i in range(257):
            if freq[i] and freq[i] <= v and i != c1:
                v, c2 = freq[i], i
        if c2 < 0:
            break
        freq[c1] += freq[c2]
        freq[c2] = 0
        codesize[c1] += 1
        while others[c1] >= 0:
            c1 = others[c1]
            codesize[c1] += 1
        others[c1] = c2
        codesize[c2] += 1
        while others[c2] >= 0:
            c2 = others[c2]
            codesize[c2] += 1
    bits = [0] * 33
    for size in codesize:
        if size:
            bits[size] += 1
    for i in range(32, 16, -1):
        while bits[i] > 0:
            j = i - 2
            while bits[j] == 0:
                j -= 1
            bits[i] -= 2
            bits[i - 1] += 1
            bits[j + 1] += 2
            bits[j] -= 1
    i = 16
    while bits[i] == 0:
        i -= 1
    bits[i] -= 1
    values = [s for size in range(1, 33) for s in range(256) if codesize[s] == size]
    return bits[1:17], values
