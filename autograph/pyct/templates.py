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


def _as_expr(value, ctx):
    if isinstance(value, str):
        return gast.Name(id=value, ctx=ctx(), annotation=None, type_comment=None)
    if isinstance(value, gast.AST):
        _set_ctx(value, ctx)
        return value
    raise TypeError(f"template replacement must be a str or AST node, got {type(value).__name__}")


def _set_ctx(node, ctx):
    if isinstance(node, (gast.Name, gast.Attribute, gast.Subscript, gast.Starred)):
        node.ctx = ctx()
    if isinstance(node, (gast.Tuple, gast.List)):
        node.ctx = ctx()
        for e in node.elts:
            _set_ctx(e, ctx)
    if isinstance(node, gast.Starred):
        _set_ctx(node.value, ctx)


_NONE = object()     # not a placeholder


class _Instance:
    """One instantiation of a parsed template: builds fresh nodes from the
    template's (never edited) nodes in one walk, putting the replacements in
    place of the placeholders. Replacement nodes (the user's code) are used
    as they are and never walked, so names inside them are never touched,
    even if they match a key."""

    __slots__ = ("replacements", "used")

    def __init__(self, replacements):
        self.replacements = replacements
        self.used = set()

    def _fresh(self, key, value):
        if isinstance(value, gast.AST) and key in self.used:
            value = copy.deepcopy(value)
        self.used.add(key)
        return value

    def _placeholder(self, node):
        """The replacement of a Name of the template, or _NONE."""
        return self.replacements.get(node.id, _NONE) if node.__class__ is gast.Name else _NONE

    def stmts(self, stmts):
        out = []
        for s in stmts:
            r = self.build(s)
            if r.__class__ is list:
                out.extend(r)
            else:
                out.append(r)
        return out

    def _expand(self, nodes, ctx_of):
        """Copies of `nodes`, with list replacements spliced in."""
        out = []
        for n in nodes:
            value = self._placeholder(n)
            if isinstance(value, (list, tuple)):
                ctx = ctx_of(n)
                for v in self._fresh(n.id, list(value)):
                    out.append(_as_expr(v, ctx))
            else:
                out.append(self.build(n) if isinstance(n, gast.AST) else n)
        return out

    def build(self, node):
        """A fresh copy of template `node` with placeholders replaced (a list
        for a placeholder statement)."""
        cls = node.__class__
        if cls is gast.Name:
            value = self.replacements.get(node.id, _NONE)
            if value is not _NONE:
                if isinstance(value, (list, tuple)):
                    raise ValueError(f"a list replaces {node.id!r} where only one expression fits")
                return _as_expr(self._fresh(node.id, value), type(node.ctx))
        elif cls is gast.Expr:
            value = self._placeholder(node.value)
            if value is not _NONE:
                values = self._fresh(node.value.id, value)
                values = values if isinstance(values, (list, tuple)) else [values]
                return [v if isinstance(v, gast.stmt) else gast.Expr(value=_as_expr(v, gast.Load))
                        for v in values]
        new = cls.__new__(cls)
        attrs = node.__dict__.copy()
        fields = cls._fields
        if cls is gast.FunctionDef:
            name = self.replacements.get(node.name, _NONE)
            if name is not _NONE:
                attrs["name"] = name
            attrs["body"] = self.stmts(node.body)
            attrs["args"] = self.build(node.args)
            fields = ("decorator_list", "returns", "type_params")
        elif cls is gast.Tuple or cls is gast.List:
            attrs["elts"] = self._expand(node.elts, _ctx_of_placeholder)
            fields = ("ctx",)
        elif cls is gast.Call:
            attrs["args"] = self._expand(node.args, _load)
            fields = ("func", "keywords")
        elif cls is gast.arguments:
            attrs["args"] = self._expand(node.args, _param)
            fields = ("posonlyargs", "vararg", "kwonlyargs", "kw_defaults", "kwarg",
                      "defaults")
        for field in fields:
            value = attrs.get(field)
            if value.__class__ is list:
                attrs[field] = self.stmts(value) if value and isinstance(value[0], gast.stmt) \
                    else [self.build(v) if isinstance(v, gast.AST) else v for v in value]
            elif isinstance(value, gast.AST):
                attrs[field] = self.build(value)
        new.__dict__.update(attrs)
        return new


def _ctx_of_placeholder(node):
    return type(node.ctx)


def _load(node):
    return gast.Load


def _param(node):
    return gast.Param


_PARSED = {}


def _parse(template):
    """The statements of `template`, parsed once (never edited: copied by
    each instantiation)."""
    body = _PARSED.get(template)
    if body is None:
        body = _PARSED[template] = gast.parse(textwrap.dedent(template)).body
    return body


def replace(template, **replacements):
    """Statements of `template` with placeholders replaced (a list)."""
    return _Instance(replacements).stmts(_parse(template))


def replace_as_expression(template, **replacements):
    """The single expression of `template`, with placeholders replaced."""
    stmts = replace(template, **replacements)
    if len(stmts) != 1 or not isinstance(stmts[0], gast.Expr):
        raise ValueError(f"template is not a single expression: {template!r}")
    return stmts[0].value
