"""The op registry: every op is defined once, in one block, and `apply` runs it
eagerly or adds it to the graph being traced.

An op definition says four things:

    @define_op("add", infer=infer_broadcast)       # name, dtype/shape rule
    def _add(x, y):                                # numpy kernel
        return np.add(x, y)

plus `stateful=True` (never constant-folded or merged by CSE: variable reads,
random) and `side_effect=True` (always run, in program order, even when no
output needs it: print, assert, variable writes, random, py_function).

A differentiable op registers its gradient (vector-Jacobian product) in a
block right after its definition, written with the runtime's own ops so that
a gradient is itself ops (graph nodes while tracing, eager ops otherwise):

    @define_grad("Mul")
    def _mul_grad(op, grad):       # op: .inputs, .outputs, .attrs
        x, y = op.inputs
        return [unbroadcast(grad * y, x), unbroadcast(grad * x, y)]

It returns one gradient (or None) per input. `not_differentiable("Equal", ...)`
says an op has no gradient (its inputs get None); an op with neither is an
error when a gradient has to pass through it (see runtime/_src/autodiff).

`infer(inputs, attrs)` gets the input tensors (anything with `.dtype` and
`.shape`) and returns a list of `(dtype, TensorShape)`, one per output; it
raises `ValueError`/`TypeError` naming the op and the bad argument. The kernel
gets numpy values positionally and attrs as keywords, and returns one numpy
value, or a tuple when the op has several outputs.
"""

import sys
import time
import warnings

import numpy as np

from runtime._src.core import trace_events
from runtime._src.core.context import current_graph, state as _state
from runtime._src.core.devices import log_placement
from runtime._src.core.errors import InvalidArgumentError, OpError
from runtime._src.core.fp_quiet import quiet, restore
from runtime._src.graph.locations import kernel_error, leaked_tensor_error, user_location
from runtime._src.core.tensor import EagerTensor, SymbolicTensor, Tensor, wrap_numpy

_State = type(_state)     # the check_numerics hook is set on the class: read there

__all__ = ["OpDef", "define_op", "define_grad", "not_differentiable", "NOT_DIFFERENTIABLE",
           "get_op", "apply", "stage", "OPS", "eager_kernel_error", "record_eager", "run_quietly"]

OPS = {}


class OpDef:
    """One op: its name, inference rule, kernel and effect flags, and the modules
    that define it and its gradient rule (`module`, `grad_module`)."""

    __slots__ = ("name", "infer", "kernel", "stateful", "side_effect", "num_outputs", "grad",
                 "grad_takes_none", "module", "grad_module")

    def __init__(self, name, infer, kernel, stateful=False, side_effect=False,
                 num_outputs=1, module=None):
        self.name = name
        self.module = module
        self.infer = infer
        self.kernel = kernel
        self.stateful = stateful or side_effect
        self.side_effect = side_effect
        self.num_outputs = num_outputs
        self.grad = None             # the gradient rule, NOT_DIFFERENTIABLE, or None (none defined)
        self.grad_takes_none = False  # the rule gets None for unused outputs, not zeros
        self.grad_module = None

    def __repr__(self):
        return f"<op {self.name}>"


def define_op(name, *, infer, stateful=False, side_effect=False, num_outputs=1):
    """Decorator registering a numpy kernel as the op `name`."""
    def register(kernel):
        if name in OPS:
            raise ValueError(f"op {name!r} is defined twice")
        OPS[name] = OpDef(name, infer, kernel, stateful, side_effect, num_outputs,
                          _calling_module())
        return kernel
    return register


def _calling_module(depth=2):
    """The module whose code called the function that calls this one."""
    return sys._getframe(depth).f_globals.get("__name__")


def _not_differentiable_rule(op, *grads):
    return [None] * len(op.inputs)


NOT_DIFFERENTIABLE = _not_differentiable_rule


def define_grad(name, *, takes_none=False, module=None):
    """Decorator registering `rule(op, *output_grads) -> input grads` as op `name`'s gradient.

    The rule of an op with several outputs gets zeros for an output no gradient
    reached, unless `takes_none`: then it gets None there and skips that part.
    """
    module = module or _calling_module()

    def register(rule):
        opdef = get_op(name)
        if opdef.grad is not None:
            raise ValueError(f"op {name!r} has two gradients")
        opdef.grad = rule
        opdef.grad_takes_none = takes_none
        opdef.grad_module = module
        return rule
    return register


def not_differentiable(*names):
    """Say that ops `names` have no gradient: their inputs get None."""
    for name in names:
        define_grad(name, module=_calling_module())(NOT_DIFFERENTIABLE)


def get_op(name):
    try:
        return OPS[name]
    except KeyError:
        raise ValueError(f"unknown op {name!r}") from None


