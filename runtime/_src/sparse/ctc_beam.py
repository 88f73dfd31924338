"""CTC prefix beam search, step by step as TensorFlow 2.21's CPU decoder (in
float32, with its beam ordering), for `tf.nn.ctc_beam_search_decoder`.

Each beam entry is a labelling prefix with the log probabilities of ending in
a blank and in its last label. At every step each entry in the beam extends
by the blank and by its own last label, then grows a child for each other
class; the beam keeps the `beam_width` most probable entries, a child
displacing the least probable one. The blank is the last class.

    >>> import numpy as np
    >>> logits = np.log(np.array([[0.6, 0.4], [0.6, 0.4]], np.float32))
    >>> beam_search(logits, beam_width=2, top_paths=2)[0][0]
    [0]
"""

import numpy as np

from runtime._src.core.errors import InvalidArgumentError

__all__ = ["beam_search"]

_F32 = np.float32
_ZERO = _F32(-np.inf)        # log(0)


class _Entry:
    """A prefix: its parent entry, last label, children by label, and (total,
    blank, label) log probabilities at the previous step (old) and this one (new)."""

    __slots__ = ("parent", "label", "children", "old", "new")

    def __init__(self, parent, label):
        self.parent, self.label, self.children = parent, label, {}
        self.old = [_ZERO, _ZERO, _ZERO]
        self.new = [_ZERO, _ZERO, _ZERO]

    def child(self, label):
        if label not in self.children:
            self.children[label] = _Entry(self, label)
        return self.children[label]

    def active(self):
        return self.new[0] != _ZERO

    def labels(self):
        out, entry = [], self
        while entry.parent is not None:
            out.append(entry.label)
            entry = entry.parent
        return out[::-1]


def _log_sum_exp(a, b):
    if a == _ZERO:
        return b
    if b == _ZERO:
        return a
    high, low = (a, b) if a > b else (b, a)
    return _F32(high + _F32(np.log1p(_F32(np.exp(_F32(low - high))))))


class _Beam:
    """The `width` most probable entries by their new total."""

    def __init__(self, width):
        self.width, self.entries = width, []

    def full(self):
        return len(self.entries) == self.width

    def bottom(self):
        return min(self.entries, key=lambda e: e.new[0])

    def push(self, entry):
        if not self.full():
            self.entries.append(entry)
        else:
            low = self.bottom()
            if entry.new[0] > low.new[0]:
                self.entries.remove(low)
                self.entries.append(entry)

    def extract(self):
        """The entries, most probable first; the beam is left empty."""
        out = sorted(self.entries, key=lambda e: -e.new[0])
        self.entries = []
        return out


def _norm_offset(row):
    high = _F32(row.max())
    total = _F32(0)
    for v in np.exp((row - high).astype(_F32)):
        total = _F32(total + v)
    return _F32(high + _F32(np.log(total)))


def _step(beam, row, blank):
    offset = _norm_offset(row)
    branches = beam.extract()
    for b in branches:
        b.old = list(b.new)
    for b in branches:
        if b.parent is not None:
            if b.parent.active():
                previous = b.parent.old[1] if b.label == b.parent.label else b.parent.old[0]
                b.new[2] = _log_sum_exp(b.new[2], previous)
            b.new[2] = _F32(b.new[2] + _F32(row[b.label] - offset))
        b.new[1] = _F32(_F32(b.old[0] + row[blank]) - offset)
        b.new[0] = _log_sum_exp(b.new[1], b.new[2])
        beam.push(b)
    for b in branches:
        if not _candidate(beam, b.old[0]):
            continue
        for label in range(blank):
            c = b.child(label)
            if c.active():
                continue
            previous = b.old[1] if c.label == b.label else b.old[0]
            c.new = [_ZERO, _ZERO, _F32(_F32(row[label] - offset) + previous)]
            c.new[0] = c.new[2]
            if _candidate(beam, c.new[0]):
                if beam.full():
                    beam.bottom().new = [_ZERO, _ZERO, _ZERO]
                beam.push(c)
            else:
                c.old, c.new = [_ZERO, _ZERO, _ZERO], [_ZERO, _ZERO, _ZERO]


def _candidate(beam, total):
    return total > _ZERO and (not beam.full() or total > beam.bottom().new[0])


def beam_search(logits, beam_width, top_paths):
    """[(labels, log probability)] of the `top_paths` best labellings of float32
    `logits` [time, classes], most probable first."""
    root = _Entry(None, -1)
    root.new = [_F32(0), _F32(0), _ZERO]
    beam = _Beam(beam_width)
    beam.push(root)
    blank = logits.shape[1] - 1
    for row in logits:
        _step(beam, row, blank)
    best = beam.extract()
    if top_paths > len(best):
        raise InvalidArgumentError("Less leaves in the beam search than requested.")
    return [(e.labels(), e.new[0]) for e in best[:top_paths]]
