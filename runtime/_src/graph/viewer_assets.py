"""The inline CSS and JS of the HTML graph viewer (`visualize.to_html`).

The page embeds the graph as JSON (`visualize.graph_json`); the script lays
each graph out in layers and draws it as SVG:

- a node's layer is one below its deepest input; a node with no inputs (a
  constant, a capture) sits just above its first consumer instead of at the
  top; within a layer, nodes are ordered by the mean position of their
  inputs (fewer crossings) and the layer is centred;
- edges are curves ending in an arrowhead (an SVG marker);
- text is cut with "…" to its box (already cut in Python by character count;
  the script measures and cuts again when a font is wider), the whole text
  is the tooltip;
- each nested graph is a <details> section, folded unless the page was made
  with `expand=True`; clicking the op that owns it toggles it;
- an SVG larger than the window is scaled down to fit it (viewBox and CSS
  max-width / max-height), so a 20-node graph is seen whole.

For tests, `document.body` gets `data-rendered-nodes` (the number of boxes
drawn), `data-overflowing-labels` (visible texts wider than their box) and
`data-fits-window` (the top graph lies inside the window).
"""

__all__ = ["CSS", "JS"]

CSS = """\
body { font-family: Helvetica, Arial, sans-serif; margin: 16px; color: #222; }
h1 { font-size: 18px; }
svg.graph { max-width: 100%; max-height: calc(100vh - 90px); width: auto; height: auto;
            display: block; }
svg .node rect { stroke: #888; rx: 6; }
svg .node.op rect { fill: #f4f4f4; }
svg .node.input rect { fill: #dff3df; }
svg .node.capture rect { fill: #f3ecd8; }
svg .node.const rect { fill: #ececec; }
svg .node.effect rect { fill: #f8dede; }
svg .node.control rect { fill: #e4e0f5; cursor: pointer; stroke-width: 2; }
svg .node.output rect { stroke: #2a5db0; stroke-width: 2; }
svg .node text { font-size: 11px; }
svg .node text.detail { fill: #555; }
svg .edge { fill: none; stroke: #888; stroke-width: 1.2; }
svg .arrowhead { fill: #888; }
details.body { margin: 8px 0 8px 24px; border-left: 2px dashed #aaa; padding-left: 8px; }
details.body > summary { cursor: pointer; font-weight: bold; }
"""

