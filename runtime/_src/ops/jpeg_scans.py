"""The entropy-coded scans of a JPEG: Huffman decoding of baseline and
progressive scans into each component's quantized coefficients (ITU T.81
Annex F and G, as libjpeg's jdhuff.c and jdphuff.c read them).

The bits are read through `win`, a list holding the 16 bits that start at
every bit position of a restart interval, so a symbol is one table lookup.
Data that ends early leaves the rest of the interval's coefficients zero, as
libjpeg does (it warns; TensorFlow then fails unless try_recover_truncated).
"""

import numpy as np

from runtime._src.core.errors import InvalidArgumentError
from runtime._src.ops.jpeg_tables import ZIGZAG

__all__ = ["read_scan"]


_PAST_END = 400      # bytes of zeros after an interval: more than one block can read


def _windows(chunk):
    """win[i]: the 16 bits starting at bit i of chunk (zeros past its end)."""
    # zero bytes past the end: a block cut short reads zeros, as libjpeg fills it
    raw = np.frombuffer(chunk + bytes(_PAST_END), np.uint8).astype(np.int32)
    three = (raw[:-2] << 16) | (raw[1:-1] << 8) | raw[2:]
    shifts = np.arange(8, 0, -1, dtype=np.int32)
    return ((three[:-1, None] >> shifts) & 0xFFFF).ravel().tolist()


def _fail(message):
    raise InvalidArgumentError(message, "DecodeJpeg")


def _flat(comp):
    """The component's coefficients as one Python list, zig-zag order per block."""
    if getattr(comp, "flat", None) is None:
        comp.flat = [0] * comp.coef.size
    return comp.flat


def finish(frame):
    """Move each component's list of coefficients into its numpy array."""
    for comp in frame.components:
        if getattr(comp, "flat", None) is not None:
            zz = np.array(comp.flat, np.int32).reshape(comp.coef.shape)
            comp.coef[..., ZIGZAG] = zz
            comp.flat = None


def _block_order(frame, comps):
    """(component index in scan, list offset) of every block in decode order,
    and the blocks per MCU."""
    if len(comps) == 1:
        c = comps[0]
        cols = c.coef.shape[1]
        r, k = np.meshgrid(np.arange(c.bh), np.arange(c.bw), indexing="ij")
        return [0] * (c.bh * c.bw), ((r * cols + k) * 64).ravel().tolist(), 1
    owners, offsets = [], []
    per_mcu = sum(c.h * c.v for c in comps)
    for my in range(frame.mcuy):
        for mx in range(frame.mcux):
            for i, c in enumerate(comps):
                cols = c.coef.shape[1]
                for v in range(c.v):
                    base = ((my * c.v + v) * cols + mx * c.h) * 64
                    for h in range(c.h):
                        owners.append(i)
                        offsets.append(base + h * 64)
    return owners, offsets, per_mcu


def read_scan(frame, seg, chunks):
    """Decode one scan (SOS payload `seg`, restart intervals `chunks`) into the
    frame's coefficients; False when the data ran out."""
    count = seg[0]
    by_id = {c.id: c for c in frame.components}
    comps, tables = [], []
    for i in range(count):
        ident, td_ta = seg[1 + 2 * i], seg[2 + 2 * i]
        if ident not in by_id:
            _fail(f"Invalid JPEG data: scan names component {ident}, not in the frame")
        comps.append(by_id[ident])
        tables.append((td_ta >> 4, td_ta & 15))
    ss, se, ah_al = seg[1 + 2 * count:4 + 2 * count]
    ah, al = ah_al >> 4, ah_al & 15
    owners, offsets, per_mcu = _block_order(frame, comps)
    restart = frame.restart * per_mcu if frame.restart else len(offsets)
    flats = [_flat(c) for c in comps]
    complete = True
    for j, start in enumerate(range(0, len(offsets), restart or 1)):
        chunk = chunks[j] if j < len(chunks) else b""
        part = slice(start, start + restart)
        args = (frame, flats, owners[part], offsets[part], tables, chunk, ss, se, ah, al)
        if frame.progressive:
            ok = _progressive(*args)
        else:
            ok = _baseline(*args)
        complete = complete and ok
    return complete


def _table(frame, kind, ident):
    table = frame.huffman.get((kind, ident))
    if table is None:
        _fail(f"Invalid JPEG data: Huffman table {'AC' if kind else 'DC'} {ident} is "
              f"not defined")
    return table


def _extend(v, s):
    return v - (1 << s) + 1 if v < (1 << (s - 1)) else v


