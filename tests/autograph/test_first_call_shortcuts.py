"""Shortcuts of the first call give what the long way gives: the jump
converters' tests rewritten where the control-flow converter places them
(no walk of the whole tree) convert as the walk does, fresh names come out
in the same order, and a plain docstring is quoted as ast.unparse quotes it."""

import ast
import builtins
import importlib.util
import itertools
import keyword

import gast
import pytest

from autograph.impl import conversion
from autograph.pyct import naming, unparser

_ids = itertools.count()

MODULE = '''\
def breaks(x, n):
    total = x * 0
    i = 0
    while i < n:
        if total > 10:
            break
        total += x
        i += 1
    return total


def continues(n):
    s = 0
    for k in range(n):
        if k % 2 == 0:
            continue
        s += k
    return s


def returns_in_loop(n):
    i = 0
    while i < n:
        if i > 3:
            return i
        i += 1
    return -1


def maybe_unbound(n):
    for k in range(n):
        if k > 2:
            last = k
            break
    return last


def user_not(x, n):
    while not x > n:
        x += 1
    return x
'''

NAMES = ["breaks", "continues", "returns_in_loop", "maybe_unbound", "user_not"]


def _module(tmp_path):
    path = tmp_path / f"shortcut_mod_{next(_ids)}.py"
    path.write_text(MODULE)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", NAMES)
def test_tests_rewritten_in_place_convert_as_the_whole_walk(tmp_path, monkeypatch, name):
    fast = conversion.convert_entity(getattr(_module(tmp_path), name)).source
    # Every function "holds" a FunctionDef: the whole-tree walk runs.
    monkeypatch.setattr(conversion, "_EXPRESSION_REWRITES", (gast.FunctionDef,))
    slow = conversion.convert_entity(getattr(_module(tmp_path), name)).source
    assert fast == slow
    assert "ag__.not_(" in fast or name == "user_not"


def _names_the_long_way(taken, bases):
    taken, out = set(taken), []
    for base in bases:
        candidate, n = base, 1
        while candidate in taken or keyword.iskeyword(candidate) or hasattr(builtins, candidate):
            candidate = f"{base}{n}" if base.endswith("_") else f"{base}_{n}"
            n += 1
        taken.add(candidate)
        out.append(candidate)
    return out


@pytest.mark.parametrize("taken, bases", [
    ((), ["if_body"] * 4 + ["else_body"] * 2 + ["if_body"]),
    ({"if_body", "if_body_2", "break_1"}, ["if_body", "if_body", "if_body", "break_", "break_"]),
    ({"x"}, ["print", "print", "def", "class", "__dict__", "__name__", "len", "x"]),
    ({"retval_"}, ["retval_", "retval_", "loop_test", "loop_test_1", "loop_test"]),
])
def test_fresh_names_come_in_the_same_order(taken, bases):
    namer = naming.Namer(taken)
    assert [namer.new(b) for b in bases] == _names_the_long_way(taken, bases)
    assert set(_names_the_long_way(taken, bases)) == namer.made


def _docstring_the_long_way(value):
    writer = ast._Unparser()
    writer._write_str_avoiding_backslashes(value, quote_types=ast._MULTI_QUOTES)
    return "".join(writer._source)


@pytest.mark.parametrize("value", [
    "", "A 30-line function.", 'ends with a quote"', "ends with a quote'",
    'has """ inside', "has ''' inside", "has ''' and \"\"\" inside", "tab\tand\nnewline\n",
    "a backslash \\ here", "a bell \x07", "unicode é ✓", "line sep \u2028", 'q"', "'",
])
def test_a_docstring_is_written_as_ast_unparse_writes_it(value):
    fast = unparser._plain_docstring(value)
    assert fast is None or fast == _docstring_the_long_way(value)
    node = gast.parse(f"def f():\n    {_docstring_the_long_way(value)}\n    return 1\n")
    assert unparser.unparse_with_lines(node.body[0])[0] == ast.unparse(
        ast.parse(f"def f():\n    {_docstring_the_long_way(value)}\n    return 1\n")) + "\n"
