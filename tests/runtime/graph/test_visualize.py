"""runtime.visualize: SVG through Graphviz, self-contained HTML checked in a
headless browser (at two window sizes: the picture of a realistic function
fits, with arrowheads and labels inside their boxes), DOT, and clear errors."""

import os
import re
import shutil
import subprocess
import sys

import pytest

import runtime as tf
from runtime._src.graph.graph import Graph
from runtime._src.optimizer.rewrite import walk_graphs
from runtime._src.graph.dot import visible_nodes
from runtime._src.graph.visualize import (HTML_LABEL_WIDTH, graph_json, graph_of, to_html,
                                          visualize)
from tests.paths import ROOT as ROOT_PATH

from tests.runtime.graphdata_helpers import build, two_level_graph
from tests.runtime.graph.picture_targets import running_stats_graph

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ROOT = str(ROOT_PATH)


def nested():
    return two_level_graph("f", lambda b, x: b * 2, lambda a, x: a + x)


def all_paths(graph, prefix=None):
    prefix = prefix or graph.name
    paths = [f"{prefix}/{n.name}" for n in graph.nodes]
    for n in graph.nodes:
        for attr, sub in sorted(n.attrs.items()):
            if isinstance(sub, Graph):
                paths += all_paths(sub, f"{prefix}/{n.name}/{attr}")
    return paths


def test_html_is_self_contained(tmp_path):
    path = visualize(nested(), tmp_path / "f.html")
    html = open(path, encoding="utf-8").read()
    assert html.startswith("<!DOCTYPE html>")
    assert not re.search(r"<link|<img|<iframe|\bsrc=|\bhref=|@import|url\((?!#)", html)
    assert "fetch(" not in html and "XMLHttpRequest" not in html


def test_html_embeds_every_node_and_nested_bodies():
    g = nested()
    data = graph_json(g)
    assert [n["name"] for n in data["nodes"]] == [n.name for n in g.nodes]
    body = data["bodies"][0]
    assert body["title"] == "TestCall1/body"
    assert body["graph"]["bodies"][0]["graph"]["path"] == "f/TestCall1/body/TestCall1/body"
    kinds = {n["name"]: n["kind"] for n in body["graph"]["nodes"]}
    assert kinds == {"a": "input", "capture": "capture", "AddV2": "op", "TestCall1": "control"}


def test_script_end_tag_in_names_cannot_break_the_page():
    g = build("</script><b>", [("x", tf.int32, [])], lambda x: -x)
    html = to_html(g)
    assert html.count("</script>") == 2
    assert "<title>&lt;/script>&lt;b></title>" in html


def visible_paths(graph, prefix=None):
    """Paths of the nodes the viewer draws (captures nothing reads left out)."""
    prefix = prefix or graph.name
    paths = [f"{prefix}/{n.name}" for n in visible_nodes(graph)]
    for n in visible_nodes(graph):
        for attr, sub in sorted(n.attrs.items()):
            if isinstance(sub, Graph):
                paths += visible_paths(sub, f"{prefix}/{n.name}/{attr}")
    return paths


def browse(path, profile, size=None, screenshot=None):
    """The DOM of `path` after its scripts ran in headless Chromium (and a
    screenshot of the window when asked: in the same run where this Chromium
    does both, else in a second run)."""
    args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--disable-background-networking", "--no-first-run", "--disable-component-update",
            "--disable-sync", f"--user-data-dir={profile}"]
    if size:
        args.append(f"--window-size={size[0]},{size[1]}")
    shot = [f"--screenshot={screenshot}"] if screenshot else []
    dom = _chromium(args + ["--dump-dom"] + shot, path)
    if screenshot and not os.path.exists(screenshot):
        _chromium(args + shot, path)
    return dom


def _chromium(args, path):
    done = subprocess.run(args + [f"file://{path}"], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed "
                                    "(apt-get install -y chromium)")


@needs_chromium
def test_browser_draws_every_op_node(tmp_path):
    g = nested()
    path = visualize(g, tmp_path / "f.html")
    dom = browse(path, tmp_path / "profile")
    total = len(visible_paths(g))
    assert f'data-rendered-nodes="{total}"' in dom
    drawn = re.findall(r'<g class="node [^"]*" data-node="([^"]+)"', dom)
    assert sorted(drawn) == sorted(visible_paths(g))
    assert dom.count('<details class="body"') == 2
    assert dom.count('<details class="body" open=""') == 0          # folded by default
    assert dom.count("<rect") == total
    expanded = browse(visualize(g, tmp_path / "g.html", expand=True), tmp_path / "profile")
    assert expanded.count('<details class="body" open=""') == 2


