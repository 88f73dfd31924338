"""Rewrites written as Python code with placeholders.

    replace("target = ag__.not_(value)", target="y", value=some_expr_node)
    # -> [Assign(targets=[Name('y', Store)], value=Call(...))]

A placeholder is any name in the template that is a keyword of `replace`.
Its replacement may be a string (a name), an AST node, or a list of nodes or
strings. Lists are spliced where lists make sense: statement bodies, tuple
and list elements, call arguments and function parameters. Expression
replacements take the context (Load/Store) of the placeholder. A node used in
more than one place is copied after its first use, so the tree stays a tree.
"""

import copy
import textwrap

import gast

from . import ast_util


def _as_expr(value, ctx):
    if isinstance(value, str):
        return ast_util.name(value, ctx)
    if isinstance(value, gast.AST):
        _set_ctx(value, ctx)
        return value
    raise TypeError(f"template replacement must be a str or AST node, got {type(value).__name__}")


_CONTEXTS = ast_util.CONTEXTS
_WITH_CTX = (gast.Name, gast.Attribute, gast.Subscript)
_SEQUENCES = (gast.Tuple, gast.List)


def _set_ctx(node, ctx):
    # The shared instance, as ast_util.context gives it, without the call.
    cls = node.__class__
    if cls in _WITH_CTX:
        node.ctx = _CONTEXTS[ctx]
    elif cls in _SEQUENCES:
        node.ctx = _CONTEXTS[ctx]
        for e in node.elts:
            _set_ctx(e, ctx)
    elif cls is gast.Starred:
        node.ctx = _CONTEXTS[ctx]
        _set_ctx(node.value, ctx)


class _Instance:
    """The replacements of one instantiation of a template, as the template's
    builder (see `_Builder`) asks for them. A node used in more than one
    place is copied after its first use."""

    __slots__ = ("replacements", "used")

    def __init__(self, replacements):
        self.replacements = replacements
        self.used = set()

    def _fresh(self, key, value):
        if isinstance(value, gast.AST) and key in self.used:
            value = copy.deepcopy(value)
        self.used.add(key)
        return value

    def name(self, key, ctx):
        """The expression replacing the placeholder name `key`."""
        value = self.replacements[key]
        if value.__class__ is str:        # the commonest: a name (never copied)
            return ast_util.name(value, ctx)
        if isinstance(value, (list, tuple)):
            raise ValueError(f"a list replaces {key!r} where only one expression fits")
        return _as_expr(self._fresh(key, value), ctx)

    def expand(self, key, list_ctx, ctx):
        """The expressions replacing `key` in a list of expressions (a list
        replacement is spliced in)."""
        value = self.replacements[key]
        if value.__class__ is str:        # a name, as `name` makes it
            return [ast_util.name(value, ctx)]
        if isinstance(value, (list, tuple)):
            self.used.add(key)            # (a list is never copied: see _fresh)
            out = []
            for v in value:
                out.append(ast_util.name(v, list_ctx) if v.__class__ is str
                           else _as_expr(v, list_ctx))
            return out
        return [_as_expr(self._fresh(key, value), ctx)]

    def statements(self, key):
        """The statements replacing a placeholder statement `key`."""
        values = self._fresh(key, self.replacements[key])
        values = values if isinstance(values, (list, tuple)) else [values]
        return [v if isinstance(v, gast.stmt) else gast.Expr(value=_as_expr(v, gast.Load))
                for v in values]


# Where a node stands in the template's own text: meaningless in generated
# code, whose statements get the user's line (ast_util.located) and whose
# text positions come from the unparser. Built nodes leave them out, as the
# nodes converters make with ast_util.make do.
_POSITIONS = frozenset(("lineno", "col_offset", "end_lineno", "end_col_offset"))


