"""Shared by the break and continue converters: turn a jump statement into a
flag assignment and guard what follows it.

    guard(stmts, gast.Break, "break_")

    if c:                       if c:
        break                       break_ = True
    x += 1             ->       if not break_:
                                    x += 1

A bare `if c: continue` needs no flag: what follows becomes `if not c:`.
"""

import gast

from ..pyct import ast_util


def guard(stmts, kind, flag, top=True):
    """Rewrite `stmts` so `kind` jumps set `flag`. `top`: `stmts` is the loop
    body itself (not a block nested in it), where a jump ends the iteration."""
    out = []
    for i, s in enumerate(stmts):
        rest = stmts[i + 1:]
        if isinstance(s, kind):
            out.extend(ast_util.located([ast_util.assign(flag, ast_util.constant(True))],
                                        ast_util.user_line(s)))
            return out        # what follows a jump never runs
        if not ast_util.contains([s], kind, through_loops=False):
            out.append(s)
            continue
        if top and kind is gast.Continue and _is_bare_jump_if(s, kind):
            # `if c: continue` then rest  ->  `if not c: rest` (no flag needed)
            if rest:
                new = [ast_util.if_(ast_util.not_(s.test), guard(rest, kind, flag, top))]
                out.extend(ast_util.located(new, ast_util.user_line(s)))
            return out
        _guard_inside(s, kind, flag)
        out.append(s)
        if rest:
            cond = [ast_util.if_(ast_util.not_(ast_util.name(flag)), guard(rest, kind, flag, top))]
            out.extend(ast_util.located(cond, ast_util.user_line(rest[0])))
        return out
    return out


def _is_bare_jump_if(s, kind):
    return (isinstance(s, gast.If) and not s.orelse and len(s.body) == 1
            and isinstance(s.body[0], kind))


def _guard_inside(s, kind, flag):
    if isinstance(s, gast.If):
        s.body = guard(s.body, kind, flag, False) or [gast.Pass()]
        s.orelse = guard(s.orelse, kind, flag, False)
    elif isinstance(s, (gast.With, gast.AsyncWith)):
        s.body = guard(s.body, kind, flag, False) or [gast.Pass()]
    elif isinstance(s, gast.Match):
        for case in s.cases:
            case.body = guard(case.body, kind, flag, False) or [gast.Pass()]
    elif isinstance(s, gast.Try):
        jumps = ast_util.contains(s.body, kind, through_loops=False)
        s.body = guard(s.body, kind, flag, False) or [gast.Pass()]
        for h in s.handlers:
            h.body = guard(h.body, kind, flag, False) or [gast.Pass()]
        # A jump out of the try body skips its else clause.
        orelse = guard(s.orelse, kind, flag, False)
        if orelse and jumps:
            orelse = [ast_util.if_(ast_util.not_(ast_util.name(flag)), orelse)]
        s.orelse = orelse
        s.finalbody = guard(s.finalbody, kind, flag, False)
