"""Small queries over gast trees shared by the converters.

    walk(node)                        # every node below, as a list
    contains(stmts, gast.Break)       # a break of *these* loops (not nested ones)?
    always_exits(stmts)               # does every path end in return/raise?
    located(new_stmts, line)          # give generated nodes the user's line
"""

import gast

from . import anno

FUNCTIONS = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)
LOOPS = (gast.While, gast.For, gast.AsyncFor)


def walk(node):
    """Every node under `node` (itself included), as a list in no fixed
    order: a faster `gast.walk` where the order does not matter."""
    out = []
    stack = [node]
    pop, push, add = stack.pop, stack.append, out.append
    while stack:
        n = pop()
        add(n)
        for field in n._fields:
            value = getattr(n, field, None)
            if value.__class__ is list:
                for c in value:
                    if isinstance(c, gast.AST):
                        push(c)
            elif isinstance(value, gast.AST):
                push(value)
    return out


def walk_scope(nodes, stop=FUNCTIONS):
    """Nodes under `nodes`, not entering nested nodes of the `stop` types."""
    stack = list(nodes) if isinstance(nodes, list) else [nodes]
    while stack:
        n = stack.pop()
        yield n
        for c in gast.iter_child_nodes(n):
            if not isinstance(c, stop):
                stack.append(c)


def contains(stmts, kind, through_loops=True):
    """True when `stmts` hold a `kind` node of this function (and, unless
    through_loops is False, of this loop level only)."""
    stop = FUNCTIONS if through_loops else FUNCTIONS + LOOPS
    return any(isinstance(n, kind) for n in walk_scope(stmts, stop))


def always_exits(stmts):
    """Every path through `stmts` ends in `return` or `raise`."""
    for s in stmts:
        if isinstance(s, (gast.Return, gast.Raise)):
            return True
        if isinstance(s, gast.If) and always_exits(s.body) and always_exits(s.orelse):
            return True
    return False


def located(stmts, line):
    """Annotate generated statements (and their parts) with the user's line.
    Nodes that already have a line (the user's own) are left, with their
    children."""
    if line is None:
        return stmts
    stack = list(stmts)
    push = stack.append
    while stack:
        n = stack.pop()
        if anno.hasanno(n, anno.USER_LINE):
            continue
        anno.setanno(n, anno.USER_LINE, line)
        for field in n._fields:
            value = getattr(n, field, None)
            if value.__class__ is list:
                for c in value:
                    if isinstance(c, gast.AST):
                        push(c)
            elif isinstance(value, gast.AST):
                push(value)
    return stmts


def user_line(node):
    return anno.getanno(node, anno.USER_LINE, None)


def name(id_, ctx=gast.Load):
    return gast.Name(id=id_, ctx=ctx(), annotation=None, type_comment=None)


def constant(value):
    return gast.Constant(value=value, kind=None)


class StatementTransformer(gast.NodeTransformer):
    """A NodeTransformer that visits statements only (never expressions):
    cheaper for rewrites of statements such as break or assert."""

    _BLOCKS = ("body", "orelse", "finalbody", "handlers")

    def generic_visit(self, node):
        for field in self._BLOCKS:
            block = getattr(node, field, None)
            if isinstance(block, list):
                new = []
                for s in block:
                    r = self.visit(s)
                    if r is None:
                        continue
                    new.extend(r if isinstance(r, list) else [r])
                setattr(node, field, new)
        return node
