"""Progressive JPEG encoding as libjpeg's jcphuff.c does it for
`jpeg_simple_progression`: the scan script, the point transforms, EOB runs,
the buffered correction bits of refinement scans, and a table per scan
optimized from a counting pass (libjpeg always optimizes progressive tables).
"""

from runtime._src.ops.jpeg_entropy import BitWriter, HuffmanCounter, optimal_table
from runtime._src.ops.jpeg_tables import ZIGZAG, canonical_codes

__all__ = ["progressive_scans"]

_MAX_CORR_BITS = 1000


def _script(ncomps):
    """jcparam.c jpeg_simple_progression: (components, Ss, Se, Ah, Al)."""
    if ncomps == 3:
        return [((0, 1, 2), 0, 0, 0, 1), ((0,), 1, 5, 0, 2), ((2,), 1, 63, 0, 1),
                ((1,), 1, 63, 0, 1), ((0,), 6, 63, 0, 2), ((0,), 1, 63, 2, 1),
                ((0, 1, 2), 0, 0, 1, 0), ((2,), 1, 63, 1, 0), ((1,), 1, 63, 1, 0),
                ((0,), 1, 63, 1, 0)]
    return [((0,), 0, 0, 0, 1), ((0,), 1, 5, 0, 2), ((0,), 6, 63, 0, 2), ((0,), 1, 63, 2, 1),
            ((0,), 0, 0, 1, 0), ((0,), 1, 63, 1, 0)]


class _Counting:
    @staticmethod
    def symbol(counter, value):
        counter.freq[value] += 1

    @staticmethod
    def bits(value, nbits):
        pass


def _dc_first(out, comps, coefs, order, al, tables):
    last = [0] * len(comps)
    for i, r, c in order:
        value = coefs[i][r][c][0] >> al
        diff = value - last[i]
        last[i] = value
        nbits = abs(diff).bit_length()
        out.symbol(tables[i], nbits)
        if nbits:
            out.bits(diff if diff >= 0 else diff - 1, nbits)


def _dc_refine(out, coefs, order, al):
    for i, r, c in order:
        out.bits(coefs[i][r][c][0] >> al, 1)


class _ACState:
    """EOBRUN and the buffered correction bits (BE) across blocks of an AC scan."""

    def __init__(self, out, table):
        self.out, self.table, self.eobrun, self.be = out, table, 0, []

    def emit_eobrun(self):
        if self.eobrun:
            nbits = self.eobrun.bit_length() - 1
            self.out.symbol(self.table, nbits << 4)
            if nbits:
                self.out.bits(self.eobrun, nbits)
            self.eobrun = 0
            for bit in self.be:
                self.out.bits(bit, 1)
            self.be = []


def _ac_first(state, block, ss, se, al):
    out, table, run = state.out, state.table, 0
    for k in range(ss, se + 1):
        v = block[k]
        if v == 0:
            run += 1
            continue
        mag = abs(v) >> al
        if mag == 0:
            run += 1
            continue
        state.emit_eobrun()
        while run > 15:
            out.symbol(table, 0xF0)
            run -= 16
        nbits = mag.bit_length()
        out.symbol(table, (run << 4) + nbits)
        out.bits(mag if v >= 0 else ~mag, nbits)
        run = 0
    if run:
        state.eobrun += 1
        if state.eobrun == 0x7FFF:
            state.emit_eobrun()


def _ac_refine(state, block, ss, se, al):
    out, table = state.out, state.table
    values = block[ss:se + 1]
    absolute = [abs(v) >> al for v in values]
    eob = -1
    for k, a in enumerate(absolute):
        if a == 1:
            eob = k
    run, br = 0, []
    for k, a in enumerate(absolute):
        if a == 0:
            run += 1
            continue
        while run > 15 and k <= eob:
            state.emit_eobrun()
            out.symbol(table, 0xF0)
            run -= 16
            for bit in br:
                out.bits(bit, 1)
            br = []
        if a > 1:
            br.append(a & 1)
            continue
        state.emit_eobrun()
        out.symbol(table, (run << 4) + 1)
        out.bits(0 if values[k] < 0 else 1, 1)
        for bit in br:
            out.bits(bit, 1)
        br, run = [], 0
    if run or br:
        state.eobrun += 1
        state.be += br
        if state.eobrun == 0x7FFF or len(state.be) > _MAX_CORR_BITS - 64 + 1:
            state.emit_eobrun()


def _blocks_of(comp):
    """The blocks of a one-component scan: the component's own, row by row."""
    return [(0, r, c) for r in range(comp.bh) for c in range(comp.bw)]


def _interleaved(comps, indices):
    mcuy, mcux = comps[0].rows // comps[0].v, comps[0].cols // comps[0].h
    order = []
    for my in range(mcuy):
        for mx in range(mcux):
            for j, i in enumerate(indices):
                c = comps[i]
                for v in range(c.v):
                    for h in range(c.h):
                        order.append((j, my * c.v + v, mx * c.h + h))
    return order


def _run_scan(out, comps, coefs, indices, ss, se, ah, al, tables):
    scoefs = [coefs[i] for i in indices]
    if ss == 0:
        order = (_interleaved(comps, indices) if len(indices) > 1
                 else _blocks_of(comps[indices[0]]))
        if ah == 0:
            _dc_first(out, [comps[i] for i in indices], scoefs, order, al,
                      [tables[comps[i].tq] for i in indices])
        else:
            _dc_refine(out, scoefs, order, al)
        return
    state = _ACState(out, tables[comps[indices[0]].tq])
    step = _ac_first if ah == 0 else _ac_refine
    for _, r, c in _blocks_of(comps[indices[0]]):
        step(state, scoefs[0][r][c], ss, se, al)
    state.emit_eobrun()


def progressive_scans(comps, coefs, dht, sos):
    """The DHT, SOS and entropy-coded data of every scan of the script."""
    coefs = [c[..., ZIGZAG].tolist() for c in coefs]      # [row][col][k], zig-zag order
    parts = []
    for indices, ss, se, ah, al in _script(len(comps)):
        used = sorted({comps[i].tq for i in indices})
        needs_table = not (ss == 0 and ah != 0)
        table_ids = []
        for i in indices:
            tq = comps[i].tq
            table_ids.append((tq if ss == 0 and ah == 0 else 0, tq if ss else 0))
        if needs_table:
            counters = {t: HuffmanCounter() for t in used}
            _run_scan(_Counting(), comps, coefs, indices, ss, se, ah, al, counters)
            specs = {t: optimal_table(counters[t].freq) for t in used}
            codes = {t: canonical_codes(*specs[t]) for t in used}
            parts.append(dht([((1 if ss else 0, t), specs[t]) for t in used]))
        else:
            codes = {}
        writer = BitWriter()
        _run_scan(writer, comps, coefs, indices, ss, se, ah, al, codes)
        parts.append(sos([comps[i] for i in indices], table_ids, ss, se, ah, al))
        parts.append(writer.flush())
    return b"".join(parts)
