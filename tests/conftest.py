"""Suite-wide switches, off unless their environment variable is set.

`AUTOGRAPH_COND_ORDER=else-first`: runtime's autograph backend traces the
else branch of every staged `if` before the if branch (the backend contract
allows either order; tests/autograph/test_backend_contract.py runs the
equivalence corpus this way).

Also the run's order: the modules with the longest tests run first, the
garbage collector's view of what collection built, and XLA's compiler
options for the suite's processes (all below)."""

import gc
import os

import pytest

# XLA:CPU compiles the suite's some 400 small programs (the JAX corpus, the jit
# tests, the fuzzers' XLA runs, tf.distribute's processes) with its classic
# fusion emitter, not the MLIR one: the same programs and values, in a third to
# a half less compile time (each compile builds and frees an MLIR context and its
# rewrite patterns: tf.distribute's 33 programs 6.0 -> 3.8 CPU-s). Set here, before
# any JAX backend starts, so the test processes and those they start inherit it;
# an XLA_FLAGS that names the option keeps its own. XLA's default emitter is
# what CI's fuzz step (.ci/fuzz: 100 programs on XLA) and tools/bench.py run.
_XLA_SUITE_OPTION = "xla_cpu_use_fusion_emitters"


def _xla_knows(option):
    """Whether the installed jaxlib's XLA has `option` (XLA aborts the process
    at start on an XLA_FLAGS option it does not know): its name is in the
    library, where XLA's flag table lists it."""
    import importlib.util
    import mmap
    try:
        spec = importlib.util.find_spec("jaxlib")
    except ImportError:
        return False
    if spec is None or not spec.submodule_search_locations:
        return False
    folder = list(spec.submodule_search_locations)[0]
    libraries = [os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.endswith(".so")]
    for path in libraries:
        if os.path.getsize(path):
            with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
                if data.find(option.encode()) >= 0:
                    return True
    return False


if _XLA_SUITE_OPTION not in os.environ.get("XLA_FLAGS", "") and _xla_knows(_XLA_SUITE_OPTION):
    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} --{_XLA_SUITE_OPTION}=false".strip()


@pytest.fixture(autouse=True, scope="session")
def _cond_order():
    order = os.environ.get("AUTOGRAPH_COND_ORDER")
    if order is None:
        yield
        return
    if order != "else-first":
        raise pytest.UsageError(f"AUTOGRAPH_COND_ORDER={order!r}: only 'else-first' is known")
    from autograph import backend as ag_backend
    from runtime._src.function import autograph_backend as rt
    from runtime._src.function.control_flow import cond_branches

    class ElseFirst(rt.AutographBackend):
        def cond(self, pred, branches, names):
            return cond_branches(rt._truth(pred), branches, tuple(names), order=(False, True))

    swapped = ElseFirst()
    ag_backend.unregister_backend(rt.BACKEND)
    ag_backend.register_backend(swapped)
    yield
    ag_backend.unregister_backend(swapped)
    ag_backend.register_backend(rt.BACKEND)


# The modules holding the suite's longest tests (10-45 CPU-s each: the bench, the
# tf.distribute processes, the fuzzers' JAX/XLA runs, the compiled corpora), moved
# to the front of the run, each whole and in this order; the rest keep theirs.
# pytest-xdist's worksteal hands each worker a contiguous part of the run and an idle
# worker steals from the end of the other's queue, so long tests at the front start
# at once instead of holding up the end of the run with one core idle.
LONGEST_FIRST = (
    "tests/tools/test_bench.py",
    "tests/runtime/distribute/test_distribute.py",
    "tests/reliability/test_fuzz.py",
    "tests/runtime/jit/test_jit_corpus.py",
    "tests/test_optional_extras.py",
    "tests/autograph/test_backend_contract.py",
    "tests/autograph/test_parsing.py",
    "tests/test_architecture.py",
    "tests/reliability/test_hostile.py",
    "tests/runtime/jit/test_jit_op_records.py",
)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


# Collection builds a heap that lives until the end (every module the suite imports and
# some 17,000 test items): the collector would walk it again at each full collection of
# the run (the tests' own gc.collect() calls, pytest's at the end). It stays off while
# collecting (the heap only grows), then the heap is moved out of its reach
# (gc.freeze): later collections walk only what the tests create. The tests then run
# with a young generation of 10,000 objects, not 700 (GC_THRESHOLD): traced graphs
# and their tensors die young, before a collection walks them, and fewer survivors
# reach the older generations (tests/runtime/function, reliability, exec and data on
# -n 2: the collector's time 1.9 -> 1.2 CPU-s of 31; what a test collects itself with
# gc.collect() is unchanged).
GC_THRESHOLD = (10_000, 20, 20)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    gc.disable()
    try:
        return (yield)
    finally:
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLD)
        gc.enable()


# Under pytest-xdist each test's three reports (setup, call, teardown) cross to the
# controller, whose execnet decodes them in Python, string by string: with some
# 17,000 tests that was the controller's largest cost, a third process on the
# suite's 2 cores. A passed report crosses without its keywords (the node's name,
# its parents' and marks' names: a third of its strings), which the controller
# reads only from skipped reports (to fold skips of a module-wide mark).
@pytest.hookimpl(wrapper=True)
def pytest_report_to_serializable(report):
    data = yield
    if data is not None and report.passed:
        data["keywords"] = {}
    return data
