"""Golden tests of the compact text form of a graph, str(graph) (as_graph_def():
test_graphdef.py)."""

import textwrap

import numpy as np
import pytest

import runtime as tf
from runtime._src.graph.graph import Graph
from runtime._src.graph.graph_text import format_attr, type_text
from runtime._src.core.tensor_shape import TensorShape
from tests.paths import ROOT as ROOT_PATH

from tests.runtime.graphdata_helpers import call_subgraph, nested_graph


def _simple():
    g = Graph("f")
    with g.as_default():
        x = g.add_placeholder(tf.int32, [10, 10], "x")
        y = x * 2 + tf.convert_to_tensor(np.arange(10, dtype=np.int32))
        z = -y
    g.outputs = [y, z]
    return g


def test_pretty_golden_simple():
    assert str(_simple()) == textwrap.dedent("""\
        graph f(%x: int32[10,10]) {
          %0 = const 2 : int32[]
          %1 = mul %x, %0 : int32[10,10]
          %2 = const <10 values> : int32[10]
          %3 = add %1, %2 : int32[10,10]
          %4 = neg %3 : int32[10,10]
          return %3, %4
        }""")


def test_pretty_golden_nested_body_is_indented_with_captures():
    assert str(nested_graph()) == textwrap.dedent("""\
        graph f(%x: int32[]) {
          %0 = const 1 : int32[]
          %1 = add %x, %0 : int32[]
          %2 = testcall1 %1, %x {
            body(%a: int32[]; %capture <- %x) {
              %3 = add %a, %capture : int32[]
              return %3
            }
          } : int32[]
          return %2
        }""")


@pytest.mark.parametrize("dtype, dims, expected", [
    (tf.int32, [], "int32[]"),
    (tf.float32, [None, 3], "float32[?,3]"),
    (tf.bool, None, "bool[...]"),
    (tf.string, [2], "string[2]"),
])
def test_type_text(dtype, dims, expected):
    assert type_text(dtype, TensorShape(dims)) == expected


class _Named:
    name = "v:0"


@pytest.mark.parametrize("value, expected", [
    (tf.float32, "float32"),
    (TensorShape([None, 2]), "[?,2]"),
    (3, "3"),
    ("same", "'same'"),
    (np.array([1, 2], np.int32), "[1 2]"),
    (np.zeros((3, 3)), "<3,3 values>"),
    (np.array(b"hi", dtype=object), "b'hi'"),
    ([1, (2,)], "[1, (2,)]"),
    ({"b": 1, "a": 2}, "{a: 2, b: 1}"),
    (_Named(), "<_Named v:0>"),
    (object(), "<object>"),
])
def test_format_attr_is_short_and_deterministic(value, expected):
    assert format_attr(value) == expected


def test_unknown_rank_and_multi_output_nodes_print():
    g = Graph("m")
    with g.as_default():
        x = g.add_placeholder(tf.float32, None, "x")
        body = Graph("pair", outer=g)
        with body.as_default():
            a = body.add_placeholder(tf.float32, None, "a")
            body.outputs = [a, -a]
        p, q = call_subgraph(body, x)
    g.outputs = [q]
    text = str(g)
    assert "graph m(%x: float32[...]) {" in text
    assert "%0, %1 = testcall2 %x {" in text
    assert "} : float32[...], float32[...]" in text
    assert text.endswith("  return %1\n}")


def test_readme_graph_listing_is_current():
    """docs/graph.txt (shown in the README) is what str(graph) prints today."""
    import os

    @tf.function
    def collatz_steps(n):
        steps = tf.constant(0)
        while n > 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps

    concrete = collatz_steps.get_concrete_function(tf.TensorSpec([], tf.int32))
    assert concrete(tf.constant(27)).numpy() == 111
    root = str(ROOT_PATH)
    with open(os.path.join(root, "docs", "graph.txt"), encoding="utf-8") as f:
        assert str(concrete.graph) + "\n" == f.read()
