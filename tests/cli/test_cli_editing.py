"""Span editing: only converted functions change; every other byte is kept.

These tests swap the transpiler for a fake (it upper-cases nothing, it just
marks each converted def with a comment), so they check the CLI's own work:
finding spans, re-indenting, keeping decorators, comments, line endings, and
placing the `import autograph` line.
"""

import ast
import io
import os
import sys
import textwrap

import pytest

from autograph import cli
from autograph.cli import convert as cli_convert, transpiler as cli_transpiler
from autograph.cli.source import find_functions, parse_source, split_lines
from conftest import MODULES


def _fake_transpile(source, filename, first_line, name, want_report=False, **kwargs):
    tree = ast.parse(textwrap.dedent(source))
    func = tree.body[0]
    text = f"def {func.name}({ast.unparse(func.args)}):\n    # converted from {filename}:{first_line}\n"
    text += "\n".join("    " + line for s in func.body for line in ast.unparse(s).splitlines())
    return text + "\n", [f"{filename}:{first_line}: fake report for {name}"]


@pytest.fixture(autouse=True)
def fake_transpiler(monkeypatch):
    monkeypatch.setattr(cli_transpiler, "transpile", _fake_transpile)
    monkeypatch.setattr(cli_transpiler, "import_lines", lambda: ["import autograph"])


def _convert(source, *extra, tmp_path):
    path = tmp_path / "m.py"
    path.write_bytes(source.encode() if isinstance(source, str) else source)
    out = tmp_path / "m_ag.py"
    status = cli.main(["convert", str(path), "-o", str(out), *extra])
    assert status == 0
    return out.read_bytes().decode()


def test_spans_of_functions_methods_and_decorators():
    with open(os.path.join(MODULES, "classes_methods.py"), encoding="utf-8") as f:
        src = f.read()
    spans = find_functions(parse_source(src, "c.py"), split_lines(src))
    names = [(s.qualname, s.start, s.def_line, s.indent) for s in spans]
    assert names[:6] == [
        ("Accumulator.__init__", 9, 9, "    "),
        ("Accumulator.add", 15, 15, "    "),
        ("Accumulator.add_all", 22, 22, "    "),
        ("Accumulator.summary", 27, 28, "    "),
        ("Accumulator.clamp", 31, 32, "    "),
        ("Accumulator.from_list", 39, 40, "    "),
    ]
    assert [s.qualname for s in spans][6:] == [
        "Polynomial.__init__", "Polynomial.__call__", "Polynomial.degree",
        "Polynomial.derivative", "Polynomial.__repr__",
        "BoundedAccumulator.__init__", "BoundedAccumulator.add"]


SOURCE = '''\
"""Doc of the module."""
from __future__ import annotations
# a comment that must survive
import os  # trailing comment

X = 1   # odd   spacing   kept


@decorator(1,
           2)  # decorator comment
def f(x):
    # this comment is inside the converted function
    if x:
        x = -x
    return x


def g(y):
    """No control flow: kept byte for byte."""
    return   y  +  1   # spacing kept


class C:
    """Class doc."""

    def m(self, v):
        while v > 0:
            v -= 1
        return v
'''


def _replace_once(text, old, new):
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_only_converted_spans_change(tmp_path):
    out = _convert(SOURCE, tmp_path=tmp_path)
    path = tmp_path / "m.py"
    # The import goes after `from __future__`, each converted body gets the
    # fake's marker (f's own comment was inside the converted span); every
    # other byte of SOURCE is kept.
    expected = _replace_once(SOURCE, "annotations\n", "annotations\nimport autograph\n")
    expected = _replace_once(expected, "    # this comment is inside the converted function\n",
                             f"    # converted from {path}:11\n")
    expected = _replace_once(expected, "    def m(self, v):\n",
                             f"    def m(self, v):\n        # converted from {path}:26\n")
    assert out == expected
    assert len(out.splitlines()) == len(SOURCE.splitlines()) + 2


def test_crlf_line_endings_and_missing_final_newline(tmp_path):
    src = "import os\r\n\r\ndef f(x):\r\n    if x:\r\n        return 1\r\n    return 2"
    out = _convert(src, tmp_path=tmp_path)
    assert out == ("import autograph\r\nimport os\r\n\r\ndef f(x):\r\n"
                   f"    # converted from {tmp_path / 'm.py'}:3\r\n"
                   "    if x:\r\n        return 1\r\n    return 2")