@needs_chromium
@pytest.mark.parametrize("size", [(1280, 800), (800, 600)])
def test_realistic_function_fits_the_window(tmp_path, size):
    """A 20-node function: the top graph fits the window, every edge ends in
    an arrowhead, no visible label overflows its box (checked by the page's
    script in the browser); a screenshot is taken at that size."""
    g = running_stats_graph()
    path = visualize(g, tmp_path / "stats.html")
    shot = tmp_path / "shot.png"
    dom = browse(path, tmp_path / "profile", size, screenshot=shot)
    assert 'data-fits-window="true"' in dom
    assert 'data-overflowing-labels="0"' in dom
    edges = re.findall(r'<path class="edge"[^>]*>', dom)
    top_edges = sum(len([t for t in n.inputs if t.node in visible_nodes(g)])
                    for n in visible_nodes(g))
    assert len(edges) >= top_edges > 20
    assert all(re.search(r'marker-end="url\(#arrow\d+\)"', e) for e in edges)
    assert dom.count('<marker id="arrow') == dom.count('<svg') >= 1
    assert "…" in dom                       # long type lists are cut
    header = shot.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(header[16:20], "big") == size[0]


def test_html_labels_are_cut_to_the_box_with_the_whole_text_as_tooltip():
    long_name = "a_rather_long_placeholder_name_that_overflows_boxes"
    g = build("f", [(long_name, tf.int32, [2])], lambda x: -x)
    node = graph_json(g)["nodes"][0]
    assert node["label"] == "a_rather_long_placeholder…"
    assert len(node["label"]) <= HTML_LABEL_WIDTH
    assert f"{long_name} : int32[2]" in node["title"]


def test_html_leaves_out_unused_captures():
    g = running_stats_graph()
    data = graph_json(g)

    def captures(d):
        found = [n for n in d["nodes"] if n["kind"] == "capture"]
        for b in d["bodies"]:
            found += captures(b["graph"])
        return found

    drawn = captures(data)
    total = sum(len(sub.captures) for sub in walk_graphs(g))
    assert 0 < len(drawn) <= total - 2
    assert all(any(n["id"] in m["inputs"] for m in graph["nodes"]) or n["id"] in graph["outputs"]
               for graph in _graphs(data) for n in graph["nodes"] if n["kind"] == "capture")


def _graphs(data):
    yield data
    for b in data["bodies"]:
        yield from _graphs(b["graph"])


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz 'dot' is not installed")
def test_svg_through_graphviz(tmp_path):
    path = visualize(nested(), tmp_path / "f.svg")
    svg = open(path, encoding="utf-8").read()
    assert "<svg" in svg and "body: 2 ops" in svg and "TestCall1/body" not in svg
    path = visualize(nested(), tmp_path / "g.svg", expand=True)
    assert "TestCall1/body" in open(path, encoding="utf-8").read()


def test_svg_without_graphviz_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError) as info:
        visualize(nested(), tmp_path / "f.svg")
    assert str(info.value).startswith(
        "visualize: SVG needs Graphviz's 'dot' program, which is not on PATH; write HTML "
        f"instead (visualize(f, {str(tmp_path / 'f.html')!r}): a self-contained page")
    assert not (tmp_path / "f.svg").exists()


def test_svg_without_dot_on_path_suggests_html(tmp_path):
    """A real process whose PATH has no `dot`: the error names the .html file to write."""
    script = tmp_path / "make_pictures.py"
    script.write_text("import runtime as tf\n"
                      "f = tf.function(lambda x: x * 2 + 1)\n"
                      "try:\n"
                      "    tf.visualize(f, 'pic.svg', tf.constant(1))\n"
                      "except RuntimeError as e:\n"
                      "    print(e)\n"
                      "tf.visualize(f, 'pic.html', tf.constant(1))\n")
    env = dict(os.environ, PATH=str(tmp_path),
               PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "SVG needs Graphviz's 'dot' program, which is not on PATH" in done.stdout
    assert "visualize(f, 'pic.html')" in done.stdout
    assert sorted(os.listdir(tmp_path)) == ["make_pictures.py", "pic.html"]


def test_dot_file_and_bad_extension(tmp_path):
    path = visualize(nested(), tmp_path / "f.dot")
    assert open(path).read().startswith('digraph "f" {')
    with pytest.raises(ValueError, match=r"expected a path ending in .svg, .html or .dot, got '.png'"):
        visualize(nested(), tmp_path / "f.png")


def test_graph_of_accepts_concrete_functions_and_traceable_functions():
    g = nested()

    class Concrete:
        graph = g

    class Traceable:
        def get_concrete_function(self, *args):
            if not args:
                raise ValueError("no input_signature")
            return Concrete()

    assert graph_of(Concrete()) is g
    assert graph_of(Traceable(), 1) is g
    with pytest.raises(ValueError, match="pass example arguments"):
        graph_of(Traceable())
    with pytest.raises(TypeError, match="expected a Graph, a concrete function"):
        graph_of(42)
