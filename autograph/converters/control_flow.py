"""if / while / for statements become calls of `if_stmt`, `while_stmt` and
`for_stmt`, with their bodies as functions of the variables they change.

    if x > 0:                   def if_body(y):
        y = x                       y = x
    else:                           return (y,)
        y = -x          ->      def else_body(y):
                                    y = -x
                                    return (y,)
                                y, = ag__.if_stmt(x > 0, if_body, else_body, (y,), ('y',))

    while i < n:                def loop_test(i, s):
        s += i                      return i < n
        i += 1          ->      def loop_body(i, s):
                                    s += i
                                    i += 1
                                    return (i, s)
                                i, s = ag__.while_stmt(loop_test, loop_body, (i, s), ('i', 's'))

    for x in xs:                def loop_body(x, s):
        s += x          ->          s += x
                                    return (s,)
                                s, = ag__.for_stmt(xs, loop_body, (s,), ('s',))

The state of a statement (the variables passed in and out) comes from static
analysis: names the statement binds that are live after it, or read by its
bodies before being bound (loops: live at the loop head). A state variable
that may be unbound before the statement starts as `ag__.Undefined('y')`
(once, at the top of the enclosing function). Writes of the jump flags
(`do_return = True`, ...) that nothing reads afterwards are dropped.

Everything else a body changes is carried as a "slot", through a
`get_state` / `set_state` pair used only when the statement is staged:
attributes and items with constant keys (`self.total`, `d['k']`), and names
that closures share or that are declared global/nonlocal, which the bodies
rebind through a `nonlocal`/`global` declaration instead of receiving them
(so closures bind late and see every assignment):

    k = 1                               def if_body():
    g = lambda: k                           nonlocal k
    if n > 0:                   ->          k = 5
        k = 5                           def get_state():
                                            return (ag__.peek(lambda: k),)
                                        def set_state(values):
                                            nonlocal k
                                            k = values[0]
                                        ag__.if_stmt(n > 0, if_body, None,
                                            composites=(get_state, set_state, ('k',)))

Calls and item writes that change Python objects from outside the bodies
(`lst.pop()`, `d[k] = v`, `next(it)`, see static_analysis/effects.py) are
listed as `effects=((line, text, list name), ...)`: staging refuses them.
"""

import builtins

import gast

from ..pyct import anno, ast_util, templates
from . import directives
from .conditional_expressions import IfExpRewriter
from .logical_expressions import LogicalRewriter
from ..pyct.static_analysis import activity, effects
from ..pyct.static_analysis.reaching_definitions import deleted_names


class _Scope:
    """What one user function shares with the functions made from its bodies.

    `shared`: names in cells (read by closures, or declared global/nonlocal),
    which bodies rebind with a `nonlocal`/`global` declaration instead of
    receiving and returning them; `declared` says which; `live`: names every
    statement treats as read afterwards (all of them when the function reads
    its own namespace with locals() or eval()). `internal`: the names
    conversion added (jump flags, return slots), never shared nor live
    through a namespace read."""

    def __init__(self, fn_node, internal=frozenset(), plain=False):
        """`plain`: the function is known to hold nothing the walk below
        looks for (see `plain_scope`): every field is empty, without it."""
        # One walk of the function's own nodes, sorted by kind, feeds it all.
        kinds = {}
        for n in () if plain else ast_util.walk_scope(fn_node.body):
            cls = n.__class__
            if cls in _KINDS:
                kinds.setdefault(_KINDS[cls], []).append(n)
        own = activity.declared_free(fn_node)
        self.free = set(own)
        self.declared = {}
        self.rebound = []
        if own:
            globals_ = {n for s in kinds.get("global", ()) for n in s.names}
            self.declared = {n: "global" if n in globals_ else "nonlocal" for n in own}
            self.rebound = sorted(self.free & activity.writes(fn_node.body))
        self.reads_namespace = activity.reads_namespace(kinds.get("call", ()))
        # The function's own locals, computed only where something needs them.
        local = None
        if self.reads_namespace or "late" in kinds or "try" in kinds:
            local = activity.local_names(fn_node)
            late = kinds.get("late", [])
            for n in activity.captured_names(fn_node, local, late) | \
                    _written_under_try(kinds.get("try", ()), internal,
                                       self.reads_namespace):
                if n in local:
                    self.declared.setdefault(n, "nonlocal")
        # `while (v := f()) ...`: the generated loop_test binds v for the
        # body and the code after the loop, so v is shared with it.
        self.walrus = {c.target.id for w in kinds.get("while", ()) for c in ast_util.walk(w.test)
                       if isinstance(c, gast.NamedExpr)}
        for n in self.walrus:
            self.declared.setdefault(n, "nonlocal")
        self.shared = set(self.declared)
        # locals() shows no jump flag nor return slot (see _user_locals):
        # reading the namespace makes none of them live.
        self.live = local - internal if self.reads_namespace else set()
        self.aliases = effects.mutator_aliases(kinds.get("assign", ()))
        self.deletes = "delete" in kinds
        candidates = [n for k in ("call", "delete", "assign", "augassign") for n in kinds.get(k, ())]
        if self.free:
            candidates += kinds.get("name", [])
        self.effects = effects.possible(candidates, self.aliases, self.free)


