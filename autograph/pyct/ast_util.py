"""Small queries over gast trees shared by the converters.

    walk(node)                        # every node below, as a list (gast.walk's order)
    contains(stmts, gast.Break)       # a break of *these* loops (not nested ones)?
    always_exits(stmts)               # does every path end in return/raise?
    located(new_stmts, line)          # give generated nodes the user's line
"""

import gast

from . import anno

# Fields holding statements (or handlers and match cases, which hold them).
_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")

FUNCTIONS = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)
LOOPS = (gast.While, gast.For, gast.AsyncFor)
_FUNCTION_CLASSES = frozenset(FUNCTIONS)

# Nodes no converter or analysis visits (contexts and operators): generic
# walks skip them instead of dispatching to a method that does nothing.
_LEAVES = frozenset(c for c in vars(gast).values() if isinstance(c, type) and issubclass(
    c, (gast.expr_context, gast.operator, gast.boolop, gast.unaryop, gast.cmpop)))


def walk(node):
    """Every node under `node` (itself included; operator and context nodes
    left out), as a list in `gast.walk`'s order (breadth first)."""
    out = [node]
    get = _CHILDREN.get
    for n in out:                  # the list grows while it is walked: breadth first
        cls = n.__class__
        out.extend((get(cls) or _children_function(cls))(n))
    return out


def children(node):
    """The child nodes of `node` in field order, like gast.iter_child_nodes,
    but without operator and context nodes (no walk looks for those)."""
    make = _CHILDREN.get(node.__class__)
    if make is None:
        make = _children_function(node.__class__)
    return make(node)


# gast class -> its fields that can hold child nodes (not names, numbers,
# constants, contexts or operators), from gast's field types; and a function
# (node -> list of its children) written for those fields, so that a walk
# does not loop over field names for every node (walks are most of what
# converting a function costs).
_CHILD_FIELDS = {}
_CHILDREN = {}
_NOT_NODES = ("str", "int", "object", "expr_context", "operator", "boolop", "unaryop", "cmpop")
_NAME_NODES = {(gast.ExceptHandler, "name")}     # typed str, but gast makes it a Name


def _children_function(cls):
    fields = _CHILD_FIELDS.get(cls) or _child_fields(cls)
    lines = ["def children(node):", "    values = node.__dict__", "    out = []"]
    for field in fields:
        lines += [f"    value = values.get({field!r})",
                  "    if value is not None:",
                  "        if value.__class__ is list:",
                  "            out.extend(value if None not in value"
                  " else [c for c in value if c is not None])",
                  "        else:",
                  "            out.append(value)"]
    lines.append("    return out")
    namespace = {}
    exec("\n".join(lines), namespace)  # noqa: S102 - our own source, one per class
    _CHILDREN[cls] = make = namespace["children"]
    return make


def _child_fields(cls):
    fields = []
    for field in cls._fields:
        kind = getattr(cls, "_field_types", {}).get(field)
        text = kind.__name__ if isinstance(kind, type) else repr(kind)
        words = set(text.replace("|", " ").replace("[", " ").replace("]", " ")
                    .replace(".", " ").split()) - {"list", "None", "ast", "gast"}
        if kind is None or not words <= set(_NOT_NODES) or (cls, field) in _NAME_NODES:
            fields.append(field)
    _CHILD_FIELDS[cls] = fields = tuple(fields)
    return fields


def walk_scope(nodes, stop=FUNCTIONS):
    """Nodes under `nodes`, not entering nested nodes of the `stop` types
    (operator and context nodes are left out). A nested function, lambda or
    class is itself yielded, not entered; nested loops in `stop` are left out."""
    stack = list(nodes) if isinstance(nodes, list) else [nodes]
    if stop is FUNCTIONS:           # the usual walk: every child of a non-function
        get, functions = _CHILDREN.get, _FUNCTION_CLASSES
        while stack:
            n = stack.pop()
            yield n
            cls = n.__class__
            if cls not in functions:
                stack.extend((get(cls) or _children_function(cls))(n))
        return
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, FUNCTIONS) and isinstance(n, stop):
            continue      # a nested function: its body is its own
        for c in children(n):
            if not isinstance(c, stop) or isinstance(c, FUNCTIONS):
                stack.append(c)


