"""Effects: statements in a block that change a Python object the block did
not create, which a staged statement cannot carry.

    if x > 0:               # a tensor if traces both branches: `lst.pop()`
        lst.pop()           # would run twice, whatever x is at run time
        d[k] = 1            # an item whose key is not a constant
        next(it)            # an iterator advanced
        emit(1)             # emit = out.append, a bound mutating method
        total += 1          # `global total` (or nonlocal): a graph value would leak

`object_writes(fn_node, info)` lists what a whole function changes outside
itself (see there). `find(stmts, info, aliases)` lists them as `(line, text, list_name)`:
`list_name` is set for `lst = ag__.list_append(lst, x)` (an append the
call-tree converter rewrote; `list_extend` likewise), which a staged loop carries as a tensor list
and a staged if refuses only when `lst` is still a Python list. Attribute and
item assignments with constant keys are not effects: control flow carries
them as slots. Objects bound inside the block (`tmp = []`) are its own.
"""

import io
import tokenize

import gast

from .. import ast_util
from . import activity

MUTATORS = frozenset("""append extend insert pop remove clear sort reverse update setdefault
popitem add discard difference_update intersection_update symmetric_difference_update
appendleft popleft extendleft rotate __setitem__ __delitem__""".split())


def mutator_aliases(nodes):
    """Names bound to a mutating method (`emit = out.append`) among a
    function's own nodes."""
    out = set()
    for n in nodes:
        if isinstance(n, gast.Assign) and isinstance(n.value, gast.Attribute) \
                and n.value.attr in MUTATORS:
            out |= {t.id for t in n.targets if isinstance(t, gast.Name)}
    return out


def _base(node):
    """The name an attribute / subscript / call chain starts from, or None."""
    while isinstance(node, (gast.Attribute, gast.Subscript, gast.Call)):
        node = node.func if isinstance(node, gast.Call) else node.value
    return node.id if isinstance(node, gast.Name) else None


def _is_list_append(call):
    f = call.func
    return (isinstance(f, gast.Attribute) and f.attr in ("list_append", "list_extend")
            and isinstance(f.value, gast.Name) and f.value.id == "ag__"
            and call.args and isinstance(call.args[0], gast.Name))


def _is_ag_call(call):
    f = call.func
    return (isinstance(f, gast.Attribute) and f.attr == "call" and isinstance(f.value, gast.Name)
            and f.value.id == "ag__" and call.args)


def _found(node, own, aliases, outer=frozenset(), slots=False):
    """(list name or None,) when `node` is an effect, else None. `slots`:
    attribute and item writes with constant keys count too."""
    if isinstance(node, gast.Name) and isinstance(node.ctx, (gast.Store, gast.Del)):
        return (None,) if node.id in outer else None
    if isinstance(node, gast.Call):
        f = node.func
        if _is_list_append(node):
            name = node.args[0].id
            return None if name in own else (name,)
        if isinstance(f, gast.Attribute) and f.attr in MUTATORS:
            return None if _base(f.value) in own else (None,)
        if _is_ag_call(node):           # ag__.call(emit, 1): a converted call
            f = node.args[0]
        if isinstance(f, gast.Name) and f.id in aliases and f.id not in own:
            return (None,)
        if isinstance(f, gast.Name) and f.id == "next" and node.args:
            return None if _base(node.args[0]) in own else (None,)
        return None
    targets = []
    if isinstance(node, gast.Delete):
        targets = [t for t in node.targets if not isinstance(t, gast.Name)]
    elif isinstance(node, (gast.Assign, gast.AugAssign, gast.AnnAssign)):
        leaves = node.targets if isinstance(node, gast.Assign) else [node.target]
        for t in leaves:
            targets += t.elts if isinstance(t, (gast.Tuple, gast.List)) else [t]
        targets = [t for t in targets if isinstance(t, (gast.Subscript, gast.Attribute))
                   and (slots or activity.qualified_name(t) is None)]
    for t in targets:
        if _base(t) not in own:
            return (None,)
    return None


def possible(nodes, aliases=frozenset(), outer=frozenset()):
    """Whether any of `nodes` (a function's, from ast_util.walk_scope) could
    be an effect: a cheap first pass so that functions without any skip
    `find`."""
    for n in nodes:
        if isinstance(n, _CANDIDATES) and _found(n, frozenset(), aliases, outer) is not None:
            return True
    return False


_CANDIDATES = (gast.Call, gast.Name, gast.Delete, gast.Assign, gast.AugAssign, gast.AnnAssign)


def _own_names(stmts):
    """Names the block binds other than by `lst = ag__.list_append(lst, x)`."""
    skip = set()
    nodes = list(ast_util.walk_scope(stmts))
    for n in nodes:
        if isinstance(n, gast.Assign) and isinstance(n.value, gast.Call) \
                and _is_list_append(n.value):
            skip |= {id(t) for t in n.targets}
    own = set()
    for n in nodes:
        if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store) and id(n) not in skip:
            own.add(n.id)
        elif isinstance(n, (gast.FunctionDef, gast.ClassDef)):
            own.add(n.name)
    return own


def _walk_with_statement(stmts):
    """(node, innermost statement holding it) for the block, nested scopes excluded."""
    stack = [(s, s) for s in reversed(stmts)]
    while stack:
        n, stmt = stack.pop()
        yield n, stmt
        for c in reversed(list(ast_util.children(n))):
            if not isinstance(c, ast_util.FUNCTIONS):
                stack.append((c, c if isinstance(c, gast.stmt) else stmt))


def _without_comment(text):
    """The statement's text without a trailing `# comment`."""
    if "#" not in text:
        return text
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text
    for t in tokens:
        if t.type == tokenize.COMMENT:
            return text[:t.start[1]].rstrip()
    return text


def find(stmts, info, aliases=frozenset(), outer=frozenset(), slots=False):
    """The effects in `stmts` (see the module docstring), in source order.
    `outer`: names declared global or nonlocal; binding one is an effect.
    `slots`: attribute and item writes with constant keys count too."""
    own = _own_names(stmts) - set(outer)
    seen = []
    for n, stmt in _walk_with_statement(stmts):
        hit = _found(n, own, aliases, outer, slots)
        if hit is None:
            continue
        line = ast_util.user_line(stmt) or 0
        entry = (line, _without_comment(info.line_text(line)) if line else "", hit[0])
        if entry not in seen:
            seen.append(entry)
    return seen


_CONSTRUCTORS = frozenset(("__init__", "__new__", "__post_init__", "__init_subclass__"))


def object_writes(fn_node, info):
    """(line, text) of the statements of a function (its own scope) that
    change objects it did not create: its arguments' or globals' attributes
    and items (`o.count += 1`, `self.total = t`), mutating calls, `next(it)`.
    A converted function called while a staged statement is traced reports
    them (operators/calls.py). Constructors set up the object they make:
    none. Names declared global or nonlocal are outer_writes' business."""
    if fn_node.name in _CONSTRUCTORS:
        return ()
    nodes = list(ast_util.walk_scope(fn_node.body))
    aliases = mutator_aliases(nodes)
    # A cheap first pass (nothing counted as the function's own, which only
    # removes hits): most functions change nothing outside, and skip `find`.
    if not any(isinstance(n, _CANDIDATES) and _found(n, frozenset(), aliases, slots=True)
               for n in nodes):
        return ()
    return tuple((line, text) for line, text, _ in find(fn_node.body, info, aliases,
                                                         slots=True) if line)