def test_import_goes_after_shebang_comments_and_docstring(tmp_path):
    src = "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n\n@dec\ndef f(x):\n    return x if x else 0\n"
    out = _convert(src, tmp_path=tmp_path)
    assert out.startswith("#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n\nimport autograph\n@dec\n")


def test_existing_import_not_duplicated(tmp_path):
    src = "import autograph\n\ndef f(x):\n    return x and 1\n"
    out = _convert(src, tmp_path=tmp_path)
    assert out.count("import autograph") == 1


def test_nothing_converted_output_identical(tmp_path):
    src = "# only plain code\ndef f(x):\n    return x + 1\n\nY = f(2)\n"
    assert _convert(src, tmp_path=tmp_path) == src


def test_function_selection(tmp_path):
    out = _convert(SOURCE, "--function", "C", tmp_path=tmp_path)
    assert "# converted from" in out.split("class C")[1]
    assert "# this comment is inside the converted function" in out  # f untouched


def test_diff_output(tmp_path, capsys):
    path = tmp_path / "m.py"
    path.write_text(SOURCE)
    assert cli.main(["convert", str(path), "--function", "f", "--diff"]) == 0
    diff = capsys.readouterr().out
    assert diff.startswith(f"--- {path}\n+++ {path} (converted)\n@@ ")
    assert "+import autograph\n" in diff
    assert "-    # this comment is inside the converted function\n" in diff
    assert f"+    # converted from {path}:11\n" in diff
    assert "class C" not in diff


def test_stdin_to_stdout(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"def f(x):\n    return not x\n")))
    assert cli.main(["convert", "-"]) == 0
    assert capsys.readouterr().out == ("import autograph\ndef f(x):\n"
                                       "    # converted from <stdin>:1\n    return not x\n")


def test_check_lines_and_verbose_report(tmp_path, capsys):
    path = tmp_path / "m.py"
    path.write_text(SOURCE + "\n\ndef gen(n):\n    for i in range(n):\n        yield i\n")
    assert cli.main(["check", str(path), "-v"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{path}:11: f: converted",
        f"    {path}:11: fake report for f",
        f"{path}:18: g: unchanged (no control flow)",
        "    line 18   nothing to convert; runs as written",
        f"{path}:26: C.m: converted",
        f"    {path}:26: fake report for m",
        f"{path}:32: gen: not convertible: generators (yield) are not supported ({path}:34)",
    ]


def test_check_exit_zero_when_everything_converts(tmp_path, capsys):
    path = tmp_path / "m.py"
    path.write_text(SOURCE)
    assert cli.main(["check", str(path)]) == 0


def test_convert_keeps_unconvertible_function_and_warns(tmp_path, capsys):
    src = "def gen(n):\n    while n:\n        yield n\n        n -= 1\n\ndef f(x):\n    return x or 1\n"
    out = _convert(src, tmp_path=tmp_path)
    assert "def gen(n):\n    while n:\n        yield n\n        n -= 1\n" in out
    err = capsys.readouterr().err
    assert err == (f"autograph: warning: {tmp_path / 'm.py'}:1: gen kept as is: generators "
                   f"(yield) are not supported ({tmp_path / 'm.py'}:3)\n")


def test_convert_named_unconvertible_function_fails(tmp_path, capsys):
    path = tmp_path / "m.py"
    path.write_text("async def co(x):\n    if x:\n        return 1\n")
    out = tmp_path / "out.py"
    assert cli.main(["convert", str(path), "--function", "co", "-o", str(out)]) == 1
    assert not out.exists()
    assert "co: not convertible: async functions are not supported" in capsys.readouterr().err


@pytest.mark.parametrize("body, expected", [
    ("return x + 1", False),
    ("y = [i for i in x]\n    return y", False),
    ("if x:\n        x = 1\n    return x", True),
    ("return x if x else 1", True),
    ("return x and y", True),
    ("return not x", True),
    ("return 0 < x < 1", True),
    ("assert x\n    return x", True),
    ("def inner():\n        while x:\n            pass\n    return inner", True),
    ("for i in x:\n        pass", True),
    ("return (lambda: 1)()", False),
])
def test_has_control_flow(body, expected):
    func = ast.parse(f"def f(x, y=1):\n    {body}\n").body[0]
    assert cli_convert.has_control_flow(func) is expected
