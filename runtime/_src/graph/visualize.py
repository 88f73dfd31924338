"""`visualize(fn_or_concrete, "out.svg" | "out.html" | "out.dot")`: a picture
of a traced graph in one call.

- `.svg`: the DOT text of `runtime.dot` rendered by Graphviz's `dot`
  (`apt-get install graphviz`); a clear error when `dot` is missing.
- `.html`: one self-contained page (inline CSS and JS, no network) that lays
  the graph out in layers and draws it as SVG; each cond branch or loop body
  is a collapsible section, toggled by clicking the op that owns it.
- `.dot`: the Graphviz text itself.

`fn_or_concrete` is a `Graph`, a concrete function (anything with `.graph`),
or a `runtime.function` (traced with `get_concrete_function(*args)`: pass
example arguments unless it has an `input_signature`).

    visualize(f, "f.html", tf.constant(3))
"""

import json
import os
import shutil
import subprocess

from runtime._src.graph.dot import to_dot
from runtime._src.graph.graph import Graph
from runtime._src.graph.graph_text import format_attr, subgraph_attrs, type_text

__all__ = ["visualize", "graph_of", "to_html", "to_svg", "graph_json"]


def visualize(fn_or_concrete, path, *args, **kwargs):
    """Write a picture of the graph of `fn_or_concrete` to `path`; return `path`."""
    graph = graph_of(fn_or_concrete, *args, **kwargs)
    path = os.fspath(path)
    ext = os.path.splitext(path)[1].lower()
    if ext == ".svg":
        content = to_svg(graph, html_path=os.path.splitext(path)[0] + ".html")
    elif ext in (".html", ".htm"):
        content = to_html(graph)
    elif ext in (".dot", ".gv"):
        content = to_dot(graph)
    else:
        raise ValueError(f"visualize: cannot write {path!r}: expected a path ending in "
                         f".svg, .html or .dot, got {ext or 'no extension'!r}")
    with open(path, "w", encoding="utf-8") as f:
        f.write(content)
    return path


def graph_of(obj, *args, **kwargs):
    """The Graph behind a Graph, a concrete function or a runtime.function."""
    if isinstance(obj, Graph):
        return obj
    graph = getattr(obj, "graph", None)
    if isinstance(graph, Graph):
        return graph
    get_concrete = getattr(obj, "get_concrete_function", None)
    if get_concrete is not None:
        try:
            return get_concrete(*args, **kwargs).graph
        except (TypeError, ValueError) as e:
            raise ValueError(
                f"visualize: could not trace {getattr(obj, '__name__', obj)!r} ({e}); pass "
                "example arguments after the path, e.g. visualize(f, 'f.html', "
                "tf.constant(1)), or give the function an input_signature") from e
    raise TypeError(f"visualize: expected a Graph, a concrete function or a "
                    f"runtime.function, got {type(obj).__name__}")


def to_svg(graph, html_path=None):
    """SVG text rendered by Graphviz's `dot` from `to_dot(graph)`.

    Without `dot` on PATH, a RuntimeError suggests the HTML page instead
    (`html_path`, when given, is the file name it suggests)."""
    exe = shutil.which("dot")
    if exe is None:
        instead = f"visualize(f, {html_path!r})" if html_path else "a path ending in .html"
        raise RuntimeError("visualize: SVG needs Graphviz's 'dot' program, which is not on "
                           f"PATH; write HTML instead ({instead}: a self-contained page that "
                           "needs no Graphviz), or install Graphviz (e.g. apt-get install "
                           "graphviz, brew install graphviz)")
    done = subprocess.run([exe, "-Tsvg"], input=to_dot(graph), capture_output=True,
                          text=True, timeout=120, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"visualize: dot failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


# --- HTML ------------------------------------------------------------------------

def graph_json(graph):
    """The graph as plain data for the HTML viewer (nested bodies included)."""
    ids = {}
    return _graph_data(graph, graph.name, ids)


def _graph_data(graph, path, ids):
    def nid(node):
        return ids.setdefault(id(node), f"n{len(ids)}")
    inputs = {id(t.node) for t in graph.inputs}
    captured = {id(inner.node): outer for outer, inner in graph.captures}
    nodes, bodies = [], []
    for node in graph.nodes:
        kind = ("input" if id(node) in inputs else "capture" if id(node) in captured
                else "const" if node.op == "Const" else "effect" if node.side_effect
                else "control" if node.subgraphs() else "op")
        detail = node.op
        if kind == "const":
            detail = "= " + format_attr(node.attrs.get("value"))
        elif kind == "capture":
            detail = "<- " + captured[id(node)].name
        elif kind == "input":
            detail = "input"
        nodes.append({"id": nid(node), "name": node.name, "op": node.op, "kind": kind,
                      "detail": detail, "path": f"{path}/{node.name}",
                      "type": ", ".join(type_text(t.dtype, t.shape) for t in node.outputs),
                      "inputs": [nid(t.node) for t in node.inputs]})
        for attr, sub in subgraph_attrs(node):
            bodies.append({"owner": nid(node), "title": f"{node.name}/{attr}",
                           "graph": _graph_data(sub, f"{path}/{node.name}/{attr}", ids)})
    return {"name": graph.name, "path": path, "nodes": nodes, "bodies": bodies,
            "outputs": [nid(t.node) for t in graph.outputs]}


def to_html(graph):
    """A self-contained HTML page drawing `graph` (no external resources)."""
    data = json.dumps(graph_json(graph), sort_keys=True).replace("</", "<\\/")
    title = graph.name.replace("&", "&amp;").replace("<", "&lt;")
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>{title}</title>\n"
            f"<style>\n{_CSS}</style>\n</head>\n<body>\n<h1>{title}</h1>\n"
            f"<div id=\"root\"></div>\n"
            f"<script type=\"application/json\" id=\"graph-data\">{data}</script>\n"
            f"<script>\n{_JS}</script>\n</body></html>\n")


