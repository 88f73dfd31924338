"""Converting one function: parse, check, run the converters in order,
unparse (the docstring first, the user's comments carried over), compile
with the original globals and closure, and cache.

    entry = convert_entity(f)          # cached per code object
    entry.source                       # the generated source (to_code)
    g = entry.make_function(f)         # callable, sees f's globals and cells
"""

import builtins
import copy
import itertools
import linecache
import re
import threading
import types
import weakref

import gast

from .. import operators, source_map
from ..operators import tracking
from ..converters import (asserts, break_statements, call_trees, continue_statements,
                          control_flow, directives, expressions, return_statements)
from ..pyct import ast_util, comments, naming, parser, pauses, unparser
from ..pyct.static_analysis import activity, effects, liveness, reaching_definitions
from . import checks

# user code object -> {(its file, recursive): ConvertedEntity}. Weakly keyed:
# an entry goes with the user's code (the entry does not hold it), and the
# generated file's linecache text, source map and tracking counts go with
# the generated code (see `_forget_generated`).
_CACHE = weakref.WeakKeyDictionary()
_LOCK = threading.RLock()
_COUNTER = itertools.count()
_HEADER = "from autograph import operators as ag__\n\n\n"


class Context:
    """What converters share while converting one function."""

    def __init__(self, fn, node, info, recursive):
        self.fn = fn
        self.info = info
        self.recursive = recursive
        nodes = ast_util.walk(node)
        names, bound, kinds, returns, call_statements, functions = _survey(nodes)
        self.namer = naming.Namer(names | set(fn.__code__.co_names) | {"ag__"})
        # The user's own `ag__` and class statements are set aside until the
        # pipeline is done (see _set_aside / _put_back); `node` changes in place.
        self.operators_name = "ag__"      # what generated code calls the operators
        self._user_ag = self._classes = None
        if "ag__" in names or gast.ClassDef in kinds or gast.AsyncFunctionDef in kinds or (
                gast.FunctionDef in kinds and any(
                    n.__class__ is gast.FunctionDef and n is not node and _is_generator(n)
                    for n in functions)):
            _set_aside(node, self)
            nodes = None
        # The kinds of node the user's tree holds (None once set aside): a
        # converter with nothing to rewrite is skipped (see convert_tree).
        self.kinds = None if nodes is None else kinds
        self.returns = None if nodes is None else returns
        # Whether a statement is a lone call (what a directive is), None when unknown.
        self.call_statements = None if nodes is None else call_statements
        self.names = names
        # Nothing the control-flow converter's scope survey looks for: it
        # skips its walk (see control_flow.plain_scope).
        self.plain_scope = nodes is not None and control_flow.plain_scope(kinds, names, functions)
        if nodes is not None and gast.Global not in kinds and gast.Nonlocal not in kinds:
            activity.none_declared_free(node, functions)   # no walk to look for them
        if nodes is not None and len(functions) == 1 and kinds.isdisjoint(_OTHER_BINDINGS):
            # One scope, bound by names alone: its locals are the names the
            # survey saw bound (parameters included), with no walk to find them.
            self.local_names = bound
        else:
            self.update_locals(node, functions=None if nodes is None else functions)
        self.undefined_names = set()      # names given an ag__.Undefined placeholder
        # True: the control-flow converter rewrites the `and`/`not` of the
        # tests it places (see convert_tree).
        self.rewrite_tests = False
        self.return_names = set()         # retval_ slots made by the return converter
        self.flag_names = set()           # break_, continue_, do_return flags
        # {id(node): (reads, writes)} of the liveness analysis while the
        # control-flow converter runs (see control_flow._ControlFlow._writes).
        self.activity_memo = None
        self._closure = dict(zip(fn.__code__.co_freevars,
                                 (_cell_value(c) for c in (fn.__closure__ or ()))))

    def update_locals(self, node, nodes=None, functions=None):
        """Recompute the names local to the function (and its nested functions)
        after converters added some (flags, retval_). `nodes`: all nodes of
        `node`, or `functions`: the function definitions among them, when
        the caller has them."""
        if functions is None:
            functions = [n for n in (nodes if nodes is not None else ast_util.walk(node))
                         if isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef))]
        self.local_names = set()
        for n in functions:
            self.local_names |= activity.local_names(n)

    def resolve(self, expr):
        """(True, value) when `expr` (a name or dotted attribute) can be
        evaluated now from the function's closure, globals or builtins."""
        if isinstance(expr, gast.Attribute):
            found, base = self.resolve(expr.value)
            if found and isinstance(base, types.ModuleType) or (found and isinstance(base, type)):
                if hasattr(base, expr.attr):
                    return True, getattr(base, expr.attr)
            return False, None
        if not isinstance(expr, gast.Name) or expr.id in self.local_names:
            return False, None
        for space in (self._closure, self.fn.__globals__, vars(builtins)):
            if expr.id in space:
                return True, space[expr.id]
        return False, None

    def from_closure(self, expr):
        """True when `expr` (a name or dotted attribute) starts at a closure cell."""
        while isinstance(expr, gast.Attribute):
            expr = expr.value
        return (isinstance(expr, gast.Name) and expr.id in self._closure
                and expr.id not in self.local_names)


