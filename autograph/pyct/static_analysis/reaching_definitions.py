"""Definedness, the part of reaching definitions the converters need: which
local names are certainly bound before each statement, and which name reads
may find their name unbound.

    def f(c):
        if c:
            y = 1
        return y      # this read of y is annotated MAYBE_UNDEFINED

`analyze(fn_node)` annotates control-flow statements with `anno.DEFINED_IN`
(a frozenset) and Name loads of the function's locals that may be unbound
with `anno.MAYBE_UNDEFINED`. Nested functions are analyzed on their own.
"""

import gast

from .. import anno, ast_util
from . import activity

_NESTED = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef,
           gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)


def analyze(fn_node, memo=None):
    """`memo`: liveness.analyze's {id(node): (reads, writes)} of this tree,
    when it ran on it just before (the tree unchanged since): a simple
    statement's writes are read there rather than found again."""
    local = activity.local_names(fn_node, memo)
    a = fn_node.args
    params = {x.id for x in a.args + a.posonlyargs + a.kwonlyargs}
    params |= {x.id for x in (a.vararg, a.kwarg) if x is not None}
    _Definedness(local, {} if memo is None else memo).block(fn_node.body, frozenset(params))


class _Definedness:
    def __init__(self, local, memo):
        self.local = local
        self.memo = memo

    def mark(self, node, defined):
        """Annotate loads in `node` (not in nested scopes) that may be unbound."""
        if node is None:
            return
        found = self.memo.get(id(node))
        if found is not None:           # what it reads (a superset of its loads here)
            local = self.local
            for r in found[0]:
                if r in local and r not in defined:
                    break
            else:
                return                  # no load to annotate: no walk
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Load):
                if n.id in self.local and n.id not in defined:
                    anno.setanno(n, anno.MAYBE_UNDEFINED, True, replace=True)
            if isinstance(n, _NESTED):
                continue
            stack.extend(ast_util.children(n))

    def block(self, stmts, defined):
        for s in stmts:
            defined = self.stmt(s, defined)
        return defined

    def stmt(self, s, d):
        anno.setanno(s, anno.DEFINED_IN, d, replace=True)
        cls = s.__class__               # by identity: trees hold gast's own classes
        if cls is gast.If:
            self.mark(s.test, d)
            return self.block(s.body, d) & self.block(s.orelse, d)
        if cls is gast.While:
            self.mark(s.test, d)
            for e in anno.getanno(s, anno.EXTRA_LOOP_TEST, []):
                self.mark(e, d)
            self.block(s.body, d)
            return self.block(s.orelse, d)
        if cls is gast.For:
            self.mark(s.iter, d)
            inner = d | activity.writes(s.target)
            for e in anno.getanno(s, anno.EXTRA_LOOP_TEST, []):
                self.mark(e, inner)
            self.block(s.body, inner)
            return self.block(s.orelse, d)
        if cls is gast.FunctionDef or cls is gast.AsyncFunctionDef:
            for dec in s.decorator_list + s.args.defaults:
                self.mark(dec, d)
            analyze(s, self.memo)
            return d | {s.name}
        if cls is gast.Try:
            after_body = self.block(s.orelse, self.block(s.body, d))
            # `except E as e` unbinds e when its handler ends.
            outs = [after_body] + [self.block(h.body, d | activity.writes(h)) - _handler_name(h)
                                   for h in s.handlers]
            common = frozenset.intersection(*outs)
            return self.block(s.finalbody, common)
        if cls is gast.Match:
            self.mark(s.subject, d)
            outs = [d]          # no case may match
            for case in s.cases:
                inner = d | activity.writes(case.pattern)
                self.mark(case.guard, inner)
                outs.append(self.block(case.body, inner))
            return frozenset.intersection(*map(frozenset, outs))
        if cls is gast.With or cls is gast.AsyncWith:
            for item in s.items:
                self.mark(item.context_expr, d)
            return self.block(s.body, d | activity.writes(s.items))
        self.mark(s, d)
        if cls is gast.Delete:
            return d - deleted_names(s)
        found = self.memo.get(id(s))
        return d | (found[1] if found is not None else activity.writes(s))


def deleted_names(node):
    """Local names a `del` statement (or the statements in `node`) unbind."""
    out = set()
    for n in ast_util.walk_scope(node if isinstance(node, list) else [node]):
        if isinstance(n, gast.Delete):
            out |= {t.id for t in n.targets if isinstance(t, gast.Name)}
    return out


def _handler_name(h):
    if h.name is None:
        return set()
    return {h.name.id if isinstance(h.name, gast.Name) else h.name}
