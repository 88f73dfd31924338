"""The backend contract (autograph/backend.py): `Backend.cond` may trace the
two branches of a staged if in either order; each branch's code runs once.

runtime's backend traces the if branch first. The corpus below runs again
with a backend that traces the else branch first (AUTOGRAPH_COND_ORDER=else-first,
see tests/conftest.py): results, printed output, errors and their messages must
not depend on the order. CI runs the whole CORPUS so in a step of its own
(.ci/run: `python3 -m tests.autograph.test_backend_contract` prints its paths);
the suite runs its equivalence corpus so, in this process."""

import contextlib
import io
from pathlib import Path

import pytest

import runtime as tf
from tests.autograph.equivalence import ELSE_FIRST, else_first_backend, traced_order

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
    from tests.autograph import test_equivalence as corpus
    corpus.test_corpus_is_large_enough()
    with else_first_backend():
        with contextlib.redirect_stdout(io.StringIO()) as out:
            tf.function(both_branches)(tf.constant(1))
        assert out.getvalue().split("\n")[:2] == ["else branch traced", "if branch traced"]
        for case in corpus._cases():
            try:
                corpus.test_function_on_tensors_matches_original(*case.values)
            except AssertionError as e:
                raise AssertionError(f"{case.id} with the else branch traced first: {e}") from e


if __name__ == "__main__":          # the paths CI runs with AUTOGRAPH_COND_ORDER=else-first
    print(" ".join(CORPUS))
