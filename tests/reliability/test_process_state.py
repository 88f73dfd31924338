"""No unbounded process-wide state: converting functions and dropping them
gives the memory back (caches are weakly keyed, per-function data goes with
the function), and the process-wide pauses (garbage collector, recursion
limit) are reference-counted across threads."""

import gc
import linecache
import sys
import threading
import tracemalloc

import pytest

import autograph
from autograph.pyct import pauses

# Distinct names (template text, generated files, source maps and tracking
# counts all see them); tracking records the if.
_SOURCE = """
def step_{i}(x):
    if x > {i}:
        x_{i} = x - 1
    else:
        x_{i} = x
    return x_{i}
"""


def _convert_and_drop(i):
    filename = f"/memory-test/step_{i}.py"     # .py: the fast way to the source
    source = _SOURCE.format(i=i)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {}
    exec(compile(source, filename, "exec"), namespace)  # the test's own source
    # Taken out of its namespace, the function is in no reference cycle (as a
    # nested function or lambda a program makes and drops): dropped, it and
    # its conversion go at once, whenever the cyclic collector runs.
    fn = namespace.pop(f"step_{i}")
    assert autograph.to_graph(fn)(3) == fn(3)
    del linecache.cache[filename]


@pytest.mark.long
def test_converting_and_dropping_2000_functions_keeps_under_2_mib():
    # Python interns the names: grow its table once, before measuring.
    compile("\n".join(f"w{i} = 0" for i in range(8000)), "<names>", "exec")
    for i in range(10000, 10050):
        _convert_and_drop(i)          # first use of every converter and template
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(2000):
            _convert_and_drop(i)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    print(f"grew {grown / 1024:.0f} KiB")
    assert grown < 2 * 1024 * 1024, f"grew {grown / 1024:.0f} KiB ({grown / 2000:.0f} B per function)"


def test_a_dropped_conversion_needs_no_cyclic_collection():
    """A converted function refers to the user's function weakly (the user's
    function holds its conversion): converting and dropping makes no cycle,
    so what a conversion leaves goes by reference counting, however rarely a
    large process runs a full collection."""
    _convert_and_drop(10100)
    gc.collect()
    gc.disable()
    try:
        for i in range(10101, 10121):
            _convert_and_drop(i)
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_a_converted_function_outlives_its_original():
    source = "def g(x, k=2):\n    if x > 0:\n        x = x * k\n    return x\n"
    filename = "/memory-test/outlives.py"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {}
    exec(compile(source, filename, "exec"), namespace)  # the test's own source
    converted = autograph.to_graph(namespace.pop("g"))
    gc.collect()
    assert converted(3) == 6 and converted(-1, k=5) == -1
    assert "if_stmt" in autograph.to_code(converted)
    del linecache.cache[filename]


def test_the_gc_pause_ends_with_the_last_thread_in_it():
    assert gc.isenabled()
    limit = sys.getrecursionlimit()
    inside, leave = threading.Barrier(2), threading.Event()
    seen = {}

    def first():
        with pauses.paused_gc(), pauses.deep_recursion():
            inside.wait()
            leave.wait()

    def second():
        with pauses.paused_gc(), pauses.deep_recursion():
            inside.wait()
        # `first` is still inside: its pause holds after this one ended
        seen["gc"], seen["limit"] = gc.isenabled(), sys.getrecursionlimit()
        leave.set()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen == {"gc": False, "limit": max(limit, pauses.DEEP_LIMIT)}
    assert gc.isenabled() and sys.getrecursionlimit() == limit


def test_converting_in_threads_leaves_the_collector_on():
    def convert(i):
        _convert_and_drop(20000 + i)

    threads = [threading.Thread(target=convert, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert gc.isenabled()


def test_the_template_cache_keeps_a_bounded_number_of_texts():
    from autograph.pyct import templates
    for i in range(2 * templates._KEPT):
        (stmt,) = templates.replace(f"name_{i} = value", value="x")
        assert (stmt.targets[0].id, stmt.value.id) == (f"name_{i}", "x")
    assert len(templates._PARSED) <= templates._KEPT
    assert len(templates._BUILDERS) <= templates._KEPT


_CONSTRUCTS = """
def many_{i}(x_{i}, d_{i}, o_{i}, l_{i}):
    total_{i} = 0
    while x_{i} > 0:
        x_{i} = x_{i} - 1
        if x_{i} == 3:
            continue
        if x_{i} == 7:
            break
        d_{i}['k'] = x_{i}
        o_{i}.seen = x_{i}
        l_{i}.append(x_{i})
        total_{i} = total_{i} + x_{i}
    for j_{i} in range(2):
        if j_{i} > x_{i}:
            return total_{i}
    gone_{i} = 1
    del gone_{i}
    return total_{i} + len(l_{i})
"""


def _convert_constructs(i):
    filename = f"/template-test/many_{i}.py"
    source = _CONSTRUCTS.format(i=i)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {}
    exec(compile(source, filename, "exec"), namespace)  # the test's own source
    fn = namespace[f"many_{i}"]

    class Obj:
        pass
    args = (9, {}, Obj(), [])
    assert autograph.to_graph(fn)(*args) == fn(9, {}, Obj(), [])
    del linecache.cache[filename]


def test_templates_hold_placeholders_only_so_user_names_add_no_texts():
    """Every converter writes the user's names into a template's placeholders,
    never into its text: functions that differ only in their names use the
    same template texts (so the cache is a fixed set, not an evicting one)."""
    from autograph.pyct import templates
    _convert_constructs(0)
    texts = set(templates._PARSED)
    for i in range(1, 20):
        _convert_constructs(i)
    assert set(templates._PARSED) - texts == set()