def _survey(nodes):
    """(the names, the names bound (stored, deleted or parameters), the node
    classes (and the unary operators, and _CHAINED for a chained
    comparison), the return statements, whether a statement is a lone call,
    the function definitions) of `nodes`, in one loop over them."""
    names, bound, kinds, returns, functions = set(), set(), set(), [], []
    call_statements = False
    load = gast.Load
    for n in nodes:
        cls = n.__class__
        kinds.add(cls)
        if cls is gast.Name:
            names.add(n.id)
            if n.ctx.__class__ is not load:
                bound.add(n.id)
        elif cls is gast.Return:
            returns.append(n)
        elif cls is gast.Expr and n.value.__class__ is gast.Call:
            call_statements = True
        elif cls is gast.FunctionDef or cls is gast.AsyncFunctionDef:
            functions.append(n)
        elif cls is gast.UnaryOp:
            kinds.add(n.op.__class__)          # gast.Not: see _EXPRESSION_REWRITES
        elif cls is gast.Compare and len(n.ops) > 1:
            kinds.add(_CHAINED)
    return names, bound, frozenset(kinds), returns, call_statements, functions


# What binds a name other than a Name node (a bound name, deleted name or
# parameter), or binds one in a scope of its own, or declares one not local:
# with none of these (and no nested def), a function's local names are the
# names its survey saw bound (what activity.local_names finds by a walk).
_OTHER_BINDINGS = frozenset((
    gast.Import, gast.ImportFrom, gast.MatchAs, gast.MatchStar, gast.MatchMapping,
    gast.Global, gast.Nonlocal, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef,
    gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp))


def _cell_value(cell):
    try:
        return cell.cell_contents
    except ValueError:
        return None


