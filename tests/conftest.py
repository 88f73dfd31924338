"""Suite-wide switches, off unless their environment variable is set.

`AUTOGRAPH_COND_ORDER=else-first`: runtime's autograph backend traces the
else branch of every staged `if` before the if branch (the backend contract
allows either order; tests/autograph/test_backend_contract.py runs the
equivalence corpus this way).

Also the run's cost (all below): the modules with the longest tests run first,
the garbage collector's view of what collection built and of what is left at the
end, and, under pytest-xdist, the reports a quiet run's workers keep back."""

import gc
import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _cond_order():
    order = os.environ.get("AUTOGRAPH_COND_ORDER")
    if order is None:
        yield
        return
    if order != "else-first":
        raise pytest.UsageError(f"AUTOGRAPH_COND_ORDER={order!r}: only 'else-first' is known")
    from tests.autograph.equivalence import else_first_backend
    with else_first_backend():
        yield


# The modules holding the suite's longest tests (5-45 CPU-s each: the bench, the
# tf.distribute processes, the fuzzers' JAX/XLA runs, the compiled corpora and the JAX
# corpus's one program, the saved-model edit sweep), moved
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
    "tests/jax_backend/test_jax_corpus.py",
    "tests/autograph/test_parsing.py",
    "tests/test_architecture.py",
    "tests/reliability/test_hostile.py",
    "tests/runtime/jit/test_jit_op_records.py",
    "tests/runtime/jit/test_jit_compile.py",
    "tests/runtime/saved_model/test_saved_model_edits.py",
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


# At the end of the run pytest collects garbage five times over (its unraisable-
# exception check), each pass walking every live object: 1.2-1.6 CPU-s in each worker
# of the whole suite on a loaded machine, while the run waits. Collecting here until a
# pass finds nothing (one or two passes) and then freezing what is left (no garbage is
# among it) leaves those five nothing to walk; a finalizer that fails still fails in a
# collection here, and is reported as before.
@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    for _ in range(5):
        if not gc.collect():
            break
    gc.freeze()


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


# Each test also sends the controller a logstart and a logfinish event and its passed
# setup and teardown reports, which a quiet run (the suite's -q) shows nowhere: about
# two thirds of the controller's messages, each decoded, queued and passed through
# its hooks in Python. A worker keeps them back when the run is quiet and nothing
# else reads them (no JUnit XML, no live log, no report log); setup and teardown
# reports still cross when they failed, were skipped, captured output, or took as
# long as --durations shows (5 ms, or --durations-min). Those kept back are not
# serialized either (25 us each).
def pytest_configure(config):
    interactor = _xdist_worker_interactor(config)
    if interactor is None or not _quiet(config):
        return
    slow = config.option.durations_min
    slow = 0.005 if slow is None else slow
    send = interactor.sendevent

    def kept_back(report):
        return (report.when in ("setup", "teardown") and report.passed and not report.sections
                and report.duration < slow)

    def sendevent(name, **kwargs):
        if name in ("logstart", "logfinish"):
            return
        if name == "testreport" and kwargs["data"].get("kept_back"):
            return
        send(name, **kwargs)

    class KeptBack:
        @pytest.hookimpl(tryfirst=True)
        def pytest_report_to_serializable(self, report):
            return {"kept_back": True} if kept_back(report) else None

    interactor.sendevent = sendevent
    config.pluginmanager.register(KeptBack(), "conftest-kept-back-reports")


def _xdist_worker_interactor(config):
    if not hasattr(config, "workerinput"):
        return None
    return next((p for p in config.pluginmanager.get_plugins()
                 if type(p).__name__ == "WorkerInteractor" and hasattr(p, "sendevent")), None)


def _quiet(config):
    option = config.option
    return (option.verbose < 0 and not getattr(option, "xmlpath", None)
            and not getattr(option, "report_log", None) and not config.getini("log_cli"))
