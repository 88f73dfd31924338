"""Shared by the break and continue converters: turn a jump statement into a
flag assignment and guard what follows it.

    guard(stmts, gast.Break, "break_")

    if c:                       if c:
        break                       break_ = True
    x += 1             ->       if not break_:
                                    x += 1
"""

import gast

from ..pyct import ast_util, templates


def guard(stmts, kind, flag):
    """Rewrite `stmts` (one loop body level) so `kind` jumps set `flag`."""
    out = []
    for i, s in enumerate(stmts):
        rest = stmts[i + 1:]
        if isinstance(s, kind):
            out.extend(ast_util.located(templates.replace(f"{flag} = True"), ast_util.user_line(s)))
            return out        # what follows a jump never runs
        if not ast_util.contains([s], kind, through_loops=False):
            out.append(s)
            continue
        _guard_inside(s, kind, flag)
        out.append(s)
        if rest:
            cond = templates.replace(f"if not {flag}:\n    rest", rest=guard(rest, kind, flag))
            out.extend(ast_util.located(cond, ast_util.user_line(rest[0])))
        return out
    return out


def _guard_inside(s, kind, flag):
    if isinstance(s, gast.If):
        s.body = guard(s.body, kind, flag) or [gast.Pass()]
        s.orelse = guard(s.orelse, kind, flag)
    elif isinstance(s, (gast.With, gast.AsyncWith)):
        s.body = guard(s.body, kind, flag) or [gast.Pass()]
    elif isinstance(s, gast.Try):
        s.body = guard(s.body, kind, flag) or [gast.Pass()]
        for h in s.handlers:
            h.body = guard(h.body, kind, flag) or [gast.Pass()]
        s.orelse = guard(s.orelse, kind, flag)
        s.finalbody = guard(s.finalbody, kind, flag)