def _baseline(frame, flats, owners, offsets, tables, chunk, ss, se, ah, al):
    win = _windows(chunk)
    limit = len(chunk) * 8
    dcs = [_table(frame, 0, td).fast for td, _ in tables]
    acs = [_table(frame, 1, ta).fast for _, ta in tables]
    preds = [0] * len(flats)
    bp = 0
    for owner, base in zip(owners, offsets):
        if bp > limit:
            return False
        flat, ac = flats[owner], acs[owner]
        t, s, v = dcs[owner][win[bp]]
        if t < 0:
            bp -= t
            v = _extend(win[bp] >> (16 - s), s)
            t = s
        bp += t
        preds[owner] += v
        flat[base] = preds[owner]
        k = 1
        while k < 64:
            t, rs, v = ac[win[bp]]
            if t > 0:
                bp += t
                if rs & 15:
                    k += rs >> 4
                    if k > 63:
                        break
                    flat[base + k] = v
                    k += 1
                elif rs == 0xF0:
                    k += 16
                else:
                    break
            elif t < 0:                  # the magnitude bits run past the window
                bp -= t
                s = rs & 15
                k += rs >> 4
                if k > 63:
                    break
                flat[base + k] = _extend(win[bp] >> (16 - s), s)
                bp += s
                k += 1
            else:                        # bits that start no code
                break
    return bp <= limit


def _progressive(frame, flats, owners, offsets, tables, chunk, ss, se, ah, al):
    win = _windows(chunk)
    limit = len(chunk) * 8
    if ss == 0:
        if ah == 0:
            dcs = [_table(frame, 0, td).lut for td, _ in tables]
            preds = [0] * len(flats)
            bp = 0
            for owner, base in zip(owners, offsets):
                if bp > limit:
                    return False
                e = dcs[owner][win[bp]]
                s = e & 255
                bp += e >> 8
                if s:
                    preds[owner] += _extend(win[bp] >> (16 - s), s)
                    bp += s
                flats[owner][base] = preds[owner] << al
            return bp <= limit
        bit = 1 << al
        for i, (owner, base) in enumerate(zip(owners, offsets)):
            if i >= limit:
                return False
            if win[i] & 0x8000:
                flats[owner][base] |= bit
        return len(offsets) <= limit
    ac = _table(frame, 1, tables[0][1]).lut
    if ah == 0:
        return _ac_first(flats[0], offsets, ac, win, limit, ss, se, al)
    return _ac_refine(flats[0], offsets, ac, win, limit, ss, se, al)


def _ac_first(flat, offsets, ac, win, limit, ss, se, al):
    eobrun = bp = 0
    for base in offsets:
        if bp > limit:
            return False
        if eobrun:
            eobrun -= 1
            continue
        k = ss
        while k <= se:
            e = ac[win[bp]]
            bp += e >> 8
            rs = e & 255
            r, s = rs >> 4, rs & 15
            if s:
                k += r
                if k > 63:
                    break
                flat[base + k] = _extend(win[bp] >> (16 - s), s) << al
                bp += s
            elif r == 15:
                k += 15
            else:
                eobrun = 1 << r
                if r:
                    eobrun += win[bp] >> (16 - r)
                    bp += r
                eobrun -= 1
                break
            k += 1
    return bp <= limit


def _ac_refine(flat, offsets, ac, win, limit, ss, se, al):
    p1, m1 = 1 << al, -1 << al
    eobrun = bp = 0
    for base in offsets:
        if bp > limit:
            return False
        k = ss
        if not eobrun:
            while k <= se:
                e = ac[win[bp]]
                bp += e >> 8
                rs = e & 255
                r, s = rs >> 4, rs & 15
                if s:
                    s = p1 if win[bp] & 0x8000 else m1
                    bp += 1
                elif r != 15:
                    eobrun = 1 << r
                    if r:
                        eobrun += win[bp] >> (16 - r)
                        bp += r
                    break
                while k <= se:
                    i = base + k
                    coef = flat[i]
                    if coef:
                        if win[bp] & 0x8000 and not coef & p1:
                            flat[i] = coef + (p1 if coef >= 0 else m1)
                        bp += 1
                    else:
                        r -= 1
                        if r < 0:
                            break
                    k += 1
                if s and k <= se:
                    flat[base + k] = s
                k += 1
        if eobrun:
            while k <= se:
                i = base + k
                coef = flat[i]
                if coef:
                    if win[bp] & 0x8000 and not coef & p1:
                        flat[i] = coef + (p1 if coef >= 0 else m1)
                    bp += 1
                k += 1
            eobrun -= 1
    return bp <= limit
