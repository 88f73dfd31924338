"""Activity analysis: which names a piece of code reads and which it binds.

    reads(parse("y = x + z"))      # {'x', 'z'}
    writes(parse("y = x + z"))     # {'y'}

Scopes are respected: names bound inside a nested function, lambda, class or
comprehension are local to it and are not writes of the enclosing code; the
free names such a nested scope reads are reads of the enclosing code (a
closure reads them when it runs). Attribute and subscript targets
(`a.b = 1`, `d[k] = 1`) read their base (`a`, `d`) and bind nothing.
"""

import gast

from .. import ast_util

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef,
           gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)


def _as_list(node):
    if node is None:
        return []
    return node if isinstance(node, list) else [node]


class _Activity(ast_util.NodeVisitor):
    def __init__(self):
        self.read = set()
        self.written = set()

    def visit_Name(self, node):
        if isinstance(node.ctx, gast.Load):
            self.read.add(node.id)
        elif isinstance(node.ctx, (gast.Store, gast.Del)):
            self.written.add(node.id)
        # Param names belong to the function that declares them.

    def generic_visit(self, node):
        """The nodes under `node`, in one loop: names are noted here, and
        only nodes with a visit_ method of their own are dispatched (the
        result is a pair of sets: the order of the walk does not matter)."""
        read, written, special = self.read, self.written, _SPECIAL
        stack = ast_util.children(node)
        get, make = ast_util._CHILDREN.get, ast_util._children_function
        while stack:
            n = stack.pop()
            cls = n.__class__
            if cls is gast.Name:
                ctx = n.ctx.__class__
                if ctx is gast.Load:
                    read.add(n.id)
                elif ctx is gast.Store or ctx is gast.Del:
                    written.add(n.id)
            elif cls in special:
                self.visit(n)
            else:                 # ast_util.children(n), in line
                stack.extend((get(cls) or make(cls))(n))

    def visit_AugAssign(self, node):
        if isinstance(node.target, gast.Name):
            self.read.add(node.target.id)
        self.generic_visit(node)

    def visit_NamedExpr(self, node):
        self.written.add(node.target.id)
        self.visit(node.value)

    # Names a match pattern captures (`case (a, *rest)`, `case {**more}`).
    def visit_MatchAs(self, node):
        if node.name is not None:
            self.written.add(node.name)
        if node.pattern is not None:
            self.visit(node.pattern)

    def visit_MatchStar(self, node):
        if node.name is not None:
            self.written.add(node.name)

    def visit_MatchMapping(self, node):
        if node.rest is not None:
            self.written.add(node.rest)
        self.generic_visit(node)

    def visit_Global(self, node):
        pass

    visit_Nonlocal = visit_Global

    def visit_Import(self, node):
        for alias in node.names:
            self.written.add((alias.asname or alias.name).split(".")[0])

    visit_ImportFrom = visit_Import

    def visit_ExceptHandler(self, node):
        if node.name is not None:
            self.written.add(node.name.id if isinstance(node.name, gast.Name) else node.name)
        if node.type is not None:
            self.visit(node.type)
        for s in node.body:
            self.visit(s)

    def _nested_scope(self, node, name=None):
        inner = _Activity()
        inner.generic_visit(node)
        bound = inner.written | (_params(node) if hasattr(node, "args") else set())
        self.read |= inner.read - bound
        if name is not None:
            self.written.add(name)

    def visit_FunctionDef(self, node):
        for d in node.decorator_list:
            self.visit(d)
        for d in node.args.defaults + [k for k in node.args.kw_defaults if k is not None]:
            self.visit(d)
        inner = _Activity()
        for s in node.body:
            inner.visit(s)
        self.read |= inner.read - inner.written - _params(node) - _declared_free(node)
        self.read |= inner.read & _declared_free(node)
        self.written.add(node.name)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        for d in node.args.defaults:
            self.visit(d)
        inner = _Activity()
        inner.visit(node.body)
        self.read |= inner.read - _params(node) - inner.written

    def visit_ClassDef(self, node):
        for b in node.bases + node.decorator_list:
            self.visit(b)
        self._nested_scope(node, node.name)

    def _comprehension(self, node):
        inner = _Activity()
        bound = set()
        for gen in node.generators:
            inner.visit(gen.iter)
            t = _Activity()
            t.visit(gen.target)
            bound |= t.written
            for cond in gen.ifs:
                inner.visit(cond)
        for field in ("elt", "key", "value"):
            if hasattr(node, field):
                inner.visit(getattr(node, field))
        self.read |= inner.read - bound
        self.written |= inner.written - bound   # walrus targets leak out

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension


