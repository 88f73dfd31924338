"""Four-way equivalence: one function run as plain Python, converted on Python
values, eagerly on tensors, and traced into a graph must agree on results,
printed output, exception types and the mutations it makes to its arguments.

    check(fn, py_args=(3,), tensor_args=(3,))   # tensor_args become tf.constants

`outcome` describes a call as comparable data: ("ok", plain result, printed
text, plain arguments afterwards) or ("raised", exception type, printed
text, arguments). Tensors compare by value (`.numpy().tolist()`).
"""

import contextlib
import copy
import io
import os

import numpy as np

import autograph


# The order a staged if's branches are traced in: runtime's backend traces
# the if branch first, as TensorFlow; the suite can run with a backend that
# traces the else branch first (see tests/conftest.py).
ELSE_FIRST = os.environ.get("AUTOGRAPH_COND_ORDER") == "else-first"


@contextlib.contextmanager
def else_first_backend():
    """runtime's autograph backend swapped, while in the block, for one that
    traces the else branch of every staged if first (tests/conftest.py's
    AUTOGRAPH_COND_ORDER=else-first; tests/autograph/test_backend_contract.py)."""
    from autograph import backend as ag_backend
    from runtime._src.function import autograph_backend as rt
    from runtime._src.function.control_flow import cond_branches

    class ElseFirst(rt.AutographBackend):
        def cond(self, pred, branches, names):
            return cond_branches(rt._truth(pred), branches, tuple(names), order=(False, True))

    swapped = ElseFirst()
    ag_backend.unregister_backend(rt.BACKEND)
    ag_backend.register_backend(swapped)
    try:
        yield
    finally:
        ag_backend.unregister_backend(swapped)
        ag_backend.register_backend(rt.BACKEND)


def traced_order(if_branch, else_branch):
    """What the two branches leave, in the order they are traced."""
    return [else_branch, if_branch] if ELSE_FIRST else [if_branch, else_branch]


def plain(value):
    """A comparable Python form of `value` (tensors by value, containers
    recursively, other objects by their attribute dicts)."""
    if hasattr(value, "numpy") and callable(value.numpy):
        value = value.numpy()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return type(value)(plain(v) for v in value)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if hasattr(value, "__dict__") and not callable(value):
        return (type(value).__name__, plain(vars(value)))
    return value


def outcome(fn, args):
    """Call `fn(*args)` on deep copies; what it returned or raised, printed,
    and left in its arguments."""
    args = copy.deepcopy(args)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            result = ("ok", plain(fn(*args)))
        except Exception as e:  # noqa: BLE001 - the type is what we compare
            result = ("raised", type(e).__name__)
    return result + (out.getvalue(), plain(list(args)))


def _tensors(tf, args):
    return tuple(tf.constant(a) if isinstance(a, (bool, int, float, list)) else a for a in args)


def check(fn, py_args, tensor_args=None, graph_prints=True):
    """Assert the four runs agree. `tensor_args=None`: Python values only.
    `graph_prints=False`: Python `print` runs at trace time only, so the
    graph's printed output is not compared."""
    expected = outcome(fn, py_args)
    assert outcome(autograph.to_graph(fn), py_args) == expected, "converted on Python values"
    if tensor_args is None:
        return expected
    import runtime as tf
    want = outcome(fn, tensor_args)
    eager = outcome(fn, _tensors(tf, tensor_args))
    assert eager[:2] == want[:2], "eager on tensors"
    graph = outcome(tf.function(fn), _tensors(tf, tensor_args))
    if not graph_prints:
        graph, want = graph[:2] + graph[3:], want[:2] + want[3:]
    assert graph == want, "graph"
    return expected