# --- the viewer's inline CSS and JS -------------------------------------------------

_CSS = """\
body { font-family: Helvetica, Arial, sans-serif; margin: 16px; color: #222; }
h1 { font-size: 18px; }
svg .node rect { stroke: #888; rx: 6; }
svg .node.op rect { fill: #f4f4f4; }
svg .node.input rect { fill: #dff3df; }
svg .node.capture rect { fill: #f3ecd8; }
svg .node.const rect { fill: #ececec; }
svg .node.effect rect { fill: #f8dede; }
svg .node.control rect { fill: #e4e0f5; cursor: pointer; }
svg .node.output rect { stroke: #2a5db0; stroke-width: 2; }
svg .node text { font-size: 11px; }
svg .node text.detail { fill: #555; }
svg .edge { fill: none; stroke: #999; stroke-width: 1.2; }
details.body { margin: 8px 0 8px 24px; border-left: 2px dashed #aaa; padding-left: 8px; }
details.body > summary { cursor: pointer; font-weight: bold; }
"""

_JS = r"""
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var W = 170, H = 44, GX = 24, GY = 36;
  var data = JSON.parse(document.getElementById("graph-data").textContent);
  var drawn = 0;

  function el(tag, attrs, parent) {
    var e = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(e);
    return e;
  }

  function layout(graph) {           // rank = longest path from a source
    var rank = {}, rows = [];
    graph.nodes.forEach(function (n) {
      var r = 0;
      n.inputs.forEach(function (i) { if (i in rank) r = Math.max(r, rank[i] + 1); });
      rank[n.id] = r;
      (rows[r] = rows[r] || []).push(n);
    });
    var pos = {};
    rows.forEach(function (row, r) {
      row.forEach(function (n, c) { pos[n.id] = {x: GX + c * (W + GX), y: GY + r * (H + GY)}; });
    });
    var width = Math.max.apply(null, rows.map(function (row) { return row.length; }).concat([1]));
    return {pos: pos, width: GX + width * (W + GX), height: GY + rows.length * (H + GY)};
  }

  function draw(graph, container) {
    var lay = layout(graph);
    var svg = el("svg", {width: lay.width, height: lay.height, "class": "graph",
                         "data-graph": graph.path});
    container.appendChild(svg);
    var outputs = {};
    graph.outputs.forEach(function (o) { outputs[o] = true; });
    graph.nodes.forEach(function (n) {
      n.inputs.forEach(function (i) {
        var a = lay.pos[i], b = lay.pos[n.id];
        if (!a) return;
        var x1 = a.x + W / 2, y1 = a.y + H, x2 = b.x + W / 2, y2 = b.y;
        el("path", {"class": "edge", d: "M" + x1 + "," + y1 + " C" + x1 + "," + (y1 + GY / 2) +
                    " " + x2 + "," + (y2 - GY / 2) + " " + x2 + "," + y2}, svg);
      });
    });
    var bodiesOf = {};
    graph.nodes.forEach(function (n) {
      var p = lay.pos[n.id];
      var g = el("g", {"class": "node " + n.kind + (outputs[n.id] ? " output" : ""),
                       "data-node": n.path, "data-op": n.op,
                       transform: "translate(" + p.x + "," + p.y + ")"}, svg);
      el("rect", {width: W, height: H}, g);
      var t1 = el("text", {x: 8, y: 17}, g);
      t1.textContent = n.name + " : " + n.type;
      var t2 = el("text", {x: 8, y: 34, "class": "detail"}, g);
      t2.textContent = n.detail;
      var tip = el("title", {}, g);
      tip.textContent = n.path + " (" + n.op + ")";
      drawn += 1;
      bodiesOf[n.id] = g;
    });
    graph.bodies.forEach(function (b) {
      var d = document.createElement("details");
      d.className = "body";
      d.open = true;
      d.setAttribute("data-body", b.graph.path);
      var s = document.createElement("summary");
      s.textContent = b.title + " (" + b.graph.nodes.length + " ops)";
      d.appendChild(s);
      container.appendChild(d);
      draw(b.graph, d);
      var owner = bodiesOf[b.owner];
      if (owner) owner.addEventListener("click", function () { d.open = !d.open; });
    });
  }

  draw(data, document.getElementById("root"));
  document.body.setAttribute("data-rendered-nodes", String(drawn));
})();
"""