# The node classes _Activity has a visit_ method for (see generic_visit).
_SPECIAL = frozenset(getattr(gast, name[len("visit_"):]) for name in vars(_Activity)
                     if name.startswith("visit_") and hasattr(gast, name[len("visit_"):]))


def _params(node):
    a = node.args
    names = {x.id for x in a.args + a.posonlyargs + a.kwonlyargs}
    for x in (a.vararg, a.kwarg):
        if x is not None:
            names.add(x.id)
    return names


def _declared_free(node):
    """Names declared global/nonlocal anywhere in `node` (memoized on it)."""
    cached = node.__dict__.get("_ag_declared_free")
    if cached is not None:
        return cached
    out = set()
    for n in ast_util.walk(node):
        if isinstance(n, (gast.Global, gast.Nonlocal)):
            out |= set(n.names)
    out = frozenset(out)
    node.__dict__["_ag_declared_free"] = out
    return out


def analyze(nodes):
    """(reads, writes) of a node or list of nodes."""
    a = _Activity()
    for n in _as_list(nodes):
        a.visit(n)
    return a.read, a.written


def reads(nodes):
    return analyze(nodes)[0]


def writes(nodes):
    return analyze(nodes)[1]


def local_names(fn_node, memo=None):
    """Names local to a function: its parameters and every name it binds,
    minus names declared global or nonlocal. `memo`: see `known_writes`."""
    if memo is not None:
        written = known_writes(fn_node.body, memo)
    else:
        a = _Activity()
        for s in fn_node.body:
            a.visit(s)
        written = a.written
    # Only the function's own declarations: `nonlocal y` in a nested function
    # refers to this function's y.
    return (written | _params(fn_node)) - declared_free(fn_node)


def known_writes(stmts, memo):
    """writes(stmts), read where it can be from `memo`: {id(node): (reads,
    writes)} of nodes analyzed before (liveness.analyze's), all of them
    still in the tree and unchanged since. A compound `if` or `while`
    binds what its test and its blocks bind."""
    out = set()
    for s in stmts:
        found = memo.get(id(s))
        if found is not None:
            out |= found[1]
            continue
        cls = s.__class__
        test = memo.get(id(s.test)) if cls is gast.If or cls is gast.While else None
        if test is None:
            out |= writes(s)
            continue
        out |= test[1]
        out |= known_writes(s.body, memo)
        out |= known_writes(s.orelse, memo)
    return out


def declared_free(fn_node):
    """Names declared `global` or `nonlocal` directly in a function (memoized
    on it: converters never add declarations to a function they keep)."""
    cached = fn_node.__dict__.get("_ag_declared_own")
    if cached is not None:
        return cached
    out = set()
    for s in fn_node.body:
        for n in _walk_same_scope(s):
            if isinstance(n, (gast.Global, gast.Nonlocal)):
                out |= set(n.names)
    out = frozenset(out)
    fn_node.__dict__["_ag_declared_own"] = out
    return out


