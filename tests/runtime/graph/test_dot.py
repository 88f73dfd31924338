"""Graphviz DOT text: structure, folded or clustered nested graphs, labels cut
to their box, unused captures left out, the size of a realistic picture, and
that Graphviz parses it (when installed)."""

import re
import shutil
import subprocess

import pytest

import runtime as tf
from runtime._src.graph.dot import LABEL_WIDTH, elide, to_dot, used_captures, visible_nodes
from runtime._src.optimizer.rewrite import walk_graphs

from tests.runtime.graphdata_helpers import build, nested_graph
from tests.runtime.graph.picture_targets import running_stats_graph

HAS_DOT = shutil.which("dot") is not None


def test_simple_graph_golden():
    g = build("f", [("x", tf.int32, [2])], lambda x: -x)
    assert to_dot(g) == (
        'digraph "f" {\n'
        "  rankdir=TB; ranksep=0.3; nodesep=0.2;\n"
        '  node [shape=box, style="rounded,filled", fillcolor="#f4f4f4", '
        'fontname="Helvetica", fontsize=10, height=0.3, margin="0.08,0.03"];\n'
        '  edge [fontname="Helvetica", fontsize=8, arrowsize=0.6];\n'
        "  compound=true;\n"
        '  n0 [label="x\\nint32[2]", shape=oval, fillcolor="#dff3df"];\n'
        '  n1 [label="Neg\\nint32[2]"];\n'
        "  n0 -> n1;\n"
        '  ret_n2 [label="return", shape=oval, fillcolor="#dde8f8"];\n'
        '  n1 -> ret_n2 [label="0"];\n'
        "}\n")


def test_nested_graph_is_folded_into_its_owner_by_default():
    text = to_dot(nested_graph())
    assert "subgraph" not in text and "capture" not in text
    assert '  n3 [label="TestCall1\\nint32[]\\nbody: 1 op", fillcolor="#e4e0f5", ' \
           'peripheries=2];' in text


def test_expanded_nested_graph_is_a_cluster_with_capture_edges():
    text = to_dot(nested_graph(), expand=True)
    assert "  subgraph cluster_0 {\n    label=\"TestCall1/body\";" in text
    assert '    n5 [label="a\\nint32[]", shape=oval, fillcolor="#dff3df"];' in text
    assert '  n0 -> n6 [style=dashed, color="#7a7a7a", label="capture"];' in text
    assert '  n3 -> n5 [style=dotted, lhead=cluster_0, label="body"];' in text
    assert text.count("{") == text.count("}")


def test_labels_are_escaped_and_constants_show_values():
    g = build('we"ird', [("x", tf.int32, [])], lambda x: x + 7)
    text = to_dot(g)
    assert text.startswith('digraph "we\\"ird" {')
    assert 'label="Const = 7\\nint32[]"' in text


def test_graph_method_delegates():
    g = nested_graph()
    assert g.to_dot() == to_dot(g)


def test_long_labels_are_elided():
    long_name = "a_rather_long_placeholder_name_that_overflows_boxes"
    g = build("f", [(long_name, tf.int32, [2, 3, 4, 5, 6, 7, 8, 9, 10])], lambda x: -x)
    labels = re.findall(r'label="([^"]*)"', to_dot(g))
    assert labels[0] == elide(long_name) + "\\n" + elide("int32[2,3,4,5,6,7,8,9,10]")
    assert labels[0].startswith("a_rather_long_placeholder…")
    for label in labels:
        assert all(len(line) <= LABEL_WIDTH for line in label.split("\\n")), label
    assert elide("short") == "short" and elide("x" * 30, 10) == "x" * 9 + "…"


def test_unused_captures_are_not_drawn():
    graph = running_stats_graph()
    text = to_dot(graph, expand=True)
    subs = list(walk_graphs(graph))
    used = sum(len(used_captures(g)) for g in subs)
    total = sum(len(g.captures) for g in subs)
    assert total - used >= 2     # the loop's cond captures values only the body reads
    assert text.count('fillcolor="#f3ecd8"') == used      # capture placeholders drawn
    assert text.count('label="capture"') == used          # and their dashed edges
    cond = next(g for g in subs if g.name == "while_cond")
    assert [n.name for n in visible_nodes(cond)] == [
        n.name for n in cond.nodes if not any(n is inner.node for _, inner in cond.captures)
        or any(n is t.node for m in cond.nodes for t in m.inputs)]


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz 'dot' is not installed")
def test_realistic_function_fits_a_screen_as_svg():
    """15 lines with a TensorArray, a loop and two conds: 3197x1687 pt before."""
    done = subprocess.run(["dot", "-Tsvg"], input=to_dot(running_stats_graph()),
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    width, height = map(float, re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"',
                                         done.stdout).groups())
    assert width <= 800 and height <= 800, (width, height)
    assert "While" in done.stdout and "body: 11 ops, cond: 1 op" in done.stdout


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz 'dot' is not installed")
@pytest.mark.parametrize("make", [nested_graph, lambda: build("g", [("x", tf.float32, [None])],
                                                       lambda x: (x * 2.0, -x)),
                                  running_stats_graph])
@pytest.mark.parametrize("expand", [False, True])
def test_graphviz_parses_the_dot(make, expand):
    graph = make()
    done = subprocess.run(["dot", "-Tsvg"], input=to_dot(graph, expand=expand),
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    # one drawn node per op (less unused captures) plus one "return" node per
    # graph with outputs; folded: the top graph only
    graphs = walk_graphs(graph) if expand else [graph]
    expected = sum(len(visible_nodes(g)) + bool(g.outputs) for g in graphs)
    assert done.stdout.count('class="node"') == expected
    assert 'class="cluster"' in done.stdout if expand and graph.name != "g" else \
        'class="cluster"' not in done.stdout
