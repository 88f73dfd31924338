"""`visualize(fn_or_concrete, "out.svg" | "out.html" | "out.dot")`: a picture
of a traced graph in one call.

- `.svg`: the DOT text of `runtime._src.graph.dot` rendered by Graphviz's `dot`
  (`apt-get install graphviz`); a clear error when `dot` is missing.
- `.html`: one self-contained page (inline CSS and JS, no network) that lays
  the graph out in layers and draws it as SVG with arrowheads, scaled to the
  window's width; each cond branch or loop body is a collapsible section,
  folded at first and toggled by clicking the op that owns it.
- `.dot`: the Graphviz text itself.

`fn_or_concrete` is a `Graph`, a concrete function (anything with `.graph`),
or a `runtime.function` (traced with `get_concrete_function(*args)`: pass
example arguments unless it has an `input_signature`).

    visualize(f, "f.html", tf.constant(3))
    visualize(f, "f.svg", tf.constant(3), expand=True)   # bodies drawn too

Pictures are kept to a screen: by default nested graphs are folded into the
op that owns them, labels are cut to their box (the whole text is the
tooltip), and captures a body never reads are not drawn.
"""

import json
import os
import shutil
import subprocess

from runtime._src.graph import viewer_assets
from runtime._src.graph.dot import (bodies_text, elide, op_text, to_dot, types_text,
                                    visible_nodes)
from runtime._src.graph.graph import Graph
from runtime._src.graph.graph_text import format_attr, subgraph_attrs

# Characters per line of an HTML box (170 px at 11 px Helvetica); the viewer
# cuts further if a line still does not fit.
HTML_LABEL_WIDTH = 26

__all__ = ["visualize", "graph_of", "to_html", "to_svg", "graph_json"]


def visualize(fn_or_concrete, path, *args, expand=False, **kwargs):
    """Write a picture of the graph of `fn_or_concrete` to `path`; return `path`.

    Nested graphs (cond branches, loop bodies) are folded into the op that
    owns them unless `expand=True`; other arguments trace `fn_or_concrete`."""
    graph = graph_of(fn_or_concrete, *args, **kwargs)
    path = os.fspath(path)
    ext = os.path.splitext(path)[1].lower()
    if ext == ".svg":
        content = to_svg(graph, html_path=os.path.splitext(path)[0] + ".html", expand=expand)
    elif ext in (".html", ".htm"):
        content = to_html(graph, expand=expand)
    elif ext in (".dot", ".gv"):
        content = to_dot(graph, expand=expand)
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


def to_svg(graph, html_path=None, expand=False):
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
    done = subprocess.run([exe, "-Tsvg"], input=to_dot(graph, expand=expand),
                          capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"visualize: dot failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


# --- HTML ------------------------------------------------------------------------

def graph_json(graph):
    """The graph as plain data for the HTML viewer (nested bodies included;
    capture placeholders nothing reads are left out). Each node has its box
    text already cut to the box (`label`, `detail`) and the whole of it in
    `title`, the tooltip."""
    ids = {}
    return _graph_data(graph, graph.name, ids)


def _graph_data(graph, path, ids):
    def nid(node):
        return ids.setdefault(id(node), f"n{len(ids)}")
    inputs = {id(t.node) for t in graph.inputs}
    captured = {id(inner.node): outer for outer, inner in graph.captures}
    nodes, bodies = [], []
    for node in visible_nodes(graph):
        kind = ("input" if id(node) in inputs else "capture" if id(node) in captured
                else "const" if node.op == "Const" else "effect" if node.side_effect
                else "control" if node.subgraphs() else "op")
        types = types_text(node)
        detail = op_text(node)
        if kind == "const":
            detail = "= " + format_attr(node.attrs.get("value"))
        elif kind == "capture":
            detail = "<- " + captured[id(node)].name
        elif kind == "input":
            detail = "input"
        elif kind == "control":
            detail = bodies_text(node)
        label = f"{node.name} : {types}" if types else node.name
        nodes.append({"id": nid(node), "name": node.name, "op": node.op, "kind": kind,
                      "label": elide(label, HTML_LABEL_WIDTH),
                      "detail": elide(detail, HTML_LABEL_WIDTH),
                      "title": f"{path}/{node.name} ({node.op})\n{label}\n{detail}".rstrip(),
                      "path": f"{path}/{node.name}", "type": types,
                      "inputs": [nid(t.node) for t in node.inputs]})
        for attr, sub in subgraph_attrs(node):
            bodies.append({"owner": nid(node), "title": f"{node.name}/{attr}",
                           "graph": _graph_data(sub, f"{path}/{node.name}/{attr}", ids)})
    return {"name": graph.name, "path": path, "nodes": nodes, "bodies": bodies,
            "outputs": [nid(t.node) for t in graph.outputs]}


def to_html(graph, expand=False):
    """A self-contained HTML page drawing `graph` (no external resources).

    Nested graphs start folded (click the op that owns one, or its title, to
    open it); `expand=True` starts them open."""
    data = json.dumps(graph_json(graph), sort_keys=True).replace("</", "<\\/")
    title = graph.name.replace("&", "&amp;").replace("<", "&lt;")
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>{title}</title>\n"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<style>\n{viewer_assets.CSS}</style>\n</head>\n<body>\n<h1>{title}</h1>\n"
            f"<div id=\"root\" data-expand=\"{'true' if expand else 'false'}\"></div>\n"
            f"<script type=\"application/json\" id=\"graph-data\">{data}</script>\n"
            f"<script>\n{viewer_assets.JS}</script>\n</body></html>\n")
