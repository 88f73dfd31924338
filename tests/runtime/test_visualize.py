"""runtime.visualize: SVG through Graphviz, self-contained HTML checked in a
headless browser, DOT, and clear errors."""

import os
import re
import shutil
import subprocess
import sys

import pytest

import runtime as tf
from runtime._src.graph.graph import Graph
from runtime._src.optimizer.rewrite import walk_graphs
from runtime._src.graph.visualize import graph_json, graph_of, to_html, visualize

from graphdata_helpers import build, two_level_graph

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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
    assert not re.search(r"<link|<img|<iframe|\bsrc=|\bhref=|@import|url\(", html)
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


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed "
                    "(apt-get install -y chromium)")
def test_browser_draws_every_op_node(tmp_path):
    g = nested()
    path = visualize(g, tmp_path / "f.html")
    profile = tmp_path / "profile"
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--no-first-run", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={profile}", "--dump-dom", f"file://{path}"],
        capture_output=True, text=True, timeout=120, check=False)
    dom = done.stdout
    assert done.returncode == 0, done.stderr[-2000:]
    total = sum(len(sub.nodes) for sub in walk_graphs(g))
    assert f'data-rendered-nodes="{total}"' in dom
    drawn = re.findall(r'<g class="node [^"]*" data-node="([^"]+)"', dom)
    assert sorted(drawn) == sorted(all_paths(g))
    assert dom.count('<details class="body" open=""') == 2
    assert dom.count("<rect") == total


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz 'dot' is not installed")
def test_svg_through_graphviz(tmp_path):
    path = visualize(nested(), tmp_path / "f.svg")
    svg = open(path, encoding="utf-8").read()
    assert "<svg" in svg and "TestCall1/body" in svg


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
