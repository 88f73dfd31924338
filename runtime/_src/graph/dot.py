"""Graphviz DOT text for a graph: `to_dot(graph)` (also `graph.to_dot()`).

Each op is a box labelled with its name and result type (and its op when
the name does not say it); edges follow data flow, labelled with the output
index when an op has several outputs. Labels longer than a box are elided
with "…". The picture is meant to fit a screen:

- by default each cond branch or loop body stays folded into the op that
  owns it, whose box names its bodies and their sizes
  (`While` / `body: 16 ops, cond: 1 op`);
- `to_dot(graph, expand=True)` draws the nested graphs as clusters next to
  their owner: a dashed edge goes from each captured outer value to the
  placeholder standing for it inside (captures the body never reads are
  left out), and a dotted one from the owner op into the cluster.

    print(to_dot(graph))       # digraph "f" { ... }
    # dot -Tsvg f.dot > f.svg
"""

from runtime._src.graph.graph import RENDERERS
from runtime._src.graph.graph_text import format_attr, subgraph_attrs, type_text

__all__ = ["to_dot", "elide", "used_captures", "visible_nodes", "types_text", "op_text",
           "bodies_text", "LABEL_WIDTH"]

# Characters per label line: at fontsize 10 a box this wide is about 1.9 in.
LABEL_WIDTH = 26


def to_dot(graph, expand=False):
    """The DOT text of `graph` (deterministic); `expand=True` also draws the
    nested graphs (cond branches, loop bodies) as clusters."""
    ids = _Ids()
    lines = [f"digraph {_quote(graph.name)} {{",
             "  rankdir=TB; ranksep=0.3; nodesep=0.2;",
             '  node [shape=box, style="rounded,filled", fillcolor="#f4f4f4", '
             'fontname="Helvetica", fontsize=10, height=0.3, margin="0.08,0.03"];',
             '  edge [fontname="Helvetica", fontsize=8, arrowsize=0.6];',
             "  compound=true;"]
    _emit_graph(graph, ids, "  ", lines, expand)
    lines.append("}")
    return "\n".join(lines) + "\n"


def elide(text, width=LABEL_WIDTH):
    """`text` cut to `width` characters, ending in "…" when cut."""
    return text if len(text) <= width else text[:width - 1] + "…"


def used_captures(graph):
    """The ids of `graph`'s capture placeholders that a node or an output reads."""
    captured = {id(inner.node) for _, inner in graph.captures}
    used = {id(t.node) for node in graph.nodes for t in node.inputs}
    used |= {id(t.node) for t in graph.outputs}
    return captured & used


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


def visible_nodes(graph):
    """`graph.nodes` less the capture placeholders nothing reads."""
    hidden = {id(inner.node) for _, inner in graph.captures} - used_captures(graph)
    return [n for n in graph.nodes if id(n) not in hidden]


def _emit_graph(graph, ids, indent, lines, expand):
    inputs = {id(t.node) for t in graph.inputs}
    captured = {id(inner.node) for _, inner in graph.captures}
    nodes = visible_nodes(graph)
    for node in nodes:
        lines.append(f"{indent}{ids.node(node)} [label={_quote(_label(node, expand))}"
                     f"{_style(node, inputs, captured)}];")
    for node in nodes:
        for t in node.inputs:
            label = f" [label={_quote(str(t.index))}]" if len(t.node.outputs) > 1 else ""
            lines.append(f"{indent}{ids.node(t.node)} -> {ids.node(node)}{label};")
    _emit_outputs(graph, ids, indent, lines)
    if expand:
        for node in nodes:
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
    lines.append(f"{indent}  label={_quote(elide(f'{owner.name}/{attr}'))};")
    lines.append(f'{indent}  style="rounded,dashed"; color="#7a7a7a";')
    _emit_graph(sub, ids, indent + "  ", lines, True)
    lines.append(f"{indent}}}")
    used = used_captures(sub)
    for outer, inner in sub.captures:
        if id(inner.node) in used:
            lines.append(f"{indent}{ids.node(outer.node)} -> {ids.node(inner.node)} "
                         '[style=dashed, color="#7a7a7a", label="capture"];')
    shown = [t.node for t in sub.inputs] or visible_nodes(sub)
    if shown:
        lines.append(f"{indent}{ids.node(owner)} -> {ids.node(shown[0])} "
                     f'[style=dotted, lhead={name}, label={_quote(attr)}];')


def types_text(node):
    """The result types of `node`, e.g. `int32[], float32[?]`."""
    return ", ".join(type_text(t.dtype, t.shape) for t in node.outputs)


def op_text(node):
    """The op, when the node's name does not already say it (`Range`, `Range_1`)."""
    name, op = node.name, node.op
    if name == op or (name.startswith(op + "_") and name[len(op) + 1:].isdigit()):
        return ""
    return op


def bodies_text(node):
    """`body: 16 ops, cond: 1 op` (`else: 0 ops, then: 2 ops`) for an op owning
    nested graphs."""
    parts = []
    for attr, sub in subgraph_attrs(node):
        count = len(sub.nodes) - len(sub.inputs) - len(sub.captures)
        parts.append(f"{attr.replace('_branch', '')}: {count} op{'' if count == 1 else 's'}")
    return ", ".join(parts)


def _label(node, expand):
    types = types_text(node)
    if node.op == "Placeholder":
        return f"{elide(node.name)}\n{elide(types)}"
    if node.op == "Const":
        return elide(f"{node.name} = {format_attr(node.attrs.get('value'))}") + f"\n{types}"
    op = op_text(node)
    lines = [elide(node.name), elide(f"{op} : {types}" if op else types)]
    if not expand and node.subgraphs():
        lines.append(elide(bodies_text(node)))
    return "\n".join(line for line in lines if line)


def _style(node, inputs, captured):
    if id(node) in inputs:
        return ', shape=oval, fillcolor="#dff3df"'
    if id(node) in captured:
        return ', shape=oval, fillcolor="#f3ecd8"'
    if node.op == "Const":
        return ', fillcolor="#ececec", fontcolor="#555555", fontsize=8'
    if node.side_effect:
        return ', fillcolor="#f8dede"'
    if node.subgraphs():
        return ', fillcolor="#e4e0f5", peripheries=2'
    return ""


def _quote(text):
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


RENDERERS["to_dot"] = to_dot
