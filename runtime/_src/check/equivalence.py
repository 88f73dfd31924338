"""Eager-versus-graph check mode: run a function both ways and compare.

A traced graph is meant to compute what the Python function computes. When
it does not (a Python side effect that ran only at trace time, a Python value
frozen into the graph, a dtype that changed), the quickest way to find out is
to run the same call eagerly and as a graph and compare:

    report = tf.debugging.check_equivalence(f, tf.constant(3))
    print(report)            # "f: eager and graph agree" or each difference
    report.raise_if_different()

or, process-wide, make every `function` call do that and raise
`EquivalenceError` on the first difference in results, exception types or
Variable values (different printed output is a warning, since Python `print`
legitimately runs only while tracing):

    tf.config.experimental_check_equivalence(True)

The two runs start from the same Variable values: they are saved before the
eager run and restored before the graph run, so the function's effect on its
Variables is applied once (by the graph run, whose result is returned).
Random ops draw different numbers eagerly and in a graph; a function that
uses them will be reported as different.
"""

import contextlib
import io
import sys
import warnings

import numpy as np

from runtime._src.core import nest
from runtime._src.graph.graph import current_graph
from runtime._src.optimizer.rewrite import walk_graphs
from runtime._src.core.tensor import Tensor
from runtime._src.function.tensor_array import TensorArray
from runtime._src.function import config as _config
from runtime._src.function.function import Function, function

__all__ = ["check_equivalence", "experimental_check_equivalence", "EquivalenceError",
           "EquivalenceReport"]


class EquivalenceError(AssertionError):
    """A function gave different results eagerly and as a graph."""


class Outcome:
    """What one run did: its result (as numpy) or exception, output, Variables."""

    def __init__(self, kind):
        self.kind = kind                # "eager" or "graph"
        self.result = None           # numpy leaves, for comparing
        self.raw_result = None       # what the call returned
        self.error = None
        self.stdout = ""
        self.stderr = ""
        self.variables = {}

    def describe(self):
        if self.error is not None:
            return f"raised {type(self.error).__name__}: {_first_line(self.error)}"
        return f"returned {_show(self.result)}"


class EquivalenceReport:
    """The eager and graph outcomes of one call, and their differences."""

    def __init__(self, name, eager, graph):
        self.name = name
        self.eager = eager
        self.graph = graph
        self.differences = _compare(eager, graph)
        self.output_differences = _compare_output(eager, graph)

    @property
    def ok(self):
        """True when results, exception types and Variable values agree."""
        return not self.differences

    def raise_if_different(self):
        if self.differences:
            raise EquivalenceError(str(self))

    def __str__(self):
        if not self.differences and not self.output_differences:
            return f"{self.name}: eager and graph agree ({self.graph.describe()})"
        lines = [f"{self.name}: eager and graph differ"]
        lines += [f"  - {d}" for d in self.differences + self.output_differences]
        return "\n".join(lines)

    __repr__ = __str__


def check_equivalence(fn, *args, **kwargs):
    """Run `fn(*args, **kwargs)` eagerly and as a graph; an `EquivalenceReport`.

    `fn` is a `runtime.function` (or a plain Python function, which is wrapped
    in one). Neither run's exception escapes: both are in the report.
    """
    if not isinstance(fn, Function):
        fn = function(fn)
    eager, graph = _run_both(fn, args, kwargs)
    return EquivalenceReport(fn._name, eager, graph)


def experimental_check_equivalence(enabled):
    """`tf.config.experimental_check_equivalence`: make every `function` call
    run eagerly *and* as a graph, compare the two and raise `EquivalenceError`
    on a difference. `run_functions_eagerly(True)` takes precedence.

    The check wraps calls from outside: it installs `checked_call` as the
    function layer's call hook, which `Function` calls instead of its graph."""
    enabled = _config.bool_arg("experimental_check_equivalence", enabled)
    _config.set_call_hook(checked_call if enabled else None)


def checked_call(fn, args, kwargs):
    """A `Function` call under `config.experimental_check_equivalence(True)`:
    the graph's result, after checking that the eager run agrees."""
    if current_graph() is not None:     # inlined into a trace: nothing to compare
        return fn._call_python(args, kwargs, check=False)
    eager, graph = _run_both(fn, args, kwargs)
    report = EquivalenceReport(fn._name, eager, graph)
    report.raise_if_different()
    if report.output_differences:
        warnings.warn(str(report), stacklevel=3)
    sys.stdout.write(graph.stdout)
    sys.stderr.write(graph.stderr)
    if graph.error is not None:
        raise graph.error
    return graph.raw_result


