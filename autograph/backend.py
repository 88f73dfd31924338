"""The contract between converted code and a tensor library.

Converted code calls `autograph.operators`, which run plain Python semantics
unless a value is a tensor of a registered backend; then they call that
backend's methods. `runtime` registers one (`runtime/_src/function/autograph_backend.py`);
tests register fakes. A backend implements the methods of `Backend` below:
the three abstract ones are required, the others are needed only by the
constructs that use them (a missing one raises NotImplementedError naming it).

    class MyBackend(Backend):
        def is_tensor(self, value): ...
    register_backend(MyBackend())
"""

import abc
import typing

__all__ = ["Backend", "Branches", "register_backend", "register_lazy_backend", "backends", "backend_of"]

_BACKENDS = []
# Backends imported the first time a value of their library reaches an
# operator: {top-level module of the value's type: module registering it}.
_LAZY = {}    # filled by autograph/backends/__init__.py
_NOT_LAZY = set()         # types already found to belong to no lazy backend


class Backend(abc.ABC):
    """What the operators need from a tensor library.

    `names` arguments are the user's variable names (e.g. `('x', 'd['b']')`),
    one per value, so errors can name them.
    """

    @abc.abstractmethod
    def is_tensor(self, value):
        """True when `value` is this backend's tensor (or variable)."""

    @abc.abstractmethod
    def cond(self, pred, branches, names):
        """Stage an if whose condition `pred` is this backend's tensor, whose
        value is only known when the graph runs (see `static_truth`).

        `branches` (a `Branches`) holds the two branches. Call
        `branches.trace(which)` once for each (`which`: True for the if
        branch, False for the else branch), in either order, each inside
        that branch's own graph: it runs the user's code once and returns
        the tuple of values the branch leaves, one per name. When both have
        run, `branches.outputs(which)` gives the tuple the branch outputs
        (tensors, tensor lists, Python numbers, None for "no output"; the
        same length and structure for both branches). Each of its leaves is
        either one of the values `trace` returned or a value made since
        (`dummy_like`, a Python number): a backend that builds its branch
        graphs in one go (JAX's `make_jaxpr`) can call it outside them and
        replay. Stage the choice between the two and return the chosen
        tuple, from which the operator makes the statement's results."""

    def static_truth(self, pred):
        """`pred`'s truth value when it is known already (an eager tensor):
        then only that branch runs, as in Python. None (the default) when it
        is only known when the graph runs: the if is staged with `cond`."""
        return None

    @abc.abstractmethod
    def while_loop(self, cond_fn, body_fn, loop_vars, names, opts=None):
        """Stage `while cond_fn(*vars): vars = body_fn(*vars)`; returns vars.

        `opts`: the loop's `set_loop_options` as a dict, passed only when the
        user gave some: `maximum_iterations` (stop after that many
        iterations), `shape_invariants` (a list of `(value, shape)` pairs; a
        value is one of `loop_vars`, found by identity), `parallel_iterations`,
        `swap_memory`."""

    def _missing(self, what):
        return NotImplementedError(f"{type(self).__name__} does not implement {what}")

    # --- values -------------------------------------------------------------
    def logical_not(self, x):
        """`not x` for a boolean tensor."""
        raise self._missing("logical_not")

    def len(self, x):
        """`len(x)`: a Python int when the first dimension is known, else a tensor."""
        raise self._missing("len")

    def size0(self, x):
        """The size of `x`'s first dimension, as a scalar tensor."""
        raise self._missing("size0")

    def getitem(self, x, i):
        """`x[i]` along the first dimension (i may be a tensor)."""
        raise self._missing("getitem")

    def range(self, start, limit, delta):
        """A 1-D tensor like `range(start, limit, delta)`."""
        raise self._missing("range")

    def cast(self, x, kind):
        """`int(x)` (kind 'int': int32, truncating) or `float(x)` ('float': float32)."""
        raise self._missing("cast")

    def reduce(self, kind, x):
        """`min(x)` / `max(x)` over all elements; kind is 'min' or 'max'."""
        raise self._missing("reduce")

    def sum0(self, x):
        """`sum(x)`: the sum along the first dimension (of a tensor list: of
        its stacked elements)."""
        raise self._missing("sum0")

    def elementwise(self, kind, a, b):
        """`min(a, b)` / `max(a, b)` elementwise; kind is 'min' or 'max'."""
        raise self._missing("elementwise")

    def print_(self, objects, kwargs):
        """`print(*objects, **kwargs)` as a graph operation that prints the
        tensors' values (as Python prints numpy values) each time the graph
        runs (used with Feature.BUILTIN_FUNCTIONS)."""
        raise self._missing("print_")

    def assert_(self, cond, message):
        """A staged assertion: fails at run time with `message` when `cond` is false."""
        raise self._missing("assert_")

    # --- lists accumulated in staged loops ----------------------------------
    def is_list(self, value):
        """True when `value` is this backend's tensor list (a TensorArray)."""
        return False

    def new_list(self, items, like):
        """A tensor list holding `items`; `like` is an example element."""
        raise self._missing("new_list")

    def list_append(self, lst, x):
        raise self._missing("list_append")

    def list_stack(self, lst):
        raise self._missing("list_stack")

    def stream(self, iterable):
        """For a staged `for` over `iterable`: None when it is iterated by
        index (`size0` / `getitem`), else a stream (a dataset, an iterator):
        an object with `kind` (a word for the report, e.g. 'dataset'),
        `next(want)` -> `(has_value, flat_item)` staging the fetch of the next
        item when `want` (a bool or bool tensor) holds, and `pack(flat_item)`
        -> the item the loop body gets. See operators/stream_loops.py."""
        return None

    def bounded_loop(self, cond_fn, body_fn, loop_vars, names, bound, exact, opts=None):
        """A staged loop known when tracing to run at most `bound` times (a
        Python int: a for loop over a tensor whose first dimension is
        static, already capped by `opts`' maximum_iterations); exactly
        `bound` times when `exact` (no break or return; then `cond_fn` is
        only the index test). Backends that can use the bound override this
        (JAX: a differentiable lax.scan); by default a while_loop."""
        extra = {"opts": opts} if opts else {}
        return self.while_loop(cond_fn, body_fn, loop_vars, names, **extra)

    # --- placeholders for values first defined inside staged code -----------
    def probe(self, fn, args):
        """Run `fn(*args)` in a throwaway graph; return its outputs, only to
        read their dtypes and shapes."""
        raise self._missing("probe")

    def dummy_like(self, value):
        """A tensor with the dtype (and a shape compatible with) `value`."""
        raise self._missing("dummy_like")


