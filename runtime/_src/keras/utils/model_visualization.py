"""`keras.utils.plot_model`, `model_to_dot` and `model_to_html`: the layer graph.

    plot_model(model, "model.dot", show_shapes=True)   # the layers as a Graphviz graph

`plot_model` draws the layer graph (one box per layer, an arrow per
tensor). Keras renders it to an image with pydot; here `.html` is the
project's own graph viewer (runtime/_src/graph/viewer_assets.py: one
self-contained page, no Graphviz), `.dot` (or `.gv`) the Graphviz text, and
other extensions (`.png`, `.svg`, `.pdf`) are rendered by Graphviz's `dot`
program when it is installed.
"""

import html
import json
import os
import shutil
import subprocess


from runtime._src.graph import viewer_assets

__all__ = ["model_to_dot", "model_to_html", "plot_model"]


def _quote(text):
    """A DOT string literal; a newline becomes DOT's line break."""
    escaped = str(text).replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n") + '"'


def _shape_text(layer):
    shape = getattr(layer, "_build_output_shape", None)
    if shape is None and hasattr(layer, "batch_shape"):
        shape = layer.batch_shape
    return "?" if shape is None else str(tuple(shape))


def model_to_dot(model, show_shapes=False, show_dtype=False, show_layer_names=True,
                 rankdir="TB", **kwargs):
    """Graphviz DOT text of the model's layers and the tensors between them."""
    layers = _layers_of(model)
    ids = {id(layer): f"n{i}" for i, layer in enumerate(layers)}
    lines = [f"digraph {_quote(model.name)} {{", f"  rankdir={rankdir};",
             "  node [shape=record, fontname=Helvetica];"]
    for layer in layers:
        label = _label(layer, show_shapes, show_dtype, show_layer_names)
        lines.append(f"  {ids[id(layer)]} [label={_quote(label)}];")
    for src, dst in _edges(model, layers):
        lines.append(f"  {ids[id(src)]} -> {ids[id(dst)]};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _edges(model, layers):
    nodes = getattr(model, "_nodes", None)
    if nodes is None:                  # Sequential: a chain
        return list(zip(layers, layers[1:]))
    edges = []
    for node in nodes:
        for parent in node.parent_nodes:
            edge = (parent.operation, node.operation)
            if edge not in edges:
                edges.append(edge)
    return edges


def _layers_of(model):
    return list(getattr(model, "_operations", None) or model.layers)


def _label(layer, show_shapes, show_dtype, show_layer_names):
    label = f"{layer.name} ({type(layer).__name__})" if show_layer_names \
        else type(layer).__name__
    if show_shapes:
        label += f"\n{_shape_text(layer)}"
    if show_dtype:
        label += f"\n{layer.dtype}"
    return label


def model_to_html(model, show_shapes=False, show_dtype=False, show_layer_names=True):
    """One self-contained HTML page drawing the layer graph with the project's
    graph viewer (the same page `tf.autograph` graphs get)."""
    layers = _layers_of(model)
    ids = {id(layer): f"n{i}" for i, layer in enumerate(layers)}
    inputs = {id(layer): [] for layer in layers}
    for src, dst in _edges(model, layers):
        inputs[id(dst)].append(ids[id(src)])
    nodes = []
    for layer in layers:
        kind = "input" if type(layer).__name__ == "InputLayer" else "op"
        text = _label(layer, show_shapes, show_dtype, show_layer_names).split("\n")
        nodes.append({"id": ids[id(layer)], "name": layer.name, "op": type(layer).__name__,
                      "kind": kind, "label": text[0], "detail": " ".join(text[1:]),
                      "title": "\n".join(text), "path": f"{model.name}/{layer.name}",
                      "type": "", "inputs": inputs[id(layer)]})
    fed = {i for node in nodes for i in node["inputs"]}
    data = {"name": model.name, "path": model.name, "nodes": nodes, "bodies": [],
            "outputs": [n["id"] for n in nodes if n["id"] not in fed]}
    payload = json.dumps(data, sort_keys=True).replace("</", "<\\/")
    title = html.escape(model.name)
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>{title}</title>\n"
            f"<style>\n{viewer_assets.CSS}</style>\n</head>\n<body>\n<h1>{title}</h1>\n"
            f"<div id=\"root\" data-expand=\"false\"></div>\n"
            f"<script type=\"application/json\" id=\"graph-data\">{payload}</script>\n"
            f"<script>\n{viewer_assets.JS}</script>\n</body></html>\n")


def plot_model(model, to_file="model.png", show_shapes=False, show_dtype=False,
               show_layer_names=True, rankdir="TB", dpi=200, **kwargs):
    """Write the layer graph to `to_file`: an HTML page of the project's graph
    viewer for .html, DOT text for .dot / .gv, an image through Graphviz's
    `dot` program otherwise. Returns the DOT text."""
    dot = model_to_dot(model, show_shapes=show_shapes, show_dtype=show_dtype,
                       show_layer_names=show_layer_names, rankdir=rankdir)
    to_file = os.fspath(to_file)
    extension = os.path.splitext(to_file)[1].lower().lstrip(".") or "png"
    if extension in ("html", "htm"):
        with open(to_file, "w", encoding="utf-8") as f:
            f.write(model_to_html(model, show_shapes, show_dtype, show_layer_names))
        return dot
    if extension in ("dot", "gv"):
        with open(to_file, "w", encoding="utf-8") as f:
            f.write(dot)
        return dot
    program = shutil.which("dot")
    if program is None:
        raise ImportError(
            f"plot_model: rendering {to_file!r} needs Graphviz's `dot` program, which is not "
            "installed. Install Graphviz, or draw it without Graphviz with "
            "to_file='model.html' (or write DOT text with to_file='model.dot').")
    subprocess.run([program, f"-T{extension}", f"-Gdpi={dpi}", "-o", to_file],
                   input=dot.encode("utf-8"), check=True)
    return dot