JS = r"""
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var W = 170, H = 36, GX = 20, GY = 26, PAD = 8;
  var data = JSON.parse(document.getElementById("graph-data").textContent);
  var expand = document.getElementById("root").getAttribute("data-expand") === "true";
  var drawn = 0, markers = 0;

  function el(tag, attrs, parent) {
    var e = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(e);
    return e;
  }

  function ranks(graph) {            // nodes come in topological order
    var rank = {}, users = {};
    graph.nodes.forEach(function (n) {
      var r = 0;
      users[n.id] = [];
      n.inputs.forEach(function (i) {
        if (i in rank) { r = Math.max(r, rank[i] + 1); users[i].push(n.id); }
      });
      rank[n.id] = r;
    });
    for (var k = graph.nodes.length - 1; k >= 0; k--) {
      var n = graph.nodes[k];
      if (n.inputs.length || n.kind === "input" || !users[n.id].length) continue;
      var first = Math.min.apply(null, users[n.id].map(function (u) { return rank[u]; }));
      rank[n.id] = Math.max(first - 1, 0);
    }
    return rank;
  }

  function layout(graph) {
    var rank = ranks(graph), rows = [], pos = {}, col = {};
    graph.nodes.forEach(function (n) { (rows[rank[n.id]] = rows[rank[n.id]] || []).push(n); });
    rows = rows.filter(function (row) { return row; });
    var widest = Math.max.apply(null, rows.map(function (row) { return row.length; }).concat([1]));
    rows.forEach(function (row, r) {
      var key = {};
      row.forEach(function (n, c) {
        var xs = n.inputs.filter(function (i) { return i in col; })
                         .map(function (i) { return col[i]; });
        key[n.id] = xs.length ? xs.reduce(function (a, b) { return a + b; }) / xs.length : c;
      });
      row.sort(function (a, b) { return key[a.id] - key[b.id]; });
      var offset = (widest - row.length) / 2;
      row.forEach(function (n, c) {
        col[n.id] = offset + c;
        pos[n.id] = {x: GX + (offset + c) * (W + GX), y: GY + r * (H + GY)};
      });
    });
    return {pos: pos, width: GX + widest * (W + GX), height: GY + rows.length * (H + GY)};
  }

  function arrowMarker(svg) {
    var id = "arrow" + (markers++);
    var defs = el("defs", {}, svg);
    var m = el("marker", {id: id, viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7,
                          markerHeight: 7, orient: "auto-start-reverse",
                          "class": "arrowhead-marker"}, defs);
    el("path", {d: "M0,0 L10,5 L0,10 z", "class": "arrowhead"}, m);
    return "url(#" + id + ")";
  }

  function fit(text, max) {          // cut with an ellipsis until it fits
    var full = text.textContent;
    if (!text.getComputedTextLength || text.getComputedTextLength() <= max) return;
    var keep = full.length;
    while (keep > 1 && text.getComputedTextLength() > max) {
      keep -= 1;
      text.textContent = full.slice(0, keep).replace(/\u2026$/, "") + "\u2026";
    }
  }

  function fitAll(container) {
    container.querySelectorAll("svg.graph text").forEach(function (t) { fit(t, W - 2 * PAD); });
  }

  function draw(graph, container) {
    var lay = layout(graph);
    var svg = el("svg", {width: lay.width, height: lay.height, "class": "graph",
                         viewBox: "0 0 " + lay.width + " " + lay.height,
                         "data-graph": graph.path});
    container.appendChild(svg);
    var arrow = arrowMarker(svg);
    var outputs = {};
    graph.outputs.forEach(function (o) { outputs[o] = true; });
    graph.nodes.forEach(function (n) {
      n.inputs.forEach(function (i, k) {   // the k-th input enters at the k-th slot
        var a = lay.pos[i], b = lay.pos[n.id];
        if (!a) return;
        var x1 = a.x + W / 2, y1 = a.y + H, y2 = b.y - 1;
        var x2 = b.x + W * (k + 1) / (n.inputs.length + 1);
        el("path", {"class": "edge", "marker-end": arrow,
                    d: "M" + x1 + "," + y1 + " C" + x1 + "," + (y1 + GY / 2) +
                    " " + x2 + "," + (y2 - GY / 2) + " " + x2 + "," + y2}, svg);
      });
    });
    var owners = {};
    graph.nodes.forEach(function (n) {
      var p = lay.pos[n.id];
      var g = el("g", {"class": "node " + n.kind + (outputs[n.id] ? " output" : ""),
                       "data-node": n.path, "data-op": n.op,
                       transform: "translate(" + p.x + "," + p.y + ")"}, svg);
      el("rect", {width: W, height: H}, g);
      var t1 = el("text", {x: PAD, y: 15, "class": "label"}, g);
      t1.textContent = n.label;
      var t2 = el("text", {x: PAD, y: 29, "class": "detail"}, g);
      t2.textContent = n.detail;
      var tip = el("title", {}, g);
      tip.textContent = n.title;
      drawn += 1;
      owners[n.id] = g;
    });
    graph.bodies.forEach(function (b) {
      var d = document.createElement("details");
      d.className = "body";
      d.open = expand;
      d.setAttribute("data-body", b.graph.path);
      var s = document.createElement("summary");
      var count = b.graph.nodes.length;
      s.textContent = b.title + " (" + count + (count === 1 ? " node)" : " nodes)");
      d.appendChild(s);
      container.appendChild(d);
      draw(b.graph, d);
      d.addEventListener("toggle", function () { if (d.open) fitAll(d); });
      var owner = owners[b.owner];
      if (owner) owner.addEventListener("click", function () { d.open = !d.open; });
    });
  }

  function overflowing() {           // visible labels wider than their box
    var count = 0;
    document.querySelectorAll("svg.graph text").forEach(function (t) {
      if (t.getComputedTextLength() > W - 2 * PAD + 0.5) count += 1;
    });
    return count;
  }

  var root = document.getElementById("root");
  draw(data, root);
  fitAll(root);
  var box = root.querySelector("svg.graph").getBoundingClientRect();
  document.body.setAttribute("data-rendered-nodes", String(drawn));
  document.body.setAttribute("data-overflowing-labels", String(overflowing()));
  document.body.setAttribute("data-fits-window", String(
    box.right <= window.innerWidth && box.bottom <= window.innerHeight));
})();
"""