_KINDS = {gast.Global: "global", gast.Call: "call", gast.Delete: "delete",
          gast.Assign: "assign", gast.AugAssign: "augassign", gast.AnnAssign: "augassign",
          gast.Name: "name", gast.Try: "try", gast.While: "while",
          gast.FunctionDef: "late", gast.AsyncFunctionDef: "late", gast.Lambda: "late",
          gast.ClassDef: "late", gast.GeneratorExp: "late"}


# What makes a function's _Scope other than empty, as the survey of the
# user's tree sees it before any converter ran (conversion.Context): a
# declaration, a try or del, a nested scope (the assert converter adds a
# lambda), a walrus (in a while test), an attribute or item (mutating calls
# and their aliases, item writes: effects), and calls of namespace readers
# or of `next`. (The converters that run before control flow add flags,
# their `if not flag` guards and `ag__.f(...)` calls: none of these.)
# (A nested def is told by the number of definitions: the function's own
# is among the node classes.)
_NOT_PLAIN = frozenset(
    [cls for cls, kind in _KINDS.items()
     if kind in ("global", "delete", "try", "late") and cls is not gast.FunctionDef]
    + [gast.Nonlocal, gast.NamedExpr, gast.Attribute, gast.Subscript, gast.Assert])
_NOT_PLAIN_NAMES = activity.NAMESPACE_READERS | {"next"}


def plain_scope(kinds, names, functions):
    """True when a function whose tree holds the node classes `kinds`, the
    names `names` and the function definitions `functions` (itself alone:
    no nested function) has an empty _Scope."""
    return (len(functions) == 1 and kinds.isdisjoint(_NOT_PLAIN)
            and names.isdisjoint(_NOT_PLAIN_NAMES))


def _root(qualified):
    """'o' for 'o.a.b' or "o['k']"."""
    for i, ch in enumerate(qualified):
        if ch in ".[":
            return qualified[:i]
    return qualified


def _written_under_try(nodes, internal, all_read=False):
    """Names an if/while/for inside a `try` body binds (`nodes`: a function's
    own) that its handlers, its `finally` or the code after it may read: an
    exception leaving the statement half-way must leave them as Python would
    (those see each assignment made before it). A name nothing reads there
    (a loop target, a jump flag: `internal`) stays the statement's state.
    `all_read`: the function reads its namespace (locals(), eval())."""
    out = set()
    for t in nodes:
        if not isinstance(t, gast.Try):
            continue
        written = set()
        for n in ast_util.walk_scope(t.body):
            if isinstance(n, (gast.If, gast.While, gast.For)):
                written |= activity.writes(n)
        read = set(written if all_read else anno.getanno(t, anno.LIVE_OUT, written))
        for block in [h.body for h in t.handlers] + [t.finalbody]:
            if block:
                read |= anno.getanno(block[0], anno.LIVE_IN, written)
        out |= (written & read) - internal
    return out


