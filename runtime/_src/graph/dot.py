"""Graphviz DOT text for a graph: `to_dot(graph)` (also `graph.to_dot()`).

Each op is a box labelled with its name, op and result type; edges follow
data flow, labelled with the output index when an op has several outputs.
Nested graphs (cond branches, loop bodies) are drawn as clusters next to
the op that owns them: a dashed edge goes from each captured outer value to
the placeholder standing for it inside, and from the owner op into the
cluster and back.

    print(to_dot(graph))       # digraph "f" { ... }
    # dot -Tsvg f.dot > f.svg
"""

from runtime._src.graph.graph import RENDERERS
from runtime._src.graph.graph_text import format_attr, subgraph_attrs, type_text

__all__ = ["to_dot"]


def to_dot(graph):
    """The DOT text of `graph` and its nested graphs (deterministic)."""
    ids = _Ids()
    lines = [f"digraph {_quote(graph.name)} {{",
             "  rankdir=TB;",
             '  node [shape=box, style="rounded,filled", fillcolor="#f4f4f4", '
             'fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=8];',
             "  compound=true;"]
    _emit_graph(graph, ids, "  ", lines)
    lines.append("}")
    return "\n".join(lines) + "\n"


class _Ids:
    """Stable DOT ids: n0, n1, ... for nodes; c0, c1, ... for clusters."""

    def __init__(self):
        self.nodes = {}
        self.clusters = 0

    def node(self, node):
        key = id(node)
        if key not in self.nodes:
            self.nodes[key] = f"n{len(self.nodes)}"
        return self.nodes[key]

    def cluster(self):
        self.clusters += 1
        return f"cluster_{self.clusters - 1}"


def _emit_graph(graph, ids, indent, lines):
    inputs = {id(t.node) for t in graph.inputs}
    captured = {id(inner.node) for _, inner in graph.captures}
    for node in graph.nodes:
        lines.append(f"{indent}{ids.node(node)} [label={_quote(_label(node))}"
                     f"{_style(node, inputs, captured)}];")
    for node in graph.nodes:
        for t in node.inputs:
            label = f" [label={_quote(str(t.index))}]" if len(t.node.outputs) > 1 else ""
            lines.append(f"{indent}{ids.node(t.node)} -> {ids.node(node)}{label};")
    _emit_outputs(graph, ids, indent, lines)
    for node in graph.nodes:
        for attr, sub in subgraph_attrs(node):
            _emit_cluster(node, attr, sub, ids, indent, lines)


def _emit_outputs(graph, ids, indent, lines):
    if not graph.outputs:
        return
    ret = f"ret_{ids.node(graph)}"
    lines.append(f'{indent}{ret} [label="return", shape=oval, fillcolor="#dde8f8"];')
    for i, t in enumerate(graph.outputs):
        lines.append(f"{indent}{ids.node(t.node)} -> {ret} [label={_quote(str(i))}];")


def _emit_cluster(owner, attr, sub, ids, indent, lines):
    name = ids.cluster()
    lines.append(f"{indent}subgraph {name} {{")
    lines.append(f"{indent}  label={_quote(f'{owner.name}/{attr}')};")
    lines.append(f'{indent}  style="rounded,dashed"; color="#7a7a7a";')
    _emit_graph(sub, ids, indent + "  ", lines)
    lines.append(f"{indent}}}")
    for outer, inner in sub.captures:
        lines.append(f"{indent}{ids.node(outer.node)} -> {ids.node(inner.node)} "
                     '[style=dashed, color="#7a7a7a", label="capture"];')
    if sub.inputs:
        lines.append(f"{indent}{ids.node(owner)} -> {ids.node(sub.inputs[0].node)} "
                     f'[style=dotted, lhead={name}, label={_quote(attr)}];')
    elif sub.nodes:
        lines.append(f"{indent}{ids.node(owner)} -> {ids.node(sub.nodes[0])} "
                     f'[style=dotted, lhead={name}, label={_quote(attr)}];')


def _label(node):
    types = ", ".join(type_text(t.dtype, t.shape) for t in node.outputs)
    if node.op == "Placeholder":
        return f"{node.name}\n{types}"
    if node.op == "Const":
        return f"{node.name} = {format_attr(node.attrs.get('value'))}\n{types}"
    return f"{node.name}\n{node.op} : {types}" if types else f"{node.name}\n{node.op}"


def _style(node, inputs, captured):
    if id(node) in inputs:
        return ', shape=oval, fillcolor="#dff3df"'
    if id(node) in captured:
        return ', shape=oval, fillcolor="#f3ecd8"'
    if node.op == "Const":
        return ', fillcolor="#ececec", fontcolor="#555555"'
    if node.side_effect:
        return ', fillcolor="#f8dede"'
    if node.subgraphs():
        return ', fillcolor="#e4e0f5"'
    return ""


def _quote(text):
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


RENDERERS["to_dot"] = to_dot
