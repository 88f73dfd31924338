"""CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of
TFRecord files, and TensorFlow's "masked" form of it.

    crc32c(b"123456789")        # 0xE3069283 (the standard check value)
    masked_crc32c(b"hello")     # what a TFRecord frame stores

Short inputs run the byte-at-a-time table loop. Long ones are cut into
equal blocks whose registers numpy advances together, one byte column per
step; the blocks are then chained with a precomputed table for "advance
the register over one block of zeros" (CRC is linear over GF(2), so the
register after A+B is shift(reg(A), len(B)) ^ reg(B)). The initial value
0xFFFFFFFF is the same as flipping the first four bytes with a zero start.
"""

import numpy as np

__all__ = ["crc32c", "masked_crc32c", "mask", "unmask"]

_POLY = 0x82F63B78
_MASK_DELTA = 0xA282EAD8


def _make_table():
    table = np.arange(256, dtype=np.uint32)
    for _ in range(8):
        table = np.where(table & 1, (table >> 1) ^ np.uint32(_POLY), table >> 1).astype(
            np.uint32)
    return table


def _slice_tables(table):
    """T[k][v]: the register after v and k zero bytes (slicing-by-8)."""
    tables = [table]
    for _ in range(7):
        prev = tables[-1]
        tables.append(table[prev & 0xFF] ^ (prev >> 8))
    return [t.tolist() for t in tables]


_TABLE = _make_table()
_TABLE_LIST = _TABLE.tolist()
_T0, _T1, _T2, _T3, _T4, _T5, _T6, _T7 = _slice_tables(_TABLE)
_SHORT = 4096           # inputs shorter than this take the plain loop
_SHIFTS = {}            # block length -> 4 tables of 256 (a power of two each: few)


def _loop(data, crc):
    """The register after `data` from `crc`: 8 bytes a step, then bytewise."""
    table = _TABLE_LIST
    head = len(data) & ~7
    if head:
        t0, t1, t2, t3, t4, t5, t6, t7 = _T0, _T1, _T2, _T3, _T4, _T5, _T6, _T7
        words = np.frombuffer(data, "<u4", count=head // 4).tolist()
        for i in range(0, len(words), 2):
            lo = crc ^ words[i]
            hi = words[i + 1]
            crc = (t7[lo & 0xFF] ^ t6[(lo >> 8) & 0xFF] ^ t5[(lo >> 16) & 0xFF] ^
                   t4[lo >> 24] ^ t3[hi & 0xFF] ^ t2[(hi >> 8) & 0xFF] ^
                   t1[(hi >> 16) & 0xFF] ^ t0[hi >> 24])
    for b in data[head:]:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc


def _shift_tables(length):
    """Tables T[k][v] = the register after `length` zero bytes from v << 8k."""
    found = _SHIFTS.get(length)
    if found is None:
        state = (np.arange(256, dtype=np.uint32)[None, :] <<
                 (np.arange(4, dtype=np.uint32)[:, None] * 8)).astype(np.uint32)
        for _ in range(length):
            state = _TABLE[state & 0xFF] ^ (state >> 8)
        found = _SHIFTS[length] = state.tolist()
    return found


def _blocks(data):
    """The register (zero start) over `data`, by blocks advanced together."""
    n = len(data)
    length = 1 << max(6, (n.bit_length() + 1) // 2)
    count = -(-n // length)
    padded = np.zeros(count * length, np.uint8)      # leading zeros leave a zero register
    padded[count * length - n:] = np.frombuffer(data, np.uint8)
    padded[count * length - n:count * length - n + 4] ^= 0xFF     # the 0xFFFFFFFF start
    rows = padded.reshape(count, length)
    regs = np.zeros(count, np.uint32)
    for i in range(length):
        regs = _TABLE[(regs ^ rows[:, i]) & 0xFF] ^ (regs >> 8)
    t0, t1, t2, t3 = _shift_tables(length)
    crc = 0
    for r in regs.tolist():
        crc = (t0[crc & 0xFF] ^ t1[(crc >> 8) & 0xFF] ^ t2[(crc >> 16) & 0xFF] ^
               t3[crc >> 24] ^ r)
    return crc


def crc32c(data):
    """The CRC-32C of `data` (bytes-like), an int."""
    data = bytes(data) if not isinstance(data, bytes) else data
    if len(data) < _SHORT:
        return _loop(data, 0xFFFFFFFF) ^ 0xFFFFFFFF
    return _blocks(data) ^ 0xFFFFFFFF


def masked_crc32c(data):
    """TensorFlow's masked CRC of `data`."""
    return mask(crc32c(data))


def mask(crc):
    """TensorFlow's mask of a CRC: rotate right by 15 bits, add a constant."""
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def unmask(masked):
    """The CRC `mask` was given."""
    crc = (masked - _MASK_DELTA) & 0xFFFFFFFF
    return ((crc << 15) | (crc >> 17)) & 0xFFFFFFFF
