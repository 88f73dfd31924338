"""Smoke tests of the public API on plain Python values, and the rule that
`autograph` never imports `runtime`."""

import subprocess
import sys

import pytest

import autograph
from tests.autograph.golden_targets import if_else as branchy


def looping(n):
    total = 0
    i = 0
    while i < n:
        if i == 5:
            break
        total += i
        i += 1
    return total


@pytest.mark.parametrize("fn, args", [(branchy, (3,)), (branchy, (-2,)), (looping, (10,)),
                                      (looping, (0,))])
def test_converted_matches_original(fn, args):
    assert autograph.to_graph(fn)(*args) == fn(*args)


def test_to_code_is_valid_python_that_reparses():
    source = autograph.to_code(branchy)
    compile(source, "<test>", "exec")
    assert "ag__.if_stmt(x > 0, if_body, else_body, names=('y',))" in source


def test_autograph_imports_without_runtime():
    code = ("import sys, autograph, autograph.operators, autograph.impl.api;"
            "print(any(m == 'runtime' or m.startswith('runtime.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=str(__import__("pathlib").Path(autograph.__file__).parent.parent))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_convert_as_decorator_and_options():
    @autograph.convert
    def plain(x):
        return -x if x < 0 else x

    @autograph.convert(recursive=False)
    def calls(x):
        return branchy(x)
    assert plain(-3) == 3 and calls(2) == 4
    assert "ag__.call" not in autograph.to_code(calls, recursive=False)
    assert "ag__.call(branchy, x)" in autograph.to_code(calls)      # the original's code
    assert autograph.to_graph(plain) is plain        # converting twice changes nothing


def test_converted_function_keeps_name_doc_and_defaults():
    def documented(x, k=3):
        """Doc."""
        if x:
            return k
        return 0
    g = autograph.to_graph(documented)
    assert (g.__name__, g.__doc__, g(1), g(1, k=5), g(0)) == ("documented", "Doc.", 3, 5, 0)