def convert_tree(node, ctx):
    """The converter pipeline, in order. Each step relies on the ones before.
    A step whose construct the function does not have is skipped (it would
    walk the tree and change nothing)."""
    if _holds(ctx, _REFUSED):
        checks.check(node, ctx.info)                      # refuse what cannot be converted
    docstring = _docstring(node)
    # Directives first: set_loop_options must still be a loop's first statement.
    if ctx.call_statements is not False:            # a directive is a statement
        node = directives.transform(node, ctx)
    # Jumps first, innermost first: break and continue turn into flags and
    # guards, so that by `return` time every loop ends only through its test.
    if _holds(ctx, (gast.Break,)):
        node = break_statements.transform(node, ctx)
    if _holds(ctx, (gast.Continue,)):
        node = continue_statements.transform(node, ctx)
    # Returns after break/continue: a return inside a loop adds its own test to
    # the loop's extra tests, next to the break flag. (A lone return ending
    # the function is left as it is.)
    if ctx.returns is None or len(ctx.returns) > 1 or (
            ctx.returns and node.body[-1] is not ctx.returns[0]):
        node = return_statements.transform(node, ctx)
    if _holds(ctx, (gast.Assert,)):
        node = asserts.transform(node, ctx)
    if _holds(ctx, (gast.Assert,)):
        ctx.update_locals(node)         # a walrus in an assert message moves into a lambda
    elif _holds(ctx, _REWRITTEN) or ctx.return_names:
        # The jump converters add local names of their own only: the flags
        # and return slots (no walk of the whole tree to find them again; a
        # flag made but left unused is harmless: the namer made it unlike any
        # name the function uses).
        ctx.local_names |= ctx.flag_names | ctx.return_names
    # Calls before control flow: the bodies are still the user's statements,
    # and `lst.append(x)` must become an assignment before state is computed.
    node = call_trees.transform(node, ctx)
    # Analyses run on the jump-free tree, just before they are used (not at
    # all for a function without statements the control-flow converter reads).
    ctx.rewrite_tests = not _holds(ctx, _EXPRESSION_REWRITES)
    if _has_control_flow(ctx):
        memo = {}                       # {id(node): (reads, writes)}, shared
        liveness.analyze(node, memo)
        reaching_definitions.analyze(node, memo)
        ctx.activity_memo = memo
        try:
            node = control_flow.transform(node, ctx)
        finally:
            ctx.activity_memo = None
    # Expressions after control flow: they may appear in tests the control-flow
    # converter moved into loop_test functions, and `ld` wraps reads of the
    # names that converter gave an Undefined placeholder (converters/expressions.py).
    # With none of them in the user's code and no placeholder, the only ones
    # are the jump converters' `not flag` and `and` tests, which the
    # control-flow converter rewrote as it placed them (ctx.rewrite_tests):
    # no walk of the whole tree.
    if not ctx.rewrite_tests or ctx.undefined_names:
        node = expressions.transform(node, ctx)
    # Converters put their set-up (`do_return = False`) above everything:
    # the docstring goes back in front, so `__doc__` is kept.
    if docstring is not None and node.body[:1] != [docstring] and docstring in node.body:
        node.body.remove(docstring)
        node.body.insert(0, docstring)
    if ctx._user_ag is not None or ctx._classes:
        _put_back(node, ctx)
    return node


# What the expression rewriters rewrite (converters/expressions.py): `x if c
# else y`, `and`/`or`, `not` and chained comparisons (reads of Undefined
# placeholders are asked of ctx.undefined_names).
_CHAINED = "chained comparison"          # in ctx.kinds, with the node classes
_EXPRESSION_REWRITES = (gast.IfExp, gast.BoolOp, gast.Not, _CHAINED)


# What checks.check refuses: with none of these, it has nothing to find.
_REFUSED = (gast.Yield, gast.YieldFrom, gast.Await, gast.AsyncFor, gast.AsyncWith,
            gast.AsyncFunctionDef)


# Statements whose converters may add or drop local names (flags; a walrus
# in an assert message ends up in a lambda); the return converter's names
# are in ctx.return_names. (Directives only move a loop's options.)
_REWRITTEN = (gast.Break, gast.Continue, gast.Assert)


# What the control-flow converter rewrites or reads (converters/control_flow.py):
# compound statements, deletions, and declarations of shared names.
_CONTROL = (gast.If, gast.While, gast.For, gast.AsyncFor, gast.Try, gast.TryStar, gast.With,
            gast.AsyncWith, gast.Match, gast.Delete, gast.Global, gast.Nonlocal,
            gast.Break, gast.Continue)
# Calls that read the function's namespace (the converter hides its own names).
_NAMESPACE_READS = frozenset(("locals", "vars", "eval", "exec"))


def _has_control_flow(ctx):
    """False when the control-flow converter would leave the function as it
    is: none of `_CONTROL` in the user's tree, no statement the jump and
    return converters made, no read of the namespace."""
    return (_holds(ctx, _CONTROL) or bool(ctx.return_names) or bool(ctx.flag_names)
            or not _NAMESPACE_READS.isdisjoint(ctx.names))


def _may_write_objects(ctx):
    """False when the function cannot change an object it did not create
    (effects.object_writes would find nothing): it has no attribute, no
    subscript and no call of `next`; the rest of what that looks for
    (mutating methods and names bound to them) are attributes."""
    return _holds(ctx, (gast.Attribute, gast.Subscript)) or (
        "next" in ctx.names and _holds(ctx, (gast.Call,)))


def _holds(ctx, kinds):
    """True unless the function is known to hold no node of `kinds`."""
    return ctx.kinds is None or not ctx.kinds.isdisjoint(kinds)


def _docstring(node):
    """The docstring statement of the function `node`, or None."""
    first = node.body[0] if node.body else None
    if (isinstance(first, gast.Expr) and isinstance(first.value, gast.Constant)
            and isinstance(first.value.value, str)):
        return first
    return None