def contains(stmts, kind, through_loops=True):
    """True when `stmts` hold a `kind` statement (Break, Continue, Return) of
    this function (and, unless through_loops is False, of this loop level
    only). Only statement blocks are walked: no statement is inside an
    expression. (`walk_scope`'s walk, written out: the jump converters ask
    this of every statement.)"""
    stop = FUNCTIONS if through_loops else _FUNCTIONS_AND_LOOPS
    stack = list(stmts) if isinstance(stmts, list) else [stmts]
    while stack:
        n = stack.pop()
        if isinstance(n, kind):
            return True
        if isinstance(n, FUNCTIONS):
            continue      # a nested function: its body is its own
        values = n.__dict__
        fields = _BLOCK_FIELDS.get(n.__class__)
        if fields is None:
            fields = _block_fields(n.__class__)
        for field in fields:
            block = values.get(field)
            if block.__class__ is list:
                for c in block:
                    if not isinstance(c, stop) or isinstance(c, FUNCTIONS):
                        stack.append(c)
    return False


# class -> its fields among _BLOCKS (most statements have none: no loop over
# the names for them).
_BLOCK_FIELDS = {}


def _block_fields(cls, blocks=_BLOCKS, table=_BLOCK_FIELDS):
    """`cls`'s fields among `blocks`, remembered in `table`."""
    fields = table[cls] = tuple(f for f in blocks if f in cls._fields)
    return fields


_FUNCTIONS_AND_LOOPS = FUNCTIONS + LOOPS


def always_exits(stmts):
    """Every path through `stmts` ends in `return` or `raise`."""
    for s in stmts:
        if isinstance(s, (gast.Return, gast.Raise)):
            return True
        if isinstance(s, gast.If) and always_exits(s.body) and always_exits(s.orelse):
            return True
    return False


def located(stmts, line):
    """Annotate generated statements (and the statements in their blocks)
    with the user's line. Statements that already have a line (the user's
    own) are left, with what they hold. Expressions are not annotated: what
    reads a line (the unparser's line table, the source report) reads it
    from the statement around them."""
    if line is None:
        return stmts
    stack = list(stmts)
    key, user_line = anno.ANNOTATIONS, anno.USER_LINE
    while stack:            # anno.setdefault, written out: this runs for every new statement
        n = stack.pop()
        values = n.__dict__
        annos = values.get(key)
        if annos is None:
            values[key] = {user_line: line}
        elif user_line in annos:
            continue
        else:
            annos[user_line] = line
        fields = _BLOCK_FIELDS.get(n.__class__)
        if fields is None:
            fields = _block_fields(n.__class__)
        for field in fields:
            block = values.get(field)
            if block.__class__ is list:
                stack.extend(block)
    return stmts


def user_line(node):
    return anno.getanno(node, anno.USER_LINE, None)


def make(cls, **fields):
    """`cls(**fields)` without gast's Python-level constructor (converters
    make thousands of nodes): the node gets exactly `fields`."""
    node = cls.__new__(cls)
    node.__dict__ = fields
    return node


# One instance per context class (gast.Load, gast.Store, ...), shared by the
# nodes parsed and made here, as ast.parse shares its own: a context has no
# fields, and nothing edits or annotates one (a node changes context by
# getting another). A fresh one per name was an object made and freed each.
CONTEXTS = {c: c.__new__(c) for c in vars(gast).values() if isinstance(c, type)
            and issubclass(c, gast.expr_context) and c is not gast.expr_context}


def context(ctx):
    """The shared instance of `ctx` (gast.Load, gast.Store, ...): see CONTEXTS."""
    return CONTEXTS[ctx]


def name(id_, ctx=gast.Load):
    node = gast.Name.__new__(gast.Name)     # `make`, in line: converters make thousands
    node.__dict__ = {"id": id_, "ctx": CONTEXTS[ctx], "annotation": None,
                     "type_comment": None}
    return node


def constant(value):
    return make(gast.Constant, value=value, kind=None)


# --- generated code, built node by node --------------------------------------------
# The shapes converters make most, built as their template text would build
# them (pyct/templates.py), field for field, without instantiating a template.

def arguments(params=()):
    """The parameters `params` (names) of a def or lambda."""
    return make(gast.arguments, posonlyargs=[], args=[name(p, gast.Param) for p in params],
                vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])


def operator_call(operator, args, keywords=None):
    """`ag__.operator(*args, **keywords)` (generated code calls the operators `ag__`)."""
    func = make(gast.Attribute, value=name("ag__"), attr=operator, ctx=CONTEXTS[gast.Load])
    return make(gast.Call, func=func, args=args, keywords=[] if keywords is None else keywords)


def lambda_(body):
    """`lambda: body`."""
    return make(gast.Lambda, args=arguments(), body=body)


def not_(operand):
    """`not operand`."""
    return make(gast.UnaryOp, op=make(gast.Not), operand=operand)


