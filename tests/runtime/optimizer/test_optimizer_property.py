"""Property: every concrete function traced by a representative set of
functions (the examples/ scripts and the control-flow functions below) gives
identical results with all optimizer passes on and all off, on its real
inputs and on random inputs of the same dtypes and shapes.

"Identical" means: the same output dtypes, shapes and bytes, the same error
type when a run fails, the same text printed (stdout and stderr), and the
same final values of the Variables the graph reads or writes. Each run
starts from the same Variable values and the same random seed.

Graphs are recorded unoptimized (all passes off) through the function
layer's `_finalize_graph` hook, then each is run, optimized in place with
`check=True` (lint after every pass), and run again.
"""

import contextlib
import importlib
import importlib.util
import io

import numpy as np
import pytest

import runtime as tf
from runtime._src.exec import executor
from runtime._src.function.concrete_function import ConcreteFunction, _capture_value
from runtime._src.check.equivalence import variables_of
from runtime._src.optimizer import optimize
from tests.paths import EXAMPLES

from tests.example_runs import main_kwargs

EXAMPLES = sorted(EXAMPLES.glob("*.py"))
RANDOM_INPUT_SETS = 3
function_module = importlib.import_module("runtime._src.function.function")  # `runtime.function` is the decorator


# --- recording traced graphs and the feeds they were called with -------------------

@contextlib.contextmanager
def recorded_graphs():
    """Trace unoptimized; yield a list filling with [graph, first real feeds]."""
    records, by_graph = [], {}
    original_finalize = function_module._finalize_graph
    original_call = ConcreteFunction._call_flat

    def finalize(graph):
        record = [graph, None]
        records.append(record)
        by_graph[id(graph)] = record
        return original_finalize(graph)

    def call_flat(self, feeds):
        record = by_graph.get(id(self._run_graph))
        if record is not None and record[1] is None:
            record[1] = list(feeds)
        return original_call(self, feeds)

    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})
    function_module._finalize_graph = finalize
    ConcreteFunction._call_flat = call_flat
    try:
        yield records
    finally:
        function_module._finalize_graph = original_finalize
        ConcreteFunction._call_flat = original_call
        tf.config.optimizer.reset_experimental_options()


# --- running a graph and describing everything observable about the run -----------

def random_value(rng, dtype, shape):
    dims = [3 if d is None else d for d in shape.dims] if shape.dims is not None else []
    if dtype.is_bool:
        return rng.random(dims) < 0.5
    if dtype.is_integer:
        return rng.integers(-3, 10, dims).astype(dtype.np_dtype)
    if dtype.is_floating:
        return rng.normal(size=dims).astype(dtype.np_dtype)
    if dtype.is_string:
        return np.array(rng.choice(["a", "bc", ""], dims), dtype=object)
    return None


def feed_sets(graph, real_feeds, rng):
    """The real feeds (when the graph ran) plus random arguments, real captures."""
    captures = [_capture_value(outer) for outer, _ in graph.captures]
    sets = [list(real_feeds)] if real_feeds is not None else []
    for _ in range(RANDOM_INPUT_SETS):
        args = []
        for i, t in enumerate(graph.inputs):
            shape = t.shape
            if real_feeds is not None:
                shape = tf.TensorShape(np.shape(real_feeds[i]))
            args.append(random_value(rng, t.dtype, shape))
        if all(a is not None for a in args):
            sets.append(args + captures)
    return sets


def outcome(graph, feeds, variables, start_values):
    """Everything observable about one run, as comparable data."""
    for v, value in zip(variables, start_values):
        v.assign(value)
    tf.random.set_seed(1234)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            np.errstate(all="ignore"):
        try:
            values, error = executor.run(graph, list(feeds)), None
        except Exception as e:  # noqa: BLE001 - the error type is part of the outcome
            values, error = None, type(e).__name__
    return {"values": None if values is None else [comparable(v) for v in values],
            "error": error, "stdout": out.getvalue(), "stderr": err.getvalue(),
            "variables": [comparable(v.numpy()) for v in variables]}


def comparable(value):
    a = np.asarray(value)
    if a.dtype == object:
        return ("object", a.shape, a.tolist())
    return (a.dtype.str, a.shape, a.tobytes())