# --- class statements and a user name `ag__` ---------------------------------
#
#     def f(x):                          def f(x):
#         ag__ = 3                           from autograph import operators as ag__1
#         class P: ...           ->          ag__ = 3
#         if x > 0:                          class P: ...          (as written)
#             x = x + ag__                   def if_body(x): ...   (ag__1.if_stmt ...)
#
# A class body runs as written (its methods are converted when called, as
# any function is). While the converters run, each class statement is a
# stand-in `def` of the same name whose body reads what the class reads, so
# the analyses see what it binds and uses; the class is put back afterwards.
# Generated code names the operators `ag__`; a function that uses that name
# itself gets them under a fresh name, imported at the top of its body.

_CLASS_MARK = "<autograph: class statement {}>"


class _HideClasses(ast_util.NodeTransformer):
    def __init__(self, classes):
        self.classes = classes

    def visit_ClassDef(self, node):
        key = _CLASS_MARK.format(len(self.classes))
        self.classes[key] = node
        reads = _class_reads(node)
        stand_in = gast.parse(f"def {node.name}():\n    pass\n").body[0]
        uses = [copy.deepcopy(e) for e in node.decorator_list + node.bases]
        uses += [copy.deepcopy(k.value) for k in node.keywords]
        stand_in.decorator_list = uses
        stand_in.body = [gast.Expr(value=ast_util.constant(key))]
        stand_in.body += [gast.Expr(value=ast_util.name(r)) for r in sorted(reads)]
        ast_util.located([stand_in], ast_util.user_line(node))
        return stand_in


    def visit_FunctionDef(self, node):
        """A nested generator (or async) function runs as written, like a class."""
        if not (isinstance(node, gast.AsyncFunctionDef) or _is_generator(node)):
            return self.generic_visit(node)
        key = _CLASS_MARK.format(len(self.classes))
        self.classes[key] = node
        stand_in = gast.parse(f"def {node.name}():\n    pass\n").body[0]
        stand_in.decorator_list = [copy.deepcopy(e) for e in node.decorator_list
                                   + node.args.defaults
                                   + [d for d in node.args.kw_defaults if d is not None]]
        stand_in.body = [gast.Expr(value=ast_util.constant(key))]
        free = activity.reads(node)
        stand_in.body += [gast.Expr(value=ast_util.name(r)) for r in sorted(free)]
        ast_util.located([stand_in], ast_util.user_line(node))
        return stand_in

    visit_AsyncFunctionDef = visit_FunctionDef


def _is_generator(node):
    return any(isinstance(n, (gast.Yield, gast.YieldFrom)) for n in ast_util.walk_scope(node.body))


def _class_reads(node):
    """Every name the class body reads (its methods' free names included;
    an over-approximation: a name the class binds may be listed too)."""
    body = [copy.deepcopy(s) for s in node.body]
    _HideClasses({}).visit(gast.Module(body=body, type_ignores=[]))
    return activity.reads(body)


class _PutBackClasses(ast_util.NodeTransformer):
    def __init__(self, classes):
        self.classes = classes
        self.seen = set()

    def visit_FunctionDef(self, node):
        first = node.body[0] if node.body else None
        if (isinstance(first, gast.Expr) and isinstance(first.value, gast.Constant)
                and first.value.value in self.classes):
            key = first.value.value
            cls = self.classes[key]
            # A converter copied the statement: each copy is the whole class.
            cls = copy.deepcopy(cls) if key in self.seen else cls
            self.seen.add(key)
            return cls
        return self.generic_visit(node)


class _Rename(ast_util.NodeTransformer):
    """Rename the variable `old` to `new` (names, global/nonlocal, imports)."""

    def __init__(self, old, new, strings=False):
        self.old, self.new, self.strings = old, new, strings

    def visit_Name(self, node):
        if node.id == self.old:
            node.id = self.new
        return node

    def visit_Global(self, node):
        node.names = [self.new if n == self.old else n for n in node.names]
        return node

    visit_Nonlocal = visit_Global

    def visit_alias(self, node):
        if node.asname == self.old:
            node.asname = self.new
        return node

    def visit_Constant(self, node):
        # Generated names tuples (('x', "d['k']")) carry the user's names.
        if self.strings:
            if isinstance(node.value, str):
                node.value = self._text(node.value)
            elif isinstance(node.value, tuple):
                node.value = tuple(self._text(v) if isinstance(v, str) else v
                                   for v in node.value)
        return node

    def _text(self, text):
        if self.old not in text:
            return text
        return re.sub(rf"\b{re.escape(self.old)}\b", self.new, text)


