"""`autograph graph FILE.py::FUNC --signature ...`: signature parsing, errors, output."""

import os
import re
import shutil

import pytest

from autograph.cli.graph import parse_signature, parse_target
from autograph.cli.source import CliError
from conftest import MODULES, run_cli

TENSOR_MATH = os.path.join(MODULES, "tensor_math.py")




@pytest.mark.parametrize("text, expected", [
    ("float32[None],int32[]", [("float32", [None]), ("int32", [])]),
    ("float32[None, 3], int64[2,?]", [("float32", [None, 3]), ("int64", [2, None])]),
    ("float32[...]", [("float32", None)]),
    ("bool", [("bool", None)]),
    ("", []),
])
def test_parse_signature(text, expected):
    assert parse_signature(text) == expected


@pytest.mark.parametrize("text, message", [
    ("float32[x]", "--signature: bad dimension 'x' in 'float32[x]'"),
    ("float32[1", "--signature: cannot parse 'float32[1'"),
    ("[3]", "--signature: cannot parse '[3]'"),
    ("int32[-2]", "--signature: bad dimension '-2'"),
])
def test_parse_signature_errors(text, message):
    with pytest.raises(CliError) as info:
        parse_signature(text)
    assert str(info.value).startswith(message)


def test_parse_target():
    assert parse_target("a/b.py::f") == ("a/b.py", "f")
    assert parse_target("b.py::C.m") == ("b.py", "C.m")
    with pytest.raises(CliError, match="expected FILE.py::FUNC"):
        parse_target("b.py")


def _assert_error(proc, expected, code=2):
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("autograph: error: "), proc.stderr
    assert expected in lines[0], lines[0]
    assert proc.stdout == ""


@pytest.mark.parametrize("args, expected", [
    (["graph", "nosuch.py::f", "--signature", "int32[]"], "nosuch.py: no such file"),
    (["graph", TENSOR_MATH, "--signature", "int32[]"], "expected FILE.py::FUNC"),
    (["graph", TENSOR_MATH + "::affine", "--signature", "flot32[]"],
     "--signature: argument 0: unknown dtype 'flot32'"),
    (["graph", TENSOR_MATH + "::affine", "--signature", "float32[a]"],
     "bad dimension 'a'"),
])
def test_graph_bad_input(args, expected):
    _assert_error(run_cli(*args), expected)


