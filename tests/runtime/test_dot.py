"""Graphviz DOT text: structure, clusters for nested graphs, and that Graphviz
parses it (when installed)."""

import shutil
import subprocess

import pytest

import runtime as tf
from runtime._src.graph.dot import to_dot
from runtime._src.optimizer.rewrite import walk_graphs

from graphdata_helpers import build, nested_graph

HAS_DOT = shutil.which("dot") is not None


def test_simple_graph_golden():
    g = build("f", [("x", tf.int32, [2])], lambda x: -x)
    assert to_dot(g) == (
        'digraph "f" {\n'
        "  rankdir=TB;\n"
        '  node [shape=box, style="rounded,filled", fillcolor="#f4f4f4", '
        'fontname="Helvetica", fontsize=10];\n'
        '  edge [fontname="Helvetica", fontsize=8];\n'
        "  compound=true;\n"
        '  n0 [label="x\\nint32[2]", shape=oval, fillcolor="#dff3df"];\n'
        '  n1 [label="Neg\\nNeg : int32[2]"];\n'
        "  n0 -> n1;\n"
        '  ret_n2 [label="return", shape=oval, fillcolor="#dde8f8"];\n'
        '  n1 -> ret_n2 [label="0"];\n'
        "}\n")


def test_nested_graph_is_a_cluster_with_capture_edges():
    text = to_dot(nested_graph())
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


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz 'dot' is not installed")
@pytest.mark.parametrize("make", [nested_graph, lambda: build("g", [("x", tf.float32, [None])],
                                                       lambda x: (x * 2.0, -x))])
def test_graphviz_parses_the_dot(make):
    graph = make()
    done = subprocess.run(["dot", "-Tsvg"], input=to_dot(graph), capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    # one drawn node per op plus one "return" node per graph with outputs
    expected = sum(len(g.nodes) + 1 for g in walk_graphs(graph))
    assert done.stdout.count('class="node"') == expected