def apply(name, inputs, attrs=None, _location=False):
    """Run op `name` on `inputs` (Tensors) now, or stage it in the current graph.

    Returns one Tensor, or a tuple of them for ops with several outputs.
    (`_location`: the user's line of a staged op, when the caller knows it.)
    """
    opdef = OPS[name]
    graph = current_graph()
    if graph is None:
        if _state.profiler is not None:         # a tf.profiler session
            return _profiled(opdef, inputs, attrs)
        result = _run_eagerly(opdef, inputs, attrs)
        if _state.check_numerics is not None:   # tf.debugging.enable_check_numerics
            _state.check_numerics(opdef, inputs, result, None)
        return result
    # The user's frame is looked for from this one's caller on (see add_node).
    if _location is False:
        _location = user_location(2)
    return stage(graph, opdef, inputs, attrs or {}, _location)


def stage(graph, opdef, inputs, attrs, location):
    """`apply` of `opdef` while `graph` is traced, for a caller that has the
    graph and the user's location already (see Graph.add_node)."""
    outs = graph.add_node(opdef, inputs, attrs, _location=location).outputs
    check = _State.check_numerics               # (set on the class: read there)
    if check is not None:
        outs = check(opdef, inputs, outs, graph)
    return outs[0] if opdef.num_outputs == 1 else outs


def _profiled(opdef, inputs, attrs):
    """An eager op under a tf.profiler session: run as usual, recorded as an
    event named by the op's type (core/trace_events.py)."""
    profiler = _state.profiler
    start = time.perf_counter_ns()
    result = _run_eagerly(opdef, inputs, attrs)
    if _state.check_numerics is not None:
        _state.check_numerics(opdef, inputs, result, None)
    if profiler.records(trace_events.op_level):
        profiler.add(opdef.name, start)
    return result


def _run_eagerly(opdef, inputs, attrs):
    if _state.log_placement:
        log_placement(opdef.name)
    values = []
    for t in inputs:
        if t.__class__ is EagerTensor or isinstance(t, EagerTensor):
            values.append(t._value)
        elif isinstance(t, SymbolicTensor):
            raise leaked_tensor_error(t, opdef.name)
        else:
            raise TypeError(f"{opdef.name}: expected a Tensor input, got {type(t).__name__}")
    token = quiet()                 # TF's inf and NaN come silently
    try:
        out = opdef.kernel(*values, **attrs) if attrs else opdef.kernel(*values)
    except RuntimeWarning:          # a warnings filter made numpy's own warning an error
        out = run_quietly(opdef.kernel, *values, **(attrs or {}))
    except Exception as e:  # re-raised with the op named
        raise eager_kernel_error(opdef, inputs, attrs, e) from e
    finally:
        restore(token)
    if opdef.num_outputs == 1:
        result = wrap_numpy(out)
        outs = (result,)
    else:
        result = outs = tuple(wrap_numpy(o) for o in out)
    if getattr(_state, "tapes", None):
        record_eager(opdef, inputs, attrs, outs)
    return result


def record_eager(opdef, inputs, attrs, outputs):
    """Tell the gradient tapes recording on this thread that an op ran eagerly."""
    for tape in _state.tapes:
        tape.record_eager(opdef, inputs, attrs or {}, outputs)


def run_quietly(kernel, *args, **kwargs):
    """`kernel` run again with numpy's warnings off.

    Kernels run with numpy's floating-point errors ignored (core/fp_quiet), but
    a few numpy functions warn in Python (`np.mean` of nothing: "Mean of empty
    slice"); a user's warnings filter that makes warnings errors (`-W error`,
    `simplefilter("error")`) turns that warning into an exception out of the
    kernel, and the callers that catch it run the kernel again through here,
    so the user's filter changes nothing.
    """
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return kernel(*args, **kwargs)


def eager_kernel_error(opdef, inputs, attrs, error):
    """InvalidArgumentError for a kernel that failed eagerly.

    For a raw numpy failure, the op's shape rule (which eager runs skip)
    usually says what is wrong more clearly than numpy ("axis 5 is out of range for a tensor of rank 2"), so
    its complaint is used when it has one; else the kernel's error.
    """
    if isinstance(error, OpError):
        return error                 # the kernel's own check, already in TF's words
    try:
        opdef.infer(inputs, attrs or {})
    except (TypeError, ValueError) as e:
        return InvalidArgumentError(f"{opdef.name}: {e}", opdef.name)
    except Exception:  # noqa: BLE001 - the rule could not judge; use the kernel's error
        pass
    return kernel_error(opdef.name, inputs, error)


def is_tensor(x):
    return isinstance(x, Tensor)