def test_graph_syntax_error_is_not_imported(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("print('side effect')\ndef f(:\n")
    proc = run_cli("graph", f"{bad}::f", "--signature", "int32[]")
    _assert_error(proc, f"{bad}:2:7: SyntaxError")


def test_svg_without_graphviz(tmp_path):
    # A PATH with no `dot` on it; the file is never imported.
    proc = run_cli("graph", f"{TENSOR_MATH}::affine", "--signature", "float32[],float32[]",
                   "--format", "svg", "-o", str(tmp_path / "g.svg"), env_path=str(tmp_path))
    _assert_error(proc, "--format svg needs Graphviz's `dot` program, which is not on PATH")
    assert os.listdir(tmp_path) == []


def test_unknown_function(tmp_path):
    proc = run_cli("graph", f"{TENSOR_MATH}::nosuch", "--signature", "int32[]")
    _assert_error(proc, f"{TENSOR_MATH}: no function named 'nosuch' (functions found: "
                        "affine, clipped, countdown_sum")


def test_import_failure_names_user_line(tmp_path):
    mod = tmp_path / "boom.py"
    mod.write_text("X = 1\nY = undefined_name + 1\ndef f(x):\n    return x\n")
    proc = run_cli("graph", f"{mod}::f", "--signature", "int32[]")
    _assert_error(proc, f"{mod}: importing it failed: NameError: name 'undefined_name' is "
                        f"not defined ({mod}:2)", code=1)


TRACE_FAILS = """import runtime as tf


def bad_matmul(x):
    y = tf.matmul(x, x)
    return y


def raises(x):
    raise RuntimeError("boom")


def one_branch(x):
    if x > 0:
        z = 1
    return z


class K:
    def method(self, x):
        return x

    @staticmethod
    def static(x):
        return x + 1
"""


@pytest.mark.parametrize("func, spec, expected", [
    ("bad_matmul", "float32[3]", "tracing failed: ValueError: MatMul: both inputs must be "
     "matrices (rank >= 2), got shapes [3] and [3] ({mod}:5: y = tf.matmul(x, x))"),
    ("raises", "int32[]", 'tracing failed: RuntimeError: boom ({mod}:10: raise '
     'RuntimeError("boom"))'),
    ("one_branch", "int32[]", "tracing failed: ValueError: 'z' must also be initialized in the "
     "else branch: it is defined in the if branch of a tensor if statement and used after "
     "it ({mod}:14: if x > 0:)"),
])
def test_tracing_failure_names_the_user_line(tmp_path, func, spec, expected):
    """Errors raised inside converted code name the user's file and line once,
    from the runtime's note (the failing frame is the generated code's)."""
    mod = tmp_path / "fails.py"
    mod.write_text(TRACE_FAILS)
    proc = run_cli("graph", f"{mod}::{func}", "--signature", spec)
    _assert_error(proc, f"{mod}::{func}: " + expected.format(mod=mod), code=1)
    assert len(re.findall(re.escape(str(mod)) + r":\d", proc.stderr)) == 1


def test_method_target_is_a_clear_error(tmp_path):
    mod = tmp_path / "fails.py"
    mod.write_text(TRACE_FAILS)
    proc = run_cli("graph", f"{mod}::K.method", "--signature", "int32[]")
    _assert_error(proc, f"{mod}: 'K.method' is a method of class K: it needs an instance")
    proc = run_cli("graph", f"{mod}::K.static", "--signature", "int32[]")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("graph static(%x: int32[])")


def test_graph_text_of_function_without_control_flow():
    proc = run_cli("graph", f"{TENSOR_MATH}::affine", "--signature", "float32[None],float32[]")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("graph affine(")
    assert "float32[?]" in proc.stdout
    assert "return" in proc.stdout


@pytest.mark.parametrize("func", ["clipped", "countdown_sum", "decorated_square"])
def test_graph_text_dot_svg(func, tmp_path):
    sig = "float32[],float32[]" if func == "clipped" else "int32[]"
    text = run_cli("graph", f"{TENSOR_MATH}::{func}", "--signature", sig)
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("graph ")
    dot = run_cli("graph", f"{TENSOR_MATH}::{func}", "--signature", sig, "--format", "dot")
    assert dot.returncode == 0, dot.stderr
    assert dot.stdout.startswith("digraph ")
    if shutil.which("dot"):
        out = tmp_path / "g.svg"
        svg = run_cli("graph", f"{TENSOR_MATH}::{func}", "--signature", sig, "--format", "svg",
                      "-o", str(out))
        assert svg.returncode == 0, svg.stderr
        assert "<svg" in out.read_text()


def test_svg_without_graphviz_suggests_html(tmp_path):
    proc = run_cli("graph", f"{TENSOR_MATH}::affine", "--signature", "float32[],float32[]",
                   "--format", "svg", env_path=str(tmp_path))
    _assert_error(proc, "use --format html (a self-contained page, no Graphviz needed)")


PRINTS = """import runtime as tf

print("module level print")


def f(x):
    print("traced with", x)
    tf.print("run with", x)
    return x * 2 + 1
"""


@pytest.mark.parametrize("fmt, start", [("text", "graph f("), ("dot", 'digraph "f"'),
                                        ("html", "<!DOCTYPE html>")])
def test_graph_stdout_holds_the_graph_alone(tmp_path, fmt, start):
    mod = tmp_path / "prints.py"
    mod.write_text(PRINTS)
    proc = run_cli("graph", f"{mod}::f", "--signature", "float32[]", "--format", fmt)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(start)
    assert "module level print" not in proc.stdout and "traced with" not in proc.stdout
    assert proc.stderr.splitlines()[:2] == [
        "module level print", 'traced with Tensor("x:0", shape=(), dtype=float32)']


def test_graph_html_runs_without_graphviz(tmp_path):
    out = tmp_path / "f.html"
    proc = run_cli("graph", f"{TENSOR_MATH}::clipped", "--signature", "float32[],float32[]",
                   "--format", "html", "-o", str(out), env_path=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    html = out.read_text()
    assert html.startswith("<!DOCTYPE html>") and '"name": "clipped"' in html
