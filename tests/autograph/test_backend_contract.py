"""The backend contract (autograph/backend.py): `Backend.cond` may trace the
two branches of a staged if in either order; each branch's code runs once.

runtime's backend traces the if branch first. The corpus below runs again
with a backend that traces the else branch first (AUTOGRAPH_COND_ORDER=else-first,
see tests/conftest.py): results, printed output, errors and their messages must
not depend on the order. CI runs the whole CORPUS so in a step of its own
(.ci/run: `python3 -m tests.autograph.test_backend_contract` prints its paths);
the suite runs its equivalence corpus so, in a subprocess."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import runtime as tf
from tests.autograph.equivalence import ELSE_FIRST, traced_order

ROOT = Path(__file__).resolve().parents[2]


def _traces_with_runtime(path):
    """Whether a test module stages code through runtime's backend (the
    others convert or run plain Python only: the branch order cannot touch them)."""
    text = path.read_text(encoding="utf-8")
    return "import runtime" in text or "from runtime" in text


# The autograph tests that trace with runtime, and the runtime tests richest in staged ifs.
CORPUS = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "tests" / "autograph").glob("test_*.py"))
          if _traces_with_runtime(p)] + [
    "tests/runtime/function/test_control_flow.py", "tests/runtime/function/test_function.py",
    "tests/runtime/autodiff/test_gradients_control_flow.py", "tests/runtime/test_seeds_runtime.py",
    "tests/runtime/function/test_tensor_array_return.py"]
SMOKE = ["tests/autograph/test_equivalence.py"]     # the part of CORPUS the suite runs so


def both_branches(x):
    if x > 0:
        print("if branch traced")
        y = x + 1
    else:
        print("else branch traced")
        y = x - 1
    return y


def test_each_branch_is_traced_once_in_the_backends_order(capsys):
    f = tf.function(both_branches)
    assert int(f(tf.constant(2))) == 3 and int(f(tf.constant(-2))) == -3
    traced = capsys.readouterr().out.splitlines()
    assert traced == traced_order("if branch traced", "else branch traced")


@pytest.mark.skipif(ELSE_FIRST, reason="this is the run with the else branch first")
def test_the_corpus_passes_with_the_else_branch_traced_first():
    env = dict(os.environ, AUTOGRAPH_COND_ORDER="else-first", PYTHONPATH=str(ROOT))
    # the example scripts run in processes of their own, where the switch (a
    # fixture of tests/conftest.py) does not reach: they would only run again
    proc = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider",
                           "-k", "not test_example_script_runs", *SMOKE], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    tail = proc.stdout[-3000:]
    assert proc.returncode == 0, tail
    assert " passed" in tail and " failed" not in tail


if __name__ == "__main__":          # the paths CI runs with AUTOGRAPH_COND_ORDER=else-first
    print(" ".join(CORPUS))