def _set_aside(node, ctx):
    ctx._classes = {}
    for i, s in enumerate(node.body):
        node.body[i] = _HideClasses(ctx._classes).visit(s)
    names = {n.id for n in ast_util.walk(node) if isinstance(n, gast.Name)}
    if "ag__" in names or any(isinstance(n, (gast.Global, gast.Nonlocal)) and "ag__" in n.names
                              for n in ast_util.walk(node)):
        ctx._user_ag = ctx.namer.new("ag__user_")
        _Rename("ag__", ctx._user_ag).visit(node)


def _put_back(node, ctx):
    if ctx._user_ag is not None:
        ctx.operators_name = ctx.namer.new("ag__")
        _Rename("ag__", ctx.operators_name).visit(node)
        _Rename(ctx._user_ag, "ag__", strings=True).visit(node)
        imports = gast.parse(f"from autograph import operators as {ctx.operators_name}").body
        ast_util.located(imports, ast_util.user_line(node))
        docstring = [] if _docstring(node) is None else node.body[:1]
        node.body = docstring + imports + node.body[len(docstring):]
    if ctx._classes:          # after the renaming: a class body keeps its names
        for i, s in enumerate(node.body):
            node.body[i] = _PutBackClasses(ctx._classes).visit(s)


class ConvertedEntity:
    """The result of converting one function (shared by all its closures)."""

    def __init__(self, name, source, code, line_map, filename, info, operators_name="ag__"):
        self.name = name
        self.operators_name = operators_name    # not "ag__" when the user has an `ag__`
        self.source = source
        self.code = code
        self.line_map = line_map
        self.filename = filename
        self.info = info
        # (line, text) of statements changing objects the function did not
        # create (static_analysis/effects.object_writes): reported when a
        # staged statement traces a call of it (operators/calls.py).
        self.object_writes = ()

    def make_function(self, fn):
        """A function running the generated code with `fn`'s globals and cells."""
        cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
        closure = []
        for name in self.code.co_freevars:
            if name == "ag__" and self.operators_name == "ag__":
                closure.append(types.CellType(operators))
            else:
                closure.append(cells[name])
        new = types.FunctionType(self.code, fn.__globals__, fn.__name__, fn.__defaults__,
                                 tuple(closure) or None)
        new.__kwdefaults__ = fn.__kwdefaults__
        new.__qualname__ = fn.__qualname__
        new.__doc__ = fn.__doc__
        new.__dict__.update(fn.__dict__)
        new.__wrapped_original__ = Original(fn)
        return new


class Original:
    """`original()`: the user's function a converted function was made from.

    Held weakly: the user's function keeps its converted function (the
    conversion cache in its __dict__), so a strong reference back would make
    a cycle, and every dropped converted function, with its generated code,
    source map and linecache text, would wait for the cyclic collector (which,
    in a large process, runs a full pass rarely). Once the user's function is
    gone, `original()` builds an equal one from its parts (once: the copy is
    kept). `cached` is True when the converted function is the one the user's
    function caches (api.converted_callable)."""

    __slots__ = ("_ref", "_parts", "_copy", "cached")

    def __init__(self, fn):
        self._ref = weakref.ref(fn)
        self._parts = (fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                       fn.__closure__, fn.__kwdefaults__, fn.__qualname__)
        self._copy = None
        self.cached = False

    def __call__(self):
        fn = self._ref()
        if fn is None:
            if self._copy is None:
                code, globals_, name, defaults, closure, kwdefaults, qualname = self._parts
                self._copy = types.FunctionType(code, globals_, name, defaults, closure)
                self._copy.__kwdefaults__, self._copy.__qualname__ = kwdefaults, qualname
            fn = self._copy
        return fn


def convert_entity(fn, recursive=True):
    """Convert the plain function `fn` (cached per code object and options)."""
    code = fn.__code__
    key = (code.co_filename, recursive)      # code compares by content only
    entry = _CACHE.get(code, {}).get(key)
    if entry is None:
        with _LOCK:                  # one conversion at a time (and per function)
            entry = _CACHE.get(code, {}).get(key)
            if entry is None:
                entry = _convert(fn, recursive)
                _CACHE.setdefault(code, {})[key] = entry
    return entry


