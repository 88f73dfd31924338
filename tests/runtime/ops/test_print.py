"""tf.print: TensorFlow's formatting, streams, and printing at every graph run."""

import io
import sys

import numpy as np
import pytest

import runtime as tf
from runtime._src.exec import executor
from runtime._src.graph.graph import Graph
from runtime._src.ops.logging_ops import format_element, summarize_v1, summarize_v2

from tests.runtime.seed_programs import print_function


def c(value, dtype=None):
    return tf.convert_to_tensor(value, dtype)


@pytest.mark.parametrize("value, expected", [
    (np.float32(1 / 3), "0.333333343"),
    (np.float32(0.5), "0.5"),
    (np.float32(1.0), "1"),
    (np.float32(0.1), "0.1"),
    (np.float64(1 / 3), "0.33333333333333331"),
    (np.float64(0.1), "0.1"),
    (np.float32(np.inf), "inf"),
    (np.float32(-np.inf), "-inf"),
    (np.float32(np.nan), "nan"),
    (np.float16(0.5), "0.5"),
    (np.int32(-7), "-7"),
    (np.bool_(True), "1"),
    (np.bool_(False), "0"),
    (b"str", '"str"'),
    (b'a"b\n', '"a\\"b\\n"'),
    ("é".encode(), '"\\303\\251"'),
])
def test_element_format(value, expected):
    assert format_element(value) == expected


@pytest.mark.parametrize("value, summarize, expected", [
    (np.arange(10), 3, "[0 1 2 ... 7 8 9]"),
    (np.arange(6), 3, "[0 1 2 3 4 5]"),
    (np.arange(7), 3, "[0 1 2 ... 4 5 6]"),
    (np.arange(10), -1, "[0 1 2 3 4 5 6 7 8 9]"),
    (np.arange(10), 1, "[0 ... 9]"),
    (np.arange(6).reshape(2, 3), 3, "[[0 1 2]\n [3 4 5]]"),
    (np.arange(8).reshape(2, 2, 2), 3, "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]"),
    (np.arange(100).reshape(10, 10), 1, "[[0 ... 9]\n ...\n [90 ... 99]]"),
    (np.array([True, False]), 3, "[1 0]"),
    (np.zeros((0,), np.int32), 3, "[]"),
    (np.array(5, np.int32), 3, "5"),
])
def test_summarize_v2(value, summarize, expected):
    assert summarize_v2(value, summarize) == expected


@pytest.mark.parametrize("value, summarize, expected", [
    (np.arange(3), 3, "0 1 2"),
    (np.arange(10), 3, "0 1 2..."),
    (np.arange(1, 13).reshape(3, 4), 3, "[1 2 3...]..."),
    (np.arange(1, 13).reshape(3, 4), 10, "[1 2 3 4][5 6 7 8][9 10...]..."),
    (np.array(b"hello", dtype=object), 3, "hello"),
])
def test_summarize_v1(value, summarize, expected):
    assert summarize_v1(value, summarize) == expected


def test_eager_print_goes_to_stderr_immediately(capsys):
    tf.print("x:", c([1, 2, 3]))
    captured = capsys.readouterr()
    assert captured.err == "x: [1 2 3]\n" and captured.out == ""


def test_eager_print_is_visible_at_fd_level(capfd):
    tf.print(c(1.0 / 3))
    assert capfd.readouterr().err == "0.333333343\n"


@pytest.mark.parametrize("inputs, kwargs, expected", [
    (("a", "b"), {}, "a b\n"),
    (("a", "b"), {"sep": ", ", "end": "!"}, "a, b!"),
    ((c("str"),), {}, '"str"\n'),
    ((c(["a", "b"]),), {}, '["a" "b"]\n'),
    ((c(True), c([True, False])), {}, "1 [1 0]\n"),
    (([1, "a", c(2)],), {}, "[1, 'a', 2]\n"),
    (({"k": c([1, 2]), "j": 3},), {}, "{'j': 3, 'k': [1 2]}\n"),
    ((c(np.arange(10, dtype=np.int32)),), {"summarize": 2}, "[0 1 ... 8 9]\n"),
    ((c(np.arange(10, dtype=np.int32)),), {"summarize": -1}, "[0 1 2 3 4 5 6 7 8 9]\n"),
    ((c(np.arange(10, dtype=np.int32)),), {"summarize": None}, "[0 1 2 ... 7 8 9]\n"),
    ((1, 2.5, None), {}, "1 2.5 None\n"),
    ((c([0.5, 1.0]),), {}, "[0.5 1]\n"),
])
def test_eager_print_formats(capsys, inputs, kwargs, expected):
    tf.print(*inputs, output_stream=sys.stdout, **kwargs)
    assert capsys.readouterr().out == expected