def none_declared_free(fn_node, nodes):
    """Note on `fn_node` and the functions nested in it that they declare
    nothing `global` or `nonlocal`; `nodes`: every node of `fn_node`, known
    to hold no such declaration. (What `declared_free` and `_declared_free`
    would find and memoize now, without their walks; only its function
    definitions are read, so a list of those will do. `fn_node`'s whole-tree
    set is left to be found when asked: converters may add functions with
    declarations below it.)"""
    for n in nodes:
        if n.__class__ is gast.FunctionDef:
            n.__dict__["_ag_declared_own"] = _NONE
            if n is not fn_node:
                n.__dict__["_ag_declared_free"] = _NONE


_NONE = frozenset()


def _walk_same_scope(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, _SCOPES):
            continue
        stack.extend(ast_util.children(n))


def qualified_name(node):
    """'a.b', "d['k']", 'a.b[0]' for a target built from a name, attributes and
    constant subscripts; None for anything else."""
    if isinstance(node, gast.Name):
        return node.id
    if isinstance(node, gast.Attribute):
        base = qualified_name(node.value)
        return None if base is None else f"{base}.{node.attr}"
    if isinstance(node, gast.Subscript) and isinstance(node.slice, gast.Constant):
        base = qualified_name(node.value)
        return None if base is None else f"{base}[{node.slice.value!r}]"
    return None


def composite_slots(stmts):
    """(qualified name, base, key) of each attribute or subscript that `stmts`
    assign (also as a for target) or delete, in first-seen order, nested
    scopes excluded:
    `d['k'] = 1` gives ("d['k']", 'd', 'k'); `o.a.w += 1` ('o.a.w', 'o.a', 'w')."""
    found = []
    for s in stmts:
        for n in _walk_same_scope(s):
            targets = []
            if isinstance(n, (gast.Assign, gast.Delete)):
                targets = n.targets
            elif isinstance(n, (gast.AugAssign, gast.AnnAssign, gast.For, gast.AsyncFor)):
                targets = [n.target]          # `for o.a in xs:` assigns o.a too
            for t in targets:
                for leaf in (t.elts if isinstance(t, (gast.Tuple, gast.List)) else [t]):
                    if not isinstance(leaf, (gast.Attribute, gast.Subscript)):
                        continue
                    q, base = qualified_name(leaf), qualified_name(leaf.value)
                    if q is None or base is None:
                        continue
                    key = leaf.attr if isinstance(leaf, gast.Attribute) else leaf.slice.value
                    if all(f[0] != q for f in found):
                        found.append((q, base, key))
    return found


_LATE = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef, gast.GeneratorExp)
NAMESPACE_READERS = frozenset({"locals", "eval", "exec", "vars", "dir"})
_OBJECT_READERS = frozenset({"vars", "dir"})       # with an argument: that object's


def captured_names(fn_node, local=None, nodes=None):
    """Names local to `fn_node` that a nested scope may read or write later,
    when it runs (closures: `lambda: k`, nested defs, generator expressions,
    class bodies' methods), and its own global/nonlocal names. Such a name
    lives in a cell: code converted into nested functions must share it
    (`nonlocal k`) instead of copying it, or late binding breaks. `local`,
    `nodes`: the function's local names and own nodes
    (ast_util.walk_scope(fn.body)), when the caller has them."""
    local = local_names(fn_node) if local is None else local
    if nodes is None:
        nodes = ast_util.walk_scope(fn_node.body)
    found = set()
    # Comprehensions are entered (they run at once); closures made inside
    # them are found like any other.
    for c in nodes:
        if isinstance(c, _LATE):
            found |= reads(c) & local
            found |= _declared_free(c) & local
    return found


def reads_namespace(nodes):
    """True when a function calls locals(), eval(), exec(), vars() or dir()
    itself (`nodes`: its own, from ast_util.walk_scope(fn.body), comprehensions
    included): any of its names may be read there. `vars(o)` and `dir(o)`
    read an object, not the namespace."""
    for n in nodes:
        if isinstance(n, gast.Call) and isinstance(n.func, gast.Name) \
                and n.func.id in NAMESPACE_READERS \
                and not (n.func.id in _OBJECT_READERS and (n.args or n.keywords)):
            return True
    return False