def _convert(fn, recursive):
    # Trees are walked recursively: a long `x + x + ... + x` is one level per
    # operand. Python compiles such code; allow the depth it needs here too.
    # Converting allocates thousands of short-lived, acyclic tree nodes: left
    # on, the cyclic collector would scan the whole process several times.
    # (Both are process-wide, reference-counted pauses: see pyct/pauses.py.)
    with pauses.deep_recursion(), pauses.paused_gc():
        return _convert_unguarded(fn, recursive)


def _convert_unguarded(fn, recursive):
    node, info = parser.parse_function(fn)
    found = user_comments(node, info) if fn.__code__.co_name != "<lambda>" else ()
    ctx = Context(fn, node, info, recursive)
    writes = effects.object_writes(node, info) if _may_write_objects(ctx) else ()
    node = convert_tree(node, ctx)
    source, statement_lines = unparse_with_lines(node, found)
    filename = f"<autograph:{fn.__module__}.{fn.__qualname__}:{next(_COUNTER)}>"
    line_map = _line_map(statement_lines, info)
    code, compiled_text = _compile(source, filename, fn, node.name, ctx.operators_name)
    linecache.cache[filename] = (len(compiled_text), None, compiled_text.splitlines(True), filename)
    source_map.register(filename, line_map)
    weakref.finalize(code, _forget_generated, filename)
    entity = ConvertedEntity(fn.__name__, source, code, line_map, filename, info,
                             ctx.operators_name)
    entity.object_writes = writes
    return entity


def _forget_generated(filename):
    """The generated code of `filename` is gone: so are its text and maps."""
    linecache.cache.pop(filename, None)
    source_map.forget(filename)
    tracking.forget(filename)


def user_comments(node, info):
    """The comments of the function `node` (not yet converted) in its file."""
    end = getattr(node, "end_lineno", None)
    if end is None:
        return ()
    return comments.collect(info.lines, node.lineno, end)


def unparse_with_lines(node, found=()):
    """(source of the converted function `node` ending in a newline, with the
    comments `found` (see `user_comments`) in place; {line: user line})."""
    source, statement_lines = unparser.unparse_with_lines(node)
    return comments.attach(source, statement_lines, found)


def unparse(node, found=()):
    """The source of the converted function `node`, ending in a newline."""
    return unparse_with_lines(node, found)[0]


def _line_map(statement_lines, info):
    """{line of the compiled code: (user file, user line, user text)} from
    {line of the source: user line} of the statements."""
    # +1: the compiled code sits inside a one-line factory (see _compile).
    return {line + 1: (info.filename, user, info.line_text(user))
            for line, user in statement_lines.items()}


def _compile(source, filename, fn, name, operators_name="ag__"):
    """Compile `source` inside a factory whose parameters are the original's
    free variables, so the generated function closes over the same cells.
    The function is defined under a private name so that its own name still
    resolves as a global (recursion), then renamed. (Code that imports the
    operators under another name has no `ag__` of its own.)"""
    free = list(fn.__code__.co_freevars)
    own = ["ag__"] if operators_name == "ag__" else []
    params = ", ".join(own + [f for f in free if f not in own])
    lines = source.splitlines()
    lines[0] = lines[0].replace(f"def {name}(", "def __autograph_fn(", 1)
    # Every line indented one level, blank lines left blank (joined, then the
    # blank ones' indentation taken out again: no Python loop over the lines;
    # a pass leaves every other one of a run of blank lines).
    body = "    " + "\n    ".join(lines) + "\n"
    while "\n    \n" in body:
        body = body.replace("\n    \n", "\n\n")
    wrapper = f"def __autograph_factory({params}):\n{body}    return __autograph_fn\n"
    module_code = compile(wrapper, filename, "exec")
    factory = next(c for c in module_code.co_consts if isinstance(c, types.CodeType))
    code = next(c for c in factory.co_consts
                if isinstance(c, types.CodeType) and c.co_name == "__autograph_fn")
    code = code.replace(co_name=fn.__name__, co_qualname=fn.__qualname__)
    return code, wrapper