def test_print_variable(capsys):
    v = tf.Variable(7)
    tf.print("Value of variable:", v)
    assert capsys.readouterr().err == "Value of variable: 7\n"


@pytest.mark.parametrize("stream, attr", [
    ("stdout", "out"), ("stderr", "err"), ("sys.stdout", "out"), ("sys.stderr", "err"),
])
def test_output_streams(capsys, stream, attr):
    if not stream.startswith("sys."):
        stream = getattr(sys, stream)  # the stream object, as users pass it
    tf.print("hi", output_stream=stream)
    assert getattr(capsys.readouterr(), attr) == "hi\n"


def test_output_stream_file_and_object(tmp_path):
    path = tmp_path / "log.txt"
    tf.print("a", c(1), output_stream=f"file://{path}")
    tf.print("b", output_stream=f"file://{path}")
    assert path.read_text() == "a 1\nb\n"
    buf = io.StringIO()
    tf.print("c", output_stream=buf)
    assert buf.getvalue() == "c\n"


def test_bad_output_stream():
    with pytest.raises(ValueError, match="unsupported output_stream 42"):
        tf.print("x", output_stream=42)


def test_graph_prints_at_every_run_not_at_trace(capsys):
    g = Graph("f")
    with g.as_default():
        x = g.add_placeholder(tf.int32, [None], "x")
        tf.print("Executed with", x)
        y = x + 1
    g.outputs = [y]
    assert capsys.readouterr().err == ""
    executor.run(g, [np.array([1, 2], np.int32)])
    executor.run(g, [np.arange(10, dtype=np.int32)])
    assert capsys.readouterr().err == "Executed with [1 2]\nExecuted with [0 1 2 ... 7 8 9]\n"


def test_graph_print_matches_eager(capsys):
    def body(x):
        tf.print("x =", x, [x, "s"], {"b": x}, sep="|", end=";\n")
    body(c(np.float32([0.25, 1 / 3])))
    eager = capsys.readouterr().err
    g = Graph("f")
    with g.as_default():
        body(g.add_placeholder(tf.float32, [2], "x"))
    executor.run(g, [np.float32([0.25, 1 / 3])])
    assert capsys.readouterr().err == eager
    assert eager == "x =|[0.25 0.333333343]|[[0.25 0.333333343], 's']|{'b': [0.25 0.333333343]};\n"


def test_graph_stream_is_fixed_at_trace_time(capsys):
    g = Graph("f")
    with g.as_default():
        tf.print("to stdout", output_stream=sys.stdout)
    executor.run(g, [])
    assert capsys.readouterr().out == "to stdout\n"


def test_graph_prints_in_program_order(capsys):
    g = Graph("f")
    with g.as_default():
        x = g.add_placeholder(tf.int32, [], "x")
        for i in range(3):
            tf.print("step", i, x + i)
    executor.run(g, [np.int32(10)])
    assert capsys.readouterr().err == "step 0 10\nstep 1 11\nstep 2 12\n"


def test_print_returns_none():
    assert tf.print("x", output_stream=io.StringIO()) is None


def test_seed_traced_print_vs_tf_print(capsys):
    """Seed 002: Python print runs at trace time only, tf.print at every call."""
    f = print_function()
    f(1)
    f(1)
    captured = capsys.readouterr()
    assert captured.out == "Traced with 1\n"
    assert captured.err == "Executed with 1\nExecuted with 1\n"