class Branches(typing.Protocol):
    """The two branches of one staged if, as `Backend.cond` receives them."""

    def trace(self, which):
        """Run the user's code of the if branch (`which` True) or the else
        branch (False) once, in the caller's current graph; return the
        values it leaves, one per name. Errors in the user's code propagate."""

    def outputs(self, which):
        """Once both branches are traced: the values branch `which` outputs,
        one per name, after reconciling the two (a value only one branch
        defines gets a placeholder of its type in the other; a Python object
        both leave unchanged is None). Raises the user-facing error when the
        branches disagree (a name defined in one branch only, different
        structures)."""


def register_backend(backend):
    """Make converted code dispatch `backend`'s tensors to it."""
    if not isinstance(backend, Backend):
        raise TypeError(f"expected an autograph.backend.Backend, got {type(backend).__name__}")
    if backend not in _BACKENDS:
        _BACKENDS.append(backend)


def unregister_backend(backend):
    """Undo `register_backend` (tests use it to remove fakes)."""
    if backend in _BACKENDS:
        _BACKENDS.remove(backend)


def register_lazy_backend(module, loader):
    """Call `loader()` (which imports and registers a backend) the first time
    a value whose type is defined under the top-level module `module` (e.g.
    'jax') reaches an operator: autograph never imports the library itself."""
    _LAZY[module] = loader
    _NOT_LAZY.clear()


def _load_lazy(kind):
    """Import the lazy backend `kind`'s module belongs to; True if one was."""
    loader = _LAZY.get(kind.__module__.partition(".")[0])
    if loader is None:
        _NOT_LAZY.add(kind)
        return False
    for key in [k for k, v in _LAZY.items() if v is loader]:
        del _LAZY[key]
    loader()
    return True


def backends():
    return tuple(_BACKENDS)


_PLAIN = frozenset({int, float, bool, str, type(None), list, tuple, dict, range, complex})


def backend_of(*values):
    """The backend owning the first tensor among `values`, else None."""
    for v in values:
        kind = type(v)
        if kind in _PLAIN:
            continue
        for b in _BACKENDS:
            if b.is_tensor(v) or b.is_list(v):
                return b
        if kind not in _NOT_LAZY and _LAZY and _load_lazy(kind):
            return backend_of(*values)
    return None