class _Builder:
    """Writes the Python source of a function that builds fresh copies of a
    template's statements, given which names are placeholders: one
    constructor per node, the placeholders asked of an `_Instance`. The
    nodes are built in the order a walk of the template would visit them,
    and get the template's fields (not its positions: see _POSITIONS)."""

    def __init__(self, keys):
        self.keys = keys
        self.constants = []
        self.temps = 0

    def constant(self, value):
        self.constants.append(value)
        return f"K[{len(self.constants) - 1}]"

    def _is_placeholder(self, node):
        return node.__class__ is gast.Name and node.id in self.keys

    def stmts(self, stmts):
        parts = []
        for s in stmts:
            if s.__class__ is gast.Expr and self._is_placeholder(s.value):
                parts.append(f"*I.statements({s.value.id!r})")
            else:
                parts.append(self.build(s))
        return "[" + ", ".join(parts) + "]"

    def expand(self, nodes, list_ctx):
        parts = []
        for n in nodes:
            if self._is_placeholder(n):
                ctx = self.constant(type(n.ctx))
                parts.append(f"*I.expand({n.id!r}, {list_ctx or ctx}, {ctx})")
            else:
                parts.append(self.value(n))
        return "[" + ", ".join(parts) + "]"

    def value(self, value):
        if value.__class__ is list:
            if value and isinstance(value[0], gast.stmt):
                return self.stmts(value)
            return "[" + ", ".join(self.value(v) for v in value) + "]"
        if isinstance(value, gast.AST):
            return self.build(value)
        return self.constant(value)

    def build(self, node):
        cls = node.__class__
        if self._is_placeholder(node):
            return f"I.name({node.id!r}, {self.constant(type(node.ctx))})"
        if cls in _CONTEXTS:                # shared, not built (see ast_util.CONTEXTS)
            return self.constant(_CONTEXTS[cls])
        first = {}                        # fields built before the others, in order
        if cls is gast.FunctionDef:
            if node.name in self.keys:
                first["name"] = f"I.replacements[{node.name!r}]"
            first["body"] = self.stmts(node.body)
            first["args"] = self.build(node.args)
        elif cls is gast.Tuple or cls is gast.List:
            first["elts"] = self.expand(node.elts, None)
        elif cls is gast.Call:
            first["args"] = self.expand(node.args, self.constant(gast.Load))
        elif cls is gast.arguments:
            first["args"] = self.expand(node.args, self.constant(gast.Param))
        temps = {}
        for field, source in first.items():
            self.temps += 1
            temps[field] = f"t{self.temps}"
            first[field] = f"(t{self.temps} := {source})"
        items = []
        for key, value in node.__dict__.items():
            if key in _POSITIONS:
                continue
            source = temps.get(key)
            if source is None:
                source = self.value(value) if key in cls._fields else (
                    repr(value) if value.__class__ is int else self.constant(value))
            items.append(f"{key!r}: {source}")
        made = f"_node({self.constant(cls)}, {{{', '.join(items)}}})"
        if first:
            return f"({', '.join(first.values())}, {made})[-1]"
        return made


def _node(cls, attrs):
    new = cls.__new__(cls)
    new.__dict__ = attrs          # a fresh dict, made by the builder's call
    return new


# Parsed templates and their builders, by text. The converters write user
# names into placeholders only, never into the text, so the texts are a fixed
# set (tests/reliability/test_process_state.py checks); the bound is a guard
# for callers that do otherwise.
_KEPT = 512
_PARSED = {}
_BUILDERS = {}


def _keep(cache, key, value):
    """cache[key] = value, dropping the oldest entry when the cache is full."""
    while len(cache) >= _KEPT:
        cache.pop(next(iter(cache)), None)
    cache[key] = value
    return value


def _parse(template):
    """The statements of `template`, parsed once (never edited)."""
    body = _PARSED.get(template)
    if body is None:
        body = _keep(_PARSED, template, gast.parse(textwrap.dedent(template)).body)
    return body


def _builder(template, keys):
    """A function (instance -> statements) for `template` with placeholders
    `keys`, written once per template and set of keys."""
    found = _BUILDERS.get((template, keys))
    if found is None:
        builder = _Builder(keys)
        source = f"def build(I):\n    return {builder.stmts(_parse(template))}\n"
        namespace = {"K": builder.constants, "_node": _node}
        exec(compile(source, "<template>", "exec"), namespace)  # noqa: S102 - our own source
        found = _keep(_BUILDERS, (template, keys), namespace["build"])
    return found


def replace(template, **replacements):
    """Statements of `template` with placeholders replaced (a list)."""
    return _builder(template, frozenset(replacements))(_Instance(replacements))


def replace_as_expression(template, **replacements):
    """The single expression of `template`, with placeholders replaced."""
    stmts = replace(template, **replacements)
    if len(stmts) != 1 or not isinstance(stmts[0], gast.Expr):
        raise ValueError(f"template is not a single expression: {template!r}")
    return stmts[0].value
