"""`to_code` output locked by golden files (tests/autograph/golden/<name>.py).

Set AUTOGRAPH_UPDATE_GOLDEN=1 to rewrite them after an intended change, and
review the diff. Every generated source compiles and re-parses to the same
text, and conversion is deterministic.
"""

import ast
import os
import pathlib

import pytest

import autograph
from autograph.impl import conversion
from tests.autograph import golden_targets

GOLDEN = pathlib.Path(__file__).parent / "golden"
TARGETS = [golden_targets.if_else, golden_targets.if_without_else, golden_targets.while_sum,
           golden_targets.for_with_break, golden_targets.for_with_continue,
           golden_targets.return_in_loop, golden_targets.early_return, golden_targets.logical,
           golden_targets.conditional_expression, golden_targets.asserts_and_builtins,
           golden_targets.append_in_loop, golden_targets.calls_helper]


@pytest.mark.parametrize("fn", TARGETS, ids=[f.__name__ for f in TARGETS])
def test_to_code_matches_golden(fn):
    code = autograph.to_code(fn)
    path = GOLDEN / f"{fn.__name__}.py"
    if os.environ.get("AUTOGRAPH_UPDATE_GOLDEN"):
        path.write_text(code)
    assert code == path.read_text()


@pytest.mark.parametrize("fn", TARGETS, ids=[f.__name__ for f in TARGETS])
def test_generated_code_compiles_reparses_and_is_deterministic(fn):
    code = autograph.to_code(fn)
    compile(code, "<generated>", "exec")
    header, body = code.split("\n\n\n", 1)
    assert header == "from autograph import operators as ag__"
    assert ast.unparse(ast.parse(body)) + "\n" == body        # re-parses to itself
    again = conversion._convert(fn, recursive=True)
    assert again.source == conversion.convert_entity(fn).source


def test_generated_code_runs_standalone(tmp_path):
    """The to_code text, written to a file with the helper it calls, runs
    with only autograph importable."""
    source = autograph.to_code(golden_targets.calls_helper)
    module = tmp_path / "standalone_mod.py"
    module.write_text(source + "\n\ndef helper(x):\n    return x + 1\n")
    namespace = {}
    exec(compile(module.read_text(), str(module), "exec"), namespace)
    assert namespace["calls_helper"](3) == golden_targets.calls_helper(3)


def test_line_comments_point_at_user_lines():
    code = autograph.to_code(golden_targets.while_sum, line_comments=True)
    first = golden_targets.while_sum.__code__.co_firstlineno
    assert f"def while_sum(n):  # golden_targets.py:{first}" in code
    assert f"s += i  # golden_targets.py:{first + 4}" in code
    compile(code, "<generated>", "exec")