def _run_both(fn, args, kwargs):
    # Trace first (output printed while tracing belongs to the graph run), so
    # the Variables the graph uses are known, and created if it creates them.
    trace_out, trace_err = io.StringIO(), io.StringIO()
    variables = []
    with contextlib.redirect_stdout(trace_out), contextlib.redirect_stderr(trace_err):
        try:
            variables = variables_of(fn.get_concrete_function(*args, **kwargs).graph)
        except Exception:    # noqa: BLE001 - the graph run meets the same error and records it
            pass
    saved = [(v, v.numpy()) for v in variables]
    eager = _run("eager", lambda: fn._call_python(args, kwargs, check=False), variables)
    for v, value in saved:
        v._value = value
    graph = _run("graph", lambda: fn._call_graph(args, kwargs), variables)
    graph.stdout = trace_out.getvalue() + graph.stdout
    graph.stderr = trace_err.getvalue() + graph.stderr
    return eager, graph


def _run(kind, call, variables):
    outcome = Outcome(kind)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            outcome.raw_result = call()
            outcome.result = nest.map_structure(_as_numpy, outcome.raw_result)
        except Exception as e:          # noqa: BLE001 - recorded, compared, re-raised by caller
            outcome.error = e
    outcome.stdout, outcome.stderr = out.getvalue(), err.getvalue()
    outcome.variables = {v.name: v.numpy() for v in variables}
    return outcome


def variables_of(graph):
    """The Variables `graph` (and its nested graphs) read or assign."""
    found = {}
    for g in walk_graphs(graph):
        for node in g.nodes:
            v = node.attrs.get("variable")
            if v is not None:
                found[id(v)] = v
    return list(found.values())


def _as_numpy(value):
    if isinstance(value, Tensor):
        return value.numpy()
    if isinstance(value, TensorArray):
        return _ArrayElements(value)
    return value


class _ArrayElements(list):
    """A returned TensorArray compared by its elements (None: never written);
    a list, so each element is compared (and reported) as a leaf."""

    def __init__(self, array):
        storage = array.flow.numpy() if isinstance(array.flow, Tensor) else None
        super().__init__(getattr(storage, "items", ()))


def _compare(eager, graph):
    if eager.error is not None or graph.error is not None:
        if type(eager.error) is not type(graph.error):
            return [f"eager {eager.describe()}; graph {graph.describe()}"]
        return []
    diffs = []
    try:
        e_leaves, g_leaves = nest.flatten(eager.result), nest.flatten(graph.result)
        same_structure = len(e_leaves) == len(g_leaves)
    except (TypeError, ValueError):
        same_structure = False
    if not same_structure:
        return [f"eager {eager.describe()}; graph {graph.describe()} (different structure)"]
    for i, (a, b) in enumerate(zip(e_leaves, g_leaves)):
        problem = _leaf_difference(a, b)
        if problem:
            where = f"result[{i}]" if len(e_leaves) > 1 else "result"
            diffs.append(f"{where}: {problem}")
    for name, value in eager.variables.items():
        problem = _leaf_difference(value, graph.variables.get(name))
        if problem:
            diffs.append(f"Variable {name!r} afterwards: {problem}")
    return diffs


def _leaf_difference(a, b):
    """Why leaf `a` (eager) differs from `b` (graph), or None.

    A Python scalar on one side and a tensor value on the other agree when the
    values do: a traced function returns tensors where Python returned ints.
    """
    arrays = [isinstance(x, (np.ndarray, np.generic)) for x in (a, b)]
    if any(arrays):
        if not all(arrays) and isinstance(a if arrays[1] else b, (bool, int, float)):
            same = np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)
            return None if same else f"eager {_show(a)}, graph {_show(b)}"
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype != b.dtype:
            return f"eager dtype {a.dtype}, graph dtype {b.dtype}"
        if a.shape != b.shape:
            return f"eager shape {a.shape}, graph shape {b.shape}"
        if not np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"):
            return f"eager {_show(a)}, graph {_show(b)}"
        return None
    if type(a) is not type(b) or a != b:
        return f"eager {_show(a)}, graph {_show(b)}"
    return None


def _compare_output(eager, graph):
    diffs = []
    for stream in ("stdout", "stderr"):
        e, g = getattr(eager, stream), getattr(graph, stream)
        if e != g:
            hint = (" (Python print runs only while tracing; tf.print runs every call)"
                    if stream == "stdout" else "")
            diffs.append(f"{stream}: eager printed {e!r}, graph printed {g!r}{hint}")
    return diffs


def _show(value):
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, (tuple, list)):
        text = "(" + ", ".join(_show(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    elif isinstance(value, np.ndarray):
        text = np.array2string(value, threshold=10)
    else:
        text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _first_line(error):
    text = str(error).strip()
    return text.splitlines()[0] if text else ""

