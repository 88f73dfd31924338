"""Liveness: which names may be read later, before being bound again.

    x = 1          # live out: {x}
    if c:          # live out: {x, y}
        y = x
    else:
        y = 0
    return x + y

`analyze(fn_node)` annotates every statement of the function (and of nested
functions) with `anno.LIVE_OUT` and `anno.LIVE_IN`, and loops with
`anno.LOOP_HEAD`: the names live at the loop head, which includes what the
next iteration reads. Loop
variables are the names a loop body binds that are live at its head.
"""

import gast

from .. import anno
from . import activity


def analyze(fn_node, memo=None):
    """`memo`: {id(node): (reads, writes)} shared by the whole analysis (a
    loop's body is analyzed again until its head set is stable, and nested
    loops multiply that; the tree does not change meanwhile)."""
    _block(fn_node.body, frozenset(), {} if memo is None else memo)


def _activity(node, memo):
    """activity.analyze(node), once per node of this analysis."""
    found = memo.get(id(node))
    if found is None:
        found = memo[id(node)] = activity.analyze(node)
    return found


def _reads(node, memo):
    return _activity(node, memo)[0] if node is not None else set()


def _block(stmts, out, memo):
    for s in reversed(stmts):
        out = _stmt(s, out, memo)
    return out


def _extra_reads(node, memo):
    return set().union(*(_reads(e, memo) for e in anno.getanno(node, anno.EXTRA_LOOP_TEST, [])))


def _stmt(s, out, memo):
    values = s.__dict__              # anno.setanno(..., replace=True), in line
    annos = values.get(_ANNOTATIONS)
    if annos is None:
        annos = values[_ANNOTATIONS] = {}
    annos[_LIVE_OUT] = frozenset(out)
    live_in = annos[_LIVE_IN] = _live_in(s, out, memo)
    return live_in


_ANNOTATIONS, _LIVE_OUT, _LIVE_IN = anno.ANNOTATIONS, anno.LIVE_OUT, anno.LIVE_IN


def _live_in(s, out, memo):
    # The statement's class, compared by identity (trees hold gast's own
    # classes): cheaper than isinstance, asked of every statement per pass.
    cls = s.__class__
    if cls is gast.If:
        return frozenset(_reads(s.test, memo) | _block(s.body, out, memo)
                         | _block(s.orelse, out, memo))
    if cls is gast.While:
        after = _block(s.orelse, out, memo)
        head = frozenset(_reads(s.test, memo) | _extra_reads(s, memo) | after)
        while True:
            new = head | _block(s.body, head, memo)
            if new == head:
                break
            head = new
        anno.setanno(s, anno.LOOP_HEAD, head, replace=True)
        return head
    if cls is gast.For:
        after = _block(s.orelse, out, memo)
        target = activity.writes(s.target)
        head = frozenset(after | _extra_reads(s, memo))
        while True:
            new = head | (_block(s.body, head, memo) - target)
            if new == head:
                break
            head = new
        anno.setanno(s, anno.LOOP_HEAD, head, replace=True)
        return frozenset(head | _reads(s.iter, memo))
    if cls is gast.FunctionDef or cls is gast.AsyncFunctionDef:
        analyze(s, memo)
        r, w = _activity(s, memo)
        return frozenset((out - w) | r)
    if cls is gast.Return or cls is gast.Raise:
        return frozenset(_reads(s, memo))
    if cls is gast.Try:
        after = _block(s.finalbody, out, memo)
        handlers = set()
        for h in s.handlers:
            # `except E as e` binds e for the handler only (Python unbinds it).
            bound = {h.name.id if isinstance(h.name, gast.Name) else h.name} if h.name else set()
            handlers |= (_block(h.body, after, memo) - bound) | activity.reads(h.type)
        body_in = _block(s.body, _block(s.orelse, after, memo) | handlers, memo)
        return frozenset(body_in | handlers)
    if cls is gast.Match:
        # No case may match: what is live after stays live.
        live = set(out) | activity.reads(s.subject)
        for case in s.cases:
            bound = activity.writes(case.pattern)
            live |= (_block(case.body, out, memo) - bound) | activity.reads(case.pattern)
            if case.guard is not None:
                live |= activity.reads(case.guard) - bound
        return frozenset(live)
    if cls is gast.With or cls is gast.AsyncWith:
        r, w = activity.analyze([i for i in s.items])
        return frozenset(r | (_block(s.body, out, memo) - w))
    if cls is gast.Delete:      # `del z` needs z bound: a read
        r, w = _activity(s, memo)
        return frozenset(out | r | {t.id for t in s.targets if isinstance(t, gast.Name)})
    r, w = _activity(s, memo)
    return frozenset((out - w) | r)