class _ControlFlow(ast_util.StatementTransformer):
    """Statements only: expressions hold no if/while/for to rewrite."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.scopes = []      # per function being built: [params, names to init]
        self.functions = []   # per user function: its _Scope
        self.bodies = []      # per user function: depth of bodies made functions

    # --- helpers -------------------------------------------------------------
    def _writes(self, stmts):
        """activity.writes(stmts) of statements not yet converted, read from
        the liveness analysis's answers where it has them (ctx.activity_memo:
        {id(node): (reads, writes)} of the tree as it was before this
        converter; its nodes are still in the tree, unchanged, until the
        statement holding them is converted)."""
        memo = self.ctx.activity_memo
        return activity.writes(stmts) if memo is None else activity.known_writes(stmts, memo)

    def _state(self, node, bound, live):
        local = self.ctx.local_names
        fn = self.functions[-1]
        # A name the statement deletes is passed in and out: the deletion
        # (an Undefined value) must reach the enclosing function.
        deleted = deleted_names(node) if fn.deletes else set()
        self.ctx.undefined_names |= deleted
        live = set(live) | fn.live | deleted
        return sorted(n for n in bound & live if n in local and n not in fn.shared)

    def _shared(self, bound):
        """Shared names (see _Scope) the statement binds: passed as slots."""
        return sorted(bound & self.functions[-1].shared)

    def _undefined_inits(self, node, state):
        """Names that may be unbound here start, at the top of the enclosing
        function, as placeholders (once: a later init would clobber a value).
        A jump flag starts as False instead: every read of it follows its
        own `flag = False`, so no path sees that value, and a staged loop
        never needs an iteration to define it (nor names it in an error)."""
        defined = anno.getanno(node, anno.DEFINED_IN, frozenset())
        params, inits = self.scopes[-1]
        for name in state:
            if name not in defined and name not in params and name not in inits:
                if name not in self.ctx.flag_names:
                    self.ctx.undefined_names.add(name)
                inits.append(name)
        return []

    def _scoped_block(self, params, stmts):
        self.scopes.append((set(params), []))
        body = self._visit_block(stmts)
        _, inits = self.scopes.pop()
        prefix = []
        for name in inits:
            prefix += (templates.replace("name = False", name=name)
                       if name in self.ctx.flag_names else _undefined(name))
        return ast_util.located(prefix, ast_util.user_line(stmts[0]) if stmts else None) + body

    def visit_FunctionDef(self, node):
        a = node.args
        params = {x.id for x in a.args + a.posonlyargs + a.kwonlyargs}
        params |= {x.id for x in (a.vararg, a.kwarg) if x is not None}
        scope = _Scope(node, self.ctx.flag_names | self.ctx.return_names,
                       plain=self.ctx.plain_scope and not self.functions)
        self.functions.append(scope)
        self.bodies.append(0)
        node.body = self._scoped_block(params, node.body)
        self.bodies.pop()
        self.functions.pop()
        # A captured name that only converted bodies bind (a loop target)
        # needs a binding here for their `nonlocal` to find.
        unbound = []
        if any(kind == "nonlocal" and n not in scope.free for n, kind in scope.declared.items()):
            bound = activity.local_names(node) | params
            unbound = sorted(n for n, kind in scope.declared.items()
                             if kind == "nonlocal" and n not in bound and n not in scope.free)
        for name in unbound:
            self.ctx.undefined_names.add(name)
        node.body = [s for n in unbound for s in _undefined(n)] + node.body
        if scope.reads_namespace:
            self._user_locals(node)
        if scope.rebound:
            # Refused when a staged if/loop traces a call of this function.
            check = templates.replace(
                "ag__.outer_writes(function, names)", function=ast_util.constant(node.name),
                names=ast_util.constant(tuple(scope.rebound)))
            doc = 1 if (node.body and isinstance(node.body[0], gast.Expr)
                        and isinstance(node.body[0].value, gast.Constant)
                        and isinstance(node.body[0].value.value, str)) else 0
            node.body[doc:doc] = ast_util.located(check, ast_util.user_line(node))
        return node

    def _user_locals(self, node):
        """`locals()` / `vars()` shows the user's names only: not the
        functions and flags conversion added, nor names still Undefined."""
        made = self.ctx.namer.made
        user_ag = getattr(self.ctx, "_user_ag", None)     # the user's own `ag__`, renamed
        # The operators' `ag__` (a closure cell of the function) is hidden too,
        # unless the name is the user's own.
        operators = {"ag__"} if user_ag is None else set()
        hidden = sorted((made | self.ctx.flag_names | self.ctx.return_names | operators)
                        - {user_ag})
        found, stack = [], list(node.body)
        while stack:                # into the bodies made functions, not user scopes
            n = stack.pop()
            found.append(n)
            for c in ast_util.children(n):
                if not isinstance(c, ast_util.FUNCTIONS) or (
                        isinstance(c, gast.FunctionDef) and c.name in made):
                    stack.append(c)
        def namespace():
            return templates.replace_as_expression(
                "ag__.user_locals(locals(), hidden)", hidden=ast_util.constant(tuple(hidden)))
        for n in found:
            if (isinstance(n, gast.Call) and isinstance(n.func, gast.Name)
                    and n.func.id in ("eval", "exec") and len(n.args) == 1 and not n.keywords
                    and self.ctx.resolve(n.func) == (True, getattr(builtins, n.func.id))):
                # eval(s) sees the user's names, also from a body made a function.
                n.args += [templates.replace_as_expression("globals()"), namespace()]
                continue
            if (isinstance(n, gast.Call) and isinstance(n.func, gast.Name)
                    and n.func.id in ("locals", "vars") and not n.args and not n.keywords
                    and self.ctx.resolve(n.func) == (True, getattr(builtins, n.func.id))):
                n.args = [gast.Call(func=ast_util.name(n.func.id), args=[], keywords=[]),
                          ast_util.constant(tuple(hidden))]
                n.func = templates.replace_as_expression("ag__.user_locals")

    def _declarations(self, names):
        """`nonlocal a, b` / `global c` for the shared names a body rebinds."""
        declared = self.functions[-1].declared
        out = []
        for kind, cls in (("nonlocal", gast.Nonlocal), ("global", gast.Global)):
            group = sorted(n for n in names if declared.get(n) == kind)
            if group:
                out.append(cls(names=group))
        return out

    def visit_Match(self, node):
        """A match statement dispatches in Python (`ag__.match_subject` refuses
        a tensor subject clearly); control flow in its cases is converted like
        any other."""
        node.subject = templates.replace_as_expression("ag__.match_subject(subject)",
                                                       subject=node.subject)
        for case in node.cases:
            case.body = self._visit_block(case.body) or [gast.Pass()]
        return node

    def visit_Delete(self, node):
        """Inside a body made into a function, `del z` unbinds the variable
        the body passes on: `z = ag__.deleted(z)` (UnboundLocalError when z is
        already unbound, as `del` raises)."""
        if not self.bodies or self.bodies[-1] == 0:
            # A name that may hold an Undefined placeholder here: `del` of an
            # unbound name raises, so read it first.
            checks = [t.id for t in node.targets
                      if isinstance(t, gast.Name) and t.id in self.ctx.undefined_names]
            if not checks:
                return node
            out = [s for n in checks for s in templates.replace("ag__.ld(name)", name=n)]
            out.append(node)
            return ast_util.located(out, ast_util.user_line(node))
        names = [t for t in node.targets if isinstance(t, gast.Name)
                 and t.id not in self.functions[-1].shared]
        if not names:
            return node
        out = []
        for t in node.targets:
            if t in names:
                out += templates.replace("name = ag__.deleted(name, label)", name=t.id,
                                         label=ast_util.constant(t.id))
            else:
                out.append(gast.Delete(targets=[t]))
        return ast_util.located(out, ast_util.user_line(node))

    def _function(self, fn_name, params, body, state):
        shared = self.functions[-1].shared
        decl = self._declarations(activity.writes(body) & shared) if shared else []
        self.bodies[-1] += 1
        try:
            body = decl + self._scoped_block(params, body)
        finally:
            self.bodies[-1] -= 1
        if state:
            return [_def(fn_name, params, body + [_return_tuple(state)])]
        return [_def(fn_name, params, body or [gast.Pass()])]

    def _dead_flag(self, s):
        """`do_return = True` (and other flag writes) that nothing reads later."""
        if not (isinstance(s, gast.Assign) and len(s.targets) == 1
                and isinstance(s.targets[0], gast.Name)):
            return False
        name = s.targets[0].id
        return name in self.ctx.flag_names and name not in anno.getanno(s, anno.LIVE_OUT, {name})

    def _visit_block(self, stmts):
        out = []
        for s in stmts:
            if self._dead_flag(s):
                continue
            r = self.visit(s)
            out.extend(r if isinstance(r, list) else [r])
        return out

    def _call(self, operator, args, state_in, outputs=None, keywords=()):
        """`outputs = ag__.operator(*args, (state_in,), names, **keywords)` (a
        list), without `outputs = ` when there are none. `outputs`: state_in
        unless given; `names`: the outputs' names."""
        outputs = state_in if outputs is None else outputs
        args = args + [self._tuple(state_in), _constant(tuple(outputs))]
        call = ast_util.operator_call(operator, args, list(keywords))
        return [_assign(outputs, call)]

    # --- statements ------------------------------------------------------------
    def visit_If(self, node):
        line = ast_util.user_line(node)
        bound = self._writes(node.body) | self._writes(node.orelse)
        read_first = set()
        for block in (node.body, node.orelse):
            if block:
                read_first |= anno.getanno(block[0], anno.LIVE_IN)
        state = self._state(node, bound, set(anno.getanno(node, anno.LIVE_OUT)) | read_first)
        # Names every branch binds before reading are outputs only: the
        # branches need not receive them.
        out_only = set()
        if node.orelse:
            out_only = (definitely_assigned(node.body, self._writes)
                        & definitely_assigned(node.orelse, self._writes)
                        - read_first)
        state_in = [n for n in state if n not in out_only]
        outputs = state_in + [n for n in state if n in out_only]
        out = self._undefined_inits(node, state_in)
        if_body = self.ctx.namer.new("if_body")
        out += self._function(if_body, state_in, node.body, outputs)
        else_body = ast_util.constant(None)
        if node.orelse:
            else_body = self.ctx.namer.new("else_body")
            out += self._function(else_body, state_in, node.orelse, outputs)
        comp_defs, extra = self._composites([node.body, node.orelse], self._shared(bound),
                                            state)
        out += comp_defs
        args = [self._test(node.test), _name(if_body), _as_node(else_body)]
        if not outputs:
            call = [_assign((), ast_util.operator_call("if_stmt", args, []))]
        elif not state_in:
            names = gast.keyword(arg="names", value=_constant(tuple(outputs)))
            call = [_assign(outputs, ast_util.operator_call("if_stmt", args, [names]))]
        else:
            call = self._call("if_stmt", args, state_in, outputs=outputs)
        out += self._add_effects(self._add_keyword(call, extra), [node.body, node.orelse])
        return ast_util.located(out, line)

    def _composites(self, blocks, shared, state=()):
        """get_state / set_state functions for the slots the blocks assign:
        attributes and subscripts (`self.total`, `d['k']`) and shared names
        (see _Scope), and the keyword passing them. A slot may be missing
        (an absent key, an unbound cell): `ag__.peek` reads it as Undefined,
        and `ag__.put_item` / `put_attr` / an Undefined value remove it."""
        slots = []
        kinds = self.ctx.kinds          # no attribute or subscript at all: no slot
        found = [q for block in blocks for q in activity.composite_slots(block)] if (
            kinds is None or gast.Attribute in kinds or gast.Subscript in kinds) else []
        if found:
            # A slot of an object bound inside the statement and not carried
            # out of it (`nb = Box(); nb.c = 1`) belongs to that object alone.
            bound = set().union(*(activity.writes(block) for block in blocks)) - set(state)
            slots = [q for i, q in enumerate(found)
                     if q not in found[:i] and _root(q[1]) not in bound]
        slots += [(n, None, None) for n in shared]
        if not slots:
            return [], {}
        names = [q[0] for q in slots]
        get_state, set_state = self.ctx.namer.new("get_state"), self.ctx.namer.new("set_state")
        # The template's text holds placeholders only (slot i's expression
        # s<i>, its object b<i> and key k<i>), so it is one of few texts.
        parts = {"get_state": get_state, "set_state": set_state}
        reads = "".join(f"ag__.peek(lambda: s{i}), " for i in range(len(names)))
        writes = ""
        for i, (q, base, key) in enumerate(slots):
            parts[f"s{i}"] = _expression(q)
            if base is None:
                writes += f"    s{i} = values[{i}]\n"
                continue
            parts[f"b{i}"], parts[f"k{i}"] = _expression(base), ast_util.constant(key)
            put = "put_attr" if isinstance(key, str) and q.endswith("." + key) else "put_item"
            writes += f"    ag__.{put}(b{i}, k{i}, values[{i}])\n"
        code = ("def get_state():\n    return (" + reads + ")\n"
                "def set_state(values):\n" + writes)
        stmts = templates.replace(code, **parts)
        decl = self._declarations(shared)
        if decl:
            stmts[1].body = decl + stmts[1].body
        keyword = gast.keyword(arg="composites", value=templates.replace_as_expression(
            "(get_state, set_state, names)", get_state=get_state, set_state=set_state,
            names=ast_util.constant(tuple(names))))
        return stmts, {"keyword": keyword}

    @staticmethod
    def _add_keyword(stmts, extra):
        if extra:
            stmts[-1].value.keywords.append(extra["keyword"])
        return stmts

    def _add_effects(self, stmts, blocks, appends=True):
        """`effects=((line, text, list name), ...)`: the calls and item writes
        in the bodies that change objects from outside them (see
        static_analysis/effects.py); staging the statement refuses them.
        `appends=False`: leave out appends, which a staged loop carries itself
        (a for loop with a break or return also needs them: its Python
        iterations may turn into staged ifs)."""
        found = []
        if not self.functions[-1].effects:
            return stmts
        for block in blocks:
            fn = self.functions[-1]
            outer = {n for n in fn.declared if n in fn.free}
            found += [e for e in effects.find(block, self.ctx.info, fn.aliases, outer)
                      if e not in found and (appends or e[2] is None)]
        if found:
            value = ast_util.constant(tuple(found))
            stmts[-1].value.keywords.append(gast.keyword(arg="effects", value=value))
        return stmts

    @staticmethod
    def _add_options(stmts, loop):
        """`opts={'maximum_iterations': ...}`: the loop's set_loop_options
        (see directives.py)."""
        options = anno.getanno(loop, directives.LOOP_OPTIONS, None)
        if options:
            value = gast.Dict(keys=[ast_util.constant(k) for k in options],
                              values=list(options.values()))
            stmts[-1].value.keywords.append(gast.keyword(arg="opts", value=value))
        return stmts

    @staticmethod
    def _tuple(names, ctx=gast.Load):
        return ast_util.make(gast.Tuple, elts=[ast_util.name(n, ctx) for n in names],
                             ctx=ast_util.context(ctx))

    def _test(self, test):
        """`test`, its `and`/`or`/`not` rewritten now when no walk of the
        whole tree will (ctx.rewrite_tests: the user's code has none, so
        these are the jump converters' `not flag`, `not test` and the extra
        loop tests' `and`, at the top of the tests they made). Reads of
        Undefined placeholders are left to that walk (see conversion.convert_tree)."""
        if self.ctx.rewrite_tests and test.__class__ in _REWRITTEN_TESTS:
            return _TestRewriter().visit(test)
        return test

    def _extra_test(self, node):
        tests = anno.getanno(node, anno.EXTRA_LOOP_TEST, [])
        if not tests:
            return None
        if len(tests) == 1:
            return tests[0]
        return gast.BoolOp(op=gast.And(), values=list(tests))

    def visit_While(self, node):
        line = ast_util.user_line(node)
        head = anno.getanno(node, anno.LOOP_HEAD)
        bound = self._writes(node.body)
        state = self._state(node, bound, head)
        out = self._undefined_inits(node, state)
        extra = self._extra_test(node)
        test = node.test if extra is None else gast.BoolOp(op=gast.And(), values=[extra, node.test])
        test = self._test(test)
        loop_test = self.ctx.namer.new("loop_test")
        binds = sorted({c.target.id for c in ast_util.walk(node.test)
                        if isinstance(c, gast.NamedExpr)})
        out.append(_def(loop_test, state, self._declarations(binds) + [_return(test)]))
        loop_body = self.ctx.namer.new("loop_body")
        out += self._function(loop_body, state, node.body, state)
        comp_defs, extra = self._composites([node.body], self._shared(bound), state)
        out += comp_defs
        call = self._add_effects(self._add_keyword(self._call(
            "while_stmt", [_name(loop_test), _name(loop_body)], state), extra),
            [node.body], appends=False)
        if binds:
            call[-1].value.keywords.append(gast.keyword(
                arg="test_binds", value=ast_util.constant(tuple(binds))))
        out += self._add_options(call, node)
        out += self._visit_block(node.orelse)
        return ast_util.located(out, line)

    def visit_For(self, node):
        line = ast_util.user_line(node)
        head = anno.getanno(node, anno.LOOP_HEAD)
        target = activity.writes(node.target)
        bound = self._writes(node.body) | target
        state = self._state(node, bound, head)
        out = self._undefined_inits(node, state)
        body, binds_target = node.body, []
        if isinstance(node.target, gast.Name) and node.target.id not in state \
                and node.target.id not in self.functions[-1].shared:
            item = node.target.id
        else:
            item = self.ctx.namer.new("itr")
            # `for x[0] in ...` / `for o.a in ...`: the target is a slot too.
            binds_target = templates.replace("target = item", target=node.target, item=item)
            body = binds_target + body
        loop_body = self.ctx.namer.new("loop_body")
        out += self._function(loop_body, [item] + state, body, state)
        extra = self._extra_test(node)
        has_test = extra is not None
        keywords = []
        if extra is not None:
            loop_test = self.ctx.namer.new("loop_test")
            out.append(_def(loop_test, state, [_return(self._test(extra))]))
            keywords.append(gast.keyword(arg="extra_test", value=_name(loop_test)))
        comp_defs, extra = self._composites(
            [binds_target, node.body], self._shared(bound), state)
        out += comp_defs
        out += self._add_options(self._add_effects(self._add_keyword(self._call(
            "for_stmt", [node.iter, _name(loop_body)], state, keywords=keywords), extra),
            [binds_target, node.body], appends=has_test), node)
        out += self._visit_block(node.orelse)
        return ast_util.located(out, line)


