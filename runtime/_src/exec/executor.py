"""Runs a graph on numpy values, non-strictly, through generated Python code.

A run executes only the nodes its outputs need plus every node with a side
effect (print, assert, variable writes, random, py_function) and what those
need, in program order. A graph's first run walks those nodes and calls
their kernels (`runtime._src.exec.interpreter`: a new function's first call
does not pay for code it may never run again; under op determinism,
runtime/_src/core/determinism.py, the first run is compiled too, so that
every call runs the same code). On the second run the graph
is lowered once into Python source (see `runtime._src.exec.codegen`),
compiled and cached on the graph as `graph._compiled` (editing the graph
resets it); later runs call that function directly.

    values = run(graph, [np.int32(3)])   # -> list of numpy outputs
    print(graph.python_source())         # the code a run executes

A kernel that fails inside the generated code is reported as an
`InvalidArgumentError` naming the node and the user's source line: the
traceback's line in the generated code maps back to its node.

Before a run of a graph with matrix products, the BLAS threads are chosen
from the size of its largest product and the machine's load
(runtime/_src/core/blas.py): one thread for small products or a busy
machine, the library's count otherwise.
"""

import linecache
import math

from runtime._src.core import blas, determinism, workspace
from runtime._src.exec.codegen import INLINED, compile_graph, plan
from runtime._src.exec.interpreter import INTERPRETED, MalformedGraph, interpret
from runtime._src.core.errors import OpError
from runtime._src.core.fp_quiet import quiet, restore
from runtime._src.graph.graph import PRUNED, RENDERERS, kernel_error, paused_gc
from runtime._src.graph.op_registry import run_quietly

__all__ = ["run", "plan", "compiled_form", "python_source", "INTERPRETED"]


def compiled_form(graph):
    """The cached `CompiledGraph` of `graph`, compiling it if needed."""
    compiled = graph._compiled
    if compiled is None or compiled is INLINED or compiled is INTERPRETED or compiled is PRUNED \
            or compiled.is_stale():
        with paused_gc():
            compiled = graph._compiled = compile_graph(graph)
    if compiled.blas_work == -1:
        compiled.blas_work = largest_product(graph)
    return compiled


# Ops whose kernels are matrix products, and the size of the dimension each
# output element sums over, from the nodes' static shapes.
_PRODUCT_DEPTH = {
    "MatMul": lambda n: n.inputs[0].shape.dims[-2 if n.attrs.get("transpose_a") else -1],
    "Conv2D": lambda n: _prod(n.inputs[1].shape.dims[:3]),
    "Conv2DBackpropInput": lambda n: _prod(n.inputs[2].shape.dims[:3]),
    "Conv2DBackpropFilter": lambda n: _prod(n.inputs[2].shape.dims[:3]),
}


def largest_product(graph):
    """The multiply-adds of the largest matrix product in `graph` and its
    subgraphs, from static shapes; None when a product's size is unknown
    (taken as large) and 0 when there is none. It chooses BLAS threads
    (runtime/_src/core/blas.py)."""
    largest = 0
    depths = _PRODUCT_DEPTH
    for node in graph.nodes:
        depth = depths.get(node.op)
        if depth is not None:
            ref = node.inputs[0] if node.op.startswith("Conv2DBackprop") else node.outputs[0]
            try:
                work = _prod(ref.shape.dims) * depth(node)
            except (TypeError, IndexError):
                work = None
            if work is None:
                return None
            largest = max(largest, work)
        subs = node._subgraphs          # node.subgraph_list(), without the call
        if subs is None:
            subs = node.subgraph_list()
        for sub in subs:
            work = largest_product(sub)
            if work is None:
                return None
            largest = max(largest, work)
    return largest


def _prod(dims):
    if dims is None or any(d is None for d in dims):
        return None
    return math.prod(dims)