def assign(target, value):
    """`target = value`, `target` a name."""
    return make(gast.Assign, targets=[name(target, gast.Store)], value=value, type_comment=None)


def if_(test, body):
    """`if test: body` (no else)."""
    return make(gast.If, test=test, body=body, orelse=[])


_AST_VISIT_CONSTANT = getattr(gast.NodeVisitor, "visit_Constant", None)


class _Dispatch:
    """`visit` through a per-class table of methods (ast.NodeVisitor builds
    the method name and looks it up for every node)."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._methods = {}
        for leaf in _LEAVES:
            if hasattr(cls, "visit_" + leaf.__name__):
                raise TypeError(f"{cls.__name__}: operator and context nodes are not visited")

    def visit(self, node):
        method = self._methods.get(node.__class__)
        if method is None:
            method = self._method_for(node.__class__)
        return method(self, node)

    @classmethod
    def _method_for(cls, node_cls):
        """The method visiting `node_cls` nodes (remembered in the table)."""
        method = getattr(cls, "visit_" + node_cls.__name__, None)
        if method is None or method is _AST_VISIT_CONSTANT:   # (deprecated-name shim)
            method = cls.generic_visit
            if method is NodeTransformer.generic_visit and node_cls is gast.Name:
                method = _name_generic_visit     # (the walk skips the call: see there)
        cls._methods[node_cls] = method
        return method


class NodeVisitor(_Dispatch, gast.NodeVisitor):
    """gast.NodeVisitor with cheaper dispatch and child walk (operator and
    context nodes are not visited)."""

    def generic_visit(self, node):
        # `visit`, in line: this runs for every node of every walk.
        methods = self._methods
        for child in children(node):
            method = methods.get(child.__class__) or self._method_for(child.__class__)
            method(self, child)


class NodeTransformer(_Dispatch, gast.NodeTransformer):
    """gast.NodeTransformer with cheaper dispatch and child walk (operator
    and context nodes are kept as they are, unvisited)."""

    def generic_visit(self, node):
        methods = self._methods          # `visit`, in line (see NodeVisitor)
        fields = _CHILD_FIELDS.get(node.__class__)
        if fields is None:
            fields = _child_fields(node.__class__)
        values = node.__dict__
        for field in fields:
            old = values.get(field)
            if old is None:
                continue
            if old.__class__ is list:
                new = []
                changed = False
                for item in old:
                    if item is not None:
                        method = methods.get(item.__class__) or self._method_for(item.__class__)
                        if method is _name_generic_visit and item.__dict__.get("annotation") is None:
                            new.append(item)      # a name with nothing to visit, unchanged
                            continue
                        value = method(self, item)
                        if value is not item:
                            changed = True
                            if value is None:
                                continue
                            if not isinstance(value, gast.AST):
                                new.extend(value)
                                continue
                        item = value
                    new.append(item)
                if changed:       # most lists come back as they were
                    old[:] = new
            else:
                method = methods.get(old.__class__) or self._method_for(old.__class__)
                if method is _name_generic_visit and old.__dict__.get("annotation") is None:
                    continue              # a name with nothing to visit, unchanged
                value = method(self, old)
                if value is None:
                    delattr(node, field)
                elif value is not old:
                    values[field] = value
        return node


def _name_generic_visit(self, node):
    """NodeTransformer.generic_visit of a Name (its only child is a
    parameter's annotation): the walk above skips the call when the name
    has none, as most names do."""
    return NodeTransformer.generic_visit(self, node)


# class -> its fields among StatementTransformer._BLOCKS (no subclass has its own)
_STATEMENT_FIELDS = {}


class StatementTransformer(NodeTransformer):
    """A NodeTransformer that visits statements only (never expressions):
    cheaper for rewrites of statements such as break or assert."""

    _BLOCKS = ("body", "orelse", "finalbody", "handlers")

    def generic_visit(self, node):
        # `visit`, in line (see NodeVisitor): this runs for every statement.
        methods = self._methods
        values = node.__dict__
        fields = _STATEMENT_FIELDS.get(node.__class__)
        if fields is None:        # the class's fields among _BLOCKS (most have none)
            fields = _block_fields(node.__class__, self._BLOCKS, _STATEMENT_FIELDS)
        for field in fields:
            block = values.get(field)
            if block.__class__ is not list:
                continue
            new = []
            for s in block:
                r = (methods.get(s.__class__) or self._method_for(s.__class__))(self, s)
                if r is None:
                    continue
                if r.__class__ is list:
                    new.extend(r)
                else:
                    new.append(r)
            values[field] = new
        return node