def check_graphs_agree(records, seed=0):
    """Assert on-vs-off equality for every recorded graph; return how many ran."""
    rng = np.random.default_rng(seed)
    checked = 0
    for graph, real_feeds in records:
        variables = variables_of(graph)
        start = [v.numpy() for v in variables]
        runs = feed_sets(graph, real_feeds, rng)
        before = [outcome(graph, feeds, variables, start) for feeds in runs]
        report = optimize(graph, check=True)
        after = [outcome(graph, feeds, variables, start) for feeds in runs]
        for feeds, b, a in zip(runs, before, after):
            assert a == b, (f"graph {graph.name!r} differs with the optimizer on, for "
                            f"feeds {feeds}:\n{report}\n{graph}")
        for v, value in zip(variables, start):
            v.assign(value)
        checked += len(runs)
    return checked


# --- the examples --------------------------------------------------------------------

def run_example(path):
    spec = importlib.util.spec_from_file_location(f"example_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        spec.loader.exec_module(module)
        module.main(**main_kwargs(path.stem))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_graphs_agree_with_passes_on_and_off(path):
    with recorded_graphs() as records:
        run_example(path)
    assert records, f"{path.name} traced no function"
    assert check_graphs_agree(records) >= len(records)


# --- control-flow functions ------------------------------------------------------------

def collatz(n):
    steps = tf.constant(0)
    n = tf.abs(n) + 1
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def identities(x, y):
    a = tf.identity(x * 1 + 0) - (-(-y))
    b = tf.cast(a, tf.float32) * 1.0 + -0.0
    return b + (x * y + 1.0) * (x * y + 1.0) + tf.constant(2.0) * 3.0


def loop_with_invariants(x, w):
    s = tf.zeros_like(x)
    for i in tf.range(4):
        s += tf.reduce_sum(w * w) + x * tf.cast(i, tf.float32)
    return s


def tensor_array_loop(x):
    def body(i, ta):
        return i + 1, ta.write(i, x * tf.cast(i + 1, tf.float32))
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    _, ta = tf.while_loop(lambda i, ta: i < 3, body, (tf.constant(0), ta))
    return ta.stack()


VARIABLE = tf.Variable(0.0)


def variable_loop(x):
    for _ in tf.range(3):
        VARIABLE.assign_add(tf.reduce_sum(x))
    return VARIABLE.read_value() * 2.0


def printing_loop(n):
    total = tf.constant(0)
    for i in tf.range(n % 4):
        tf.print("i =", i, "total =", total)
        total += i * i
    return total


def random_loop(x):
    s = tf.constant(0.0)
    for _ in tf.range(3):
        s += tf.random.uniform([]) + x
    return s


def early_exit(x):
    for i in tf.range(10):
        if i * i > x:
            return i
    return tf.constant(-1)


def asserting(x):
    tf.debugging.assert_greater(x, 0, message="x must be positive")
    return tf.sqrt(tf.cast(x, tf.float32))


def nested_conds(x, y):
    if x > y:
        z = x - y if x > 0 else y - x
    else:
        z = tf.constant(0.0)
    return z * z, tf.reduce_max(tf.stack([x, y, z]))


def py_function_loop(x):
    for _ in tf.range(2):
        x = tf.py_function(lambda a: a * 2, [x], tf.int32)
    return x


CONTROL_FLOW_CASES = [
    (collatz, [tf.constant(27)]),
    (identities, [tf.constant(2.0), tf.constant(3.0)]),
    (loop_with_invariants, [tf.constant([1.0, 2.0]), tf.constant([0.5, 1.5])]),
    (tensor_array_loop, [tf.constant([1.0, -1.0])]),
    (variable_loop, [tf.constant([1.0, 2.0])]),
    (printing_loop, [tf.constant(3)]),
    (random_loop, [tf.constant(1.0)]),
    (early_exit, [tf.constant(10)]),
    (asserting, [tf.constant(4)]),
    (nested_conds, [tf.constant(2.0), tf.constant(1.0)]),
    (py_function_loop, [tf.constant(3)]),
]


@pytest.mark.parametrize("fn,args", CONTROL_FLOW_CASES,
                         ids=[fn.__name__ for fn, _ in CONTROL_FLOW_CASES])
def test_control_flow_graphs_agree_with_passes_on_and_off(fn, args):
    with recorded_graphs() as records:
        with contextlib.redirect_stderr(io.StringIO()):
            tf.function(fn)(*args)
    assert len(records) == 1
    assert check_graphs_agree(records, seed=len(fn.__name__)) == 1 + RANDOM_INPUT_SETS


def test_the_passes_change_these_graphs():
    """The property is not vacuous: the optimizer does rewrite these graphs."""
    changed = 0
    for fn, args in CONTROL_FLOW_CASES:
        graph = tf.function(fn).get_concrete_function(*args).graph
        report = graph.optimization_report
        changed += report.nodes_after < report.nodes_before or any(report.changes.values())
    assert changed >= len(CONTROL_FLOW_CASES) // 2