def run(graph, inputs):
    """Run `graph` with numpy values for `graph.inputs` (then captures).

    Returns the list of numpy values of `graph.outputs`.
    """
    compiled = graph._compiled
    if compiled is None or compiled is PRUNED:
        if not determinism.enabled():
            return _interpreted_run(graph, inputs)
        compiled = compiled_form(graph)
    elif compiled is INLINED or compiled is INTERPRETED \
            or (compiled.inlined and compiled.is_stale()) or compiled.blas_work == -1:
        compiled = compiled_form(graph)
    if compiled.blas_work != 0:       # a graph with no matrix product leaves the threads be
        blas.use(blas.threads_for(compiled.blas_work))
    _check_count(graph, compiled.num_inputs, inputs)
    token = quiet()                 # TF's inf and NaN come silently
    try:
        if compiled.pools is None:
            return compiled.fn(*inputs)
        return _pooled_call(compiled, inputs)
    except RuntimeWarning as e:     # a warnings filter made numpy's own warning an error
        if graph.is_stateful():     # a rerun would repeat its effects: say what happened
            raise _warning_error(_traceback_node(compiled, e), compiled.graph_name, e) from e
        return run_quietly(compiled.fn, *inputs)
    except OpError as e:
        if not getattr(e, "_located", False):
            _locate(_traceback_node(compiled, e), e)
        raise
    except Exception as e:  # re-raised naming the op and the user's line
        raise _run_error(_traceback_node(compiled, e), compiled.graph_name, e) from e
    finally:
        restore(token)


def _interpreted_run(graph, inputs):
    """The graph's first run, by the interpreter (runtime/_src/exec/interpreter.py),
    with the compiled run's checks and errors; the next run compiles it."""
    _check_count(graph, len(graph.inputs) + len(graph.captures), inputs)
    work = largest_product(graph)
    if work != 0:
        blas.use(blas.threads_for(work))
    where = []
    token = quiet()
    try:
        return interpret(graph, inputs, where)     # (it marks the graph INTERPRETED)
    except MalformedGraph:
        raise
    except RuntimeWarning as e:
        if graph.is_stateful():
            raise _warning_error(where[-1] if where else None, graph.name, e) from e
        return run_quietly(interpret, graph, inputs, [])
    except OpError as e:
        if not getattr(e, "_located", False):
            _locate(where[-1] if where else None, e)
        raise
    except Exception as e:
        raise _run_error(where[-1] if where else None, graph.name, e) from e
    finally:
        restore(token)


def _check_count(graph, expected, inputs):
    if len(inputs) != expected:
        raise ValueError(f"graph {graph.name!r} takes {expected} inputs "
                         f"({len(graph.inputs)} arguments and {len(graph.captures)} "
                         f"captures), got {len(inputs)}")


def _traceback_node(compiled, error):
    """The node whose generated line raised `error`, or None."""
    return compiled.node_for_traceback(error.__traceback__)


def _warning_error(node, graph_name, warning):
    error = _run_error(node, graph_name, warning)
    error.add_note("A warnings filter (-W error or warnings.simplefilter('error')) "
                   "turned numpy's RuntimeWarning into an exception; TensorFlow gives "
                   "inf or NaN here. A graph with state (Variables, prints) is not "
                   "run twice, so filter RuntimeWarning out to get that value.")
    return error


def _pooled_call(compiled, inputs):
    """Run the compiled code with a workspace pool of its own (one per thread
    and run: concurrent or nested runs take different pools), then keep the
    pool, holding the arrays this run handed back, for the next run."""
    pools = compiled.pools
    try:
        pool = pools.pop()
    except IndexError:
        pool = {}
    previous = workspace.activate(pool)
    try:
        return compiled.fn(*inputs)
    finally:
        workspace.activate(previous)
        workspace.trim(pool)
        pools.append(pool)


def _run_error(node, graph_name, error):
    """An InvalidArgumentError naming the node that failed (None: unknown)."""
    if node is None:
        new = kernel_error(f"graph {graph_name!r}", (), error)
    else:
        new = kernel_error(node.name, node.inputs, error, node.location)
    new._located = True
    return new


def _locate(node, error):
    """Add the failing `node`'s op and user source line to a kernel's OpError.

    The error is edited in place (same object, same traceback) and marked, so
    an enclosing run (a fallback `If`/`While` kernel, a py_function calling a
    Function) does not add its own line too. Nothing is added twice: a
    failing `Assert` already ends with the same "(at file:line)".
    """
    error._located = True
    if node is None:
        return
    message, loc = str(error), node.location
    if loc and f"{loc[0]}:{loc[1]}" in message:
        return
    if node.op not in message and node.name not in message:
        message = f"{node.op}: {message}"
    if loc:
        message = f"{message}\n  (at {loc[0]}:{loc[1]}{_source_text(loc)})"
    error.args = (message,) + tuple(error.args[1:])
    error.message = message
    if error.op_name is None:
        error.op_name = node.name


def _source_text(loc):
    """': <the user's source line>' or '' when it cannot be read."""
    text = linecache.getline(str(loc[0]), loc[1]).strip()
    return f": {text}" if text else ""


def python_source(graph):
    """The Python source `graph` runs as (compiling it first if needed)."""
    return compiled_form(graph).source


RENDERERS["python_source"] = python_source
