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


class _Replacer(gast.NodeTransformer):
    """Replaces placeholders of the template only: names inside replacement
    nodes (the user's code) are never touched, even if they match a key."""

    def __init__(self, replacements, template_nodes):
        self.replacements = replacements
        self.template = template_nodes
        self.used = set()

    def _is_placeholder(self, node):
        return id(node) in self.template and node.id in self.replacements

    def _fresh(self, key, value):
        if isinstance(value, gast.AST) and key in self.used:
            value = copy.deepcopy(value)
        self.used.add(key)
        return value

    def _expand(self, nodes, ctx_of):
        """Splice list replacements found directly in a list of Name nodes."""
        out = []
        for n in nodes:
            if isinstance(n, gast.Name) and self._is_placeholder(n) and \
                    isinstance(self.replacements[n.id], (list, tuple)):
                for v in self._fresh(n.id, list(self.replacements[n.id])):
                    out.append(_as_expr(v, ctx_of(n)))
            else:
                out.append(n)
        return out

    def visit_Name(self, node):
        if self._is_placeholder(node):
            value = self.replacements[node.id]
            if isinstance(value, (list, tuple)):
                raise ValueError(f"a list replaces {node.id!r} where only one expression fits")
            return _as_expr(self._fresh(node.id, value), type(node.ctx))
        return node

    def visit_Tuple(self, node):
        node.elts = self._expand(node.elts, lambda n: type(n.ctx))
        self.generic_visit(node)
        return node

    visit_List = visit_Tuple

    def visit_Call(self, node):
        node.args = self._expand(node.args, lambda n: gast.Load)
        self.generic_visit(node)
        return node

    def visit_arguments(self, node):
        node.args = self._expand(node.args, lambda n: gast.Param)
        self.generic_visit(node)
        return node

    def visit_FunctionDef(self, node):
        if id(node) not in self.template:
            return node
        if node.name in self.replacements:
            node.name = self.replacements[node.name]
        node.body = self._stmts(node.body)
        node.args = self.visit(node.args)
        return node

    def visit_If(self, node):
        node.test = self.visit(node.test)
        node.body = self._stmts(node.body)
        node.orelse = self._stmts(node.orelse)
        return node

    def visit_Expr(self, node):
        if isinstance(node.value, gast.Name) and self._is_placeholder(node.value):
            value = self._fresh(node.value.id, self.replacements[node.value.id])
            values = value if isinstance(value, (list, tuple)) else [value]
            return [v if isinstance(v, gast.stmt) else gast.Expr(value=_as_expr(v, gast.Load))
                    for v in values]
        self.generic_visit(node)
        return node

    def _stmts(self, stmts):
        out = []
        for s in stmts:
            r = self.visit(s)
            out.extend(r if isinstance(r, list) else [r])
        return out


_PARSED = {}


def _clone(node, made):
    """A fresh copy of a template tree (faster than copy.deepcopy); every new
    node is also appended to `made`. Template nodes hold only their fields and
    positions, all kept in their __dict__."""
    if isinstance(node, list):
        return [_clone(n, made) for n in node]
    cls = node.__class__
    new = cls.__new__(cls)
    attrs = node.__dict__.copy()
    for field in cls._fields:
        value = attrs[field]
        if isinstance(value, list):
            attrs[field] = [_clone(n, made) if isinstance(n, gast.AST) else n for n in value]
        elif isinstance(value, gast.AST):
            attrs[field] = _clone(value, made)
    new.__dict__.update(attrs)
    made.append(new)
    return new


def _parse(template):
    """(fresh statements of `template`, all their nodes)."""
    body = _PARSED.get(template)
    if body is None:
        body = _PARSED[template] = gast.parse(textwrap.dedent(template)).body
    made = []
    return _clone(body, made), made


def replace(template, **replacements):
    """Statements of `template` with placeholders replaced (a list)."""
    body, nodes = _parse(template)
    # Keep the template's nodes alive while replacing: a freed node's id could
    # be reused by a new node and mistaken for a placeholder.
    return _Replacer(replacements, {id(n): n for n in nodes})._stmts(body)


def replace_as_expression(template, **replacements):
    """The single expression of `template`, with placeholders replaced."""
    stmts = replace(template, **replacements)
    if len(stmts) != 1 or not isinstance(stmts[0], gast.Expr):
        raise ValueError(f"template is not a single expression: {template!r}")
    return stmts[0].value