class _TestRewriter(IfExpRewriter, LogicalRewriter):
    """The expression rewriters, less reads of Undefined placeholders."""


_REWRITTEN_TESTS = (gast.UnaryOp, gast.BoolOp)


def definitely_assigned(stmts, writes=activity.writes):
    """Names bound on every path through `stmts` (loops may run zero times).
    `writes(stmts)`: activity.writes, or one that knows the answers."""
    out = set()
    for s in stmts:
        if isinstance(s, gast.If):
            out |= definitely_assigned(s.body, writes) & definitely_assigned(s.orelse, writes)
        elif isinstance(s, (gast.With, gast.AsyncWith)):
            out |= definitely_assigned(s.body) | activity.writes(s.items)
        elif isinstance(s, gast.Delete):
            out -= deleted_names(s)
        elif not isinstance(s, (gast.For, gast.While, gast.AsyncFor, gast.Try)):
            out |= writes([s])
    return out


def transform(node, ctx):
    return _ControlFlow(ctx).visit_FunctionDef(node)


def _undefined(name):
    """`name = ag__.Undefined('name')`: the name is not bound yet."""
    return templates.replace("name = ag__.Undefined(label)", name=name,
                             label=ast_util.constant(name))


# --- the statements each if/while/for makes -------------------------------------
# Built node by node rather than from template text (see ast_util.operator_call):
# they are most of what a conversion builds, and a template asks its instance
# for each placeholder. Each is what its template text built, field for field
# (`def name(params): body`, `return (a, b)`, `a, b = ag__.while_stmt(...)`).

_make, _name, _constant = ast_util.make, ast_util.name, ast_util.constant
_LOAD, _STORE = ast_util.CONTEXTS[gast.Load], ast_util.CONTEXTS[gast.Store]


def _def(name, params, body):
    """`def name(params): body` (`params`: names)."""
    return _make(gast.FunctionDef, name=name, args=ast_util.arguments(params), body=body,
                 decorator_list=[], returns=None, type_comment=None, type_params=[])


def _return(value):
    return _make(gast.Return, value=value)


def _return_tuple(names):
    """`return (a, b)`."""
    return _return(_make(gast.Tuple, elts=[_name(n) for n in names], ctx=_LOAD))


def _as_node(value):
    """A name for a string, else the node itself."""
    return _name(value) if value.__class__ is str else value


def _assign(outputs, value):
    """`a, b = value` (names `outputs`), or the statement `value` when none."""
    if not outputs:
        return _make(gast.Expr, value=value)
    targets = [_make(gast.Tuple, elts=[_name(n, gast.Store) for n in outputs], ctx=_STORE)]
    return _make(gast.Assign, targets=targets, value=value, type_comment=None)


def _expression(text):
    """The expression node of a slot's source text (`d['a']`, `o.x`)."""
    return gast.parse(text).body[0].value
