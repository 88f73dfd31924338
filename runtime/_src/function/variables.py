"""`Variable`: mutable state shared by eager code and every graph that uses it.

A Variable holds one numpy value. Graphs capture it *by reference*: reading it
while tracing adds a `ReadVariableOp` node whose attr is the Variable itself,
so every run of the graph sees the current value, and `assign*` adds a
side-effecting node that replaces the value when the graph runs. A value
handed out earlier never changes under its holder: `assign_add`/`assign_sub`
update the array in place only when nothing but the Variable refers to it
(`_sole_owner`: no tensor, numpy view, tape record or graph local holds it),
and otherwise store a new array.

    >>> v = Variable(1)
    >>> v.assign_add(2)
    <tf.Tensor: shape=(), dtype=int32, numpy=3>
    >>> v
    <tf.Variable 'Variable:0' shape=() dtype=int32, numpy=3>

A Variable created while a graph is traced is recorded on the outermost
graph's `.variables`, so the function layer can allow creation on the first
trace only, as TensorFlow does. Its initial value is computed at once when it
needs no input of the function; otherwise (`tf.Variable(x * 2.0)`) the
function layer computes it from the first call's arguments when the trace is
done (`lift_initializers`).
"""


import threading
import weakref

import numpy as np

from runtime._src.core.protocols import reads_as_tensor
from runtime._src.core import context as _context
from runtime._src.core import dtype_promotion as _dtype_promotion
from runtime._src.core import dtypes as _dtypes
from runtime._src.graph import graph as _graph
from runtime._src.core.devices import EAGER_DEVICE
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.core.tensor import (EagerTensor, SymbolicTensor, Tensor, _numpy_repr,
                                      _own_line, convert_to_tensor)
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.context import init_scope  # tf.init_scope
from runtime._src.function.variable_creator import VariableMeta
from runtime._src.function.variable_slices import SliceAssignMixin
from runtime._src.function.variable_sync import (VariableAggregation, VariableSynchronization,
                                                  sync_arguments)

__all__ = ["Variable", "init_scope", "lift_initializers", "VariableArgument",
           "route_variable_arguments"]


# --- ops -----------------------------------------------------------------------

def _infer_read(inputs, attrs):
    v = attrs["variable"]
    return [(v.dtype, v.shape)]


def _infer_write(inputs, attrs):
    v = attrs["variable"]
    value = inputs[0]
    v._check_spec(value.dtype, value.shape)
    return [(v.dtype, v.shape.merge_with(value.shape))]


# Set by tf.distribute while replicas run on threads (distribute/threaded.py):
# `replica_io(op, variable, value)` reads or writes a Variable for the
# calling thread's replica, or returns NotImplemented (not a replica's thread).
replica_io = None


@define_op("ReadVariableOp", infer=_infer_read, stateful=True)
def _read_variable(*, variable):
    if replica_io is not None:
        found = replica_io("ReadVariableOp", variable, None)
        if found is not NotImplemented:
            return found
    return variable._value


def _replica_write(op, variable, value):
    return NotImplemented if replica_io is None else replica_io(op, variable, value)


@define_op("AssignVariableOp", infer=_infer_write, side_effect=True)
def _assign_variable(value, *, variable):
    found = _replica_write("AssignVariableOp", variable, value)
    if found is not NotImplemented:
        return found
    variable._write(value.copy())
    return variable._value


@define_op("AssignAddVariableOp", infer=_infer_write, side_effect=True)
def _assign_add_variable(delta, *, variable):
    found = _replica_write("AssignAddVariableOp", variable, delta)
    return _update(np.add, variable, delta) if found is NotImplemented else found


@define_op("AssignSubVariableOp", infer=_infer_write, side_effect=True)
def _assign_sub_variable(delta, *, variable):
    found = _replica_write("AssignSubVariableOp", variable, delta)
    return _update(np.subtract, variable, delta) if found is NotImplemented else found


def _update(ufunc, variable, delta):
    """variable = ufunc(variable, delta): in place when no one else can see the
    old array (a training step's weight updates), else into a new array."""
    if _sole_owner(variable) and delta.dtype == variable._np_dtype \
            and delta.shape == variable._value.shape:
        ufunc(variable._value, delta, out=variable._value)
    else:
        variable._write(ufunc(variable._value, delta).astype(variable._np_dtype, copy=False))
    return variable._value


try:
    from sys import getrefcount as _getrefcount
except ImportError:                   # not CPython: no reference counts, never in place
    def _getrefcount(value):
        return 1 << 30


def _sole_owner(variable):
    """True when the Variable's array is referenced by the Variable alone: not by
    a tensor, a graph's local, a tape, the user or a numpy view (a view refers to
    its base), and it owns its writable memory, so updating it in place changes
    nothing anyone can observe."""
    value = variable._value
    # The references: the Variable's slot, `value` here, and getrefcount's argument.
    return (value.__class__ is np.ndarray and _getrefcount(value) <= 3
            and value.base is None and value.flags.writeable)


# Writes are not differentiable, as in TF (whose tape records only the reads):
# a gradient through an assignment's value is None.
not_differentiable("AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp")


class _AssignedValue(EagerTensor):
    """What an eager `assign`/`assign_add`/`assign_sub` returns: the value just
    written, shown as TF shows its `_UnreadVariable` result
    (`<tf.Variable 'UnreadVariable' shape=(3,) dtype=float32, numpy=...>`)."""

    __slots__ = ()

    def __repr__(self):
        return (f"<tf.Variable 'UnreadVariable' shape={self.shape} dtype={self.dtype.name}, "
                f"numpy={_own_line(_numpy_repr(self._value))}>")

    __str__ = __repr__


# --- the Variable class ----------------------------------------------------------

class Variable(SliceAssignMixin, metaclass=VariableMeta):   # v[0].assign(x): variable_slices.py
    """`tf.Variable(initial_value, trainable=None, validate_shape=True,
    caching_device=None, name=None, variable_def=None, dtype=None,
    import_scope=None, constraint=None, synchronization=AUTO, aggregation=NONE,
    shape=None)`, TF's arguments in TF's order.

    `shape` may be less specific than the initial value (e.g.
    `TensorShape([None])`) to allow later assignments of other shapes.
    `constraint` is kept for optimizers to apply after each update (as TF,
    `assign` does not apply it); `synchronization` and `aggregation` are kept
    for distribution strategies (variable_sync.py). `variable_def` and
    `import_scope` (TF1 graphs) are not supported.
    """

    _THROUGH_CREATORS = True   # tf.Variable(...) itself, not subclasses: variable_creator.py
    _CREATOR_DEFAULTS = {"synchronization": VariableSynchronization.AUTO,   # as TF passes them
                         "aggregation": VariableAggregation.NONE,
                         "experimental_enable_variable_lifting": None}
    __array_priority__ = 100  # numpy defers `ndarray + Variable` to Variable.__radd__
    _SHOWS_UNREAD = True      # eager assign results print as TF's UnreadVariable (not Keras's)

    def __init__(self, initial_value=None, trainable=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 import_scope=None, constraint=None, synchronization=None, aggregation=None,
                 shape=None, experimental_enable_variable_lifting=True):
        if initial_value is None:
            raise ValueError("Variable: initial_value must be specified")
        if variable_def is not None or import_scope is not None:
            raise ValueError("Variable: variable_def and import_scope (TF1 graph protocol "
                             "buffers) are not supported; pass an initial_value")
        if constraint is not None and not callable(constraint):
            raise ValueError(f"Argument `constraint` must be None or a callable. a callable. "
                             f"Got a {type(constraint)}:  {constraint}")
        trainable, self.synchronization, self.aggregation = sync_arguments(
            name, trainable, synchronization, aggregation)
        self.constraint = constraint
        value, self._initializer = _initial_numpy_value(initial_value, dtype)
        if self._initializer is not None:       # lifted once the trace is done
            self._dtype = self._initializer.dtype
            actual = self._initializer.shape
        else:
            self._dtype = (_dtypes.as_dtype(value.dtype) if dtype is None
                           else _dtypes.as_dtype(dtype))
            actual = TensorShape(np.shape(value))
        self._np_dtype = self._dtype.np_dtype
        self._shape = actual if shape is None else TensorShape(shape)
        if not self._shape.is_compatible_with(actual):
            raise ValueError(f"Variable: the initial value has shape {actual}, which is not "
                             f"compatible with the shape argument {self._shape}")
        self._value = value
        self._trainable = trainable
        name = name or "Variable"
        self._name = name[:-2] if name.endswith(":0") else name
        _record_creation(self)

    # --- properties ---------------------------------------------------------

    @property
    def dtype(self):
        return self._dtype

    @property
    def device(self):
        """TensorFlow's name of the one CPU, where the value lives."""
        return EAGER_DEVICE

    @property
    def shape(self):
        return self._shape

    def get_shape(self):
        return self._shape

    @property
    def ndim(self):
        return self._shape.rank

    @property
    def name(self):
        return f"{self._name}:0"

    @property
    def trainable(self):
        return self._trainable

    # --- reading ------------------------------------------------------------

    def _as_tensor(self):
        """The current value: an EagerTensor eagerly, a ReadVariableOp while tracing."""
        if _graph.current_graph() is None:
            t = EagerTensor(self._value, self._dtype)
            tapes = getattr(_context.state, "tapes", None)
            if tapes:                # gradient tapes recording (runtime/_src/autodiff)
                for tape in tapes:
                    tape.record_variable_read(self, t)
            return t
        return apply("ReadVariableOp", [], {"variable": self})

    def value(self):
        return self._as_tensor()

    def read_value(self):
        return self._as_tensor()

    def numpy(self):
        if _graph.current_graph() is not None:
            raise NotImplementedError(
                f"numpy() of Variable {self.name!r} is not available while tracing a graph: "
                "its value is only known when the graph runs. Use tf.print to see it.")
        v = self._value
        if isinstance(v, np.ndarray):
            return v[()] if v.ndim == 0 else v.copy()     # a scalar: a numpy scalar, as TF
        return v

    def __array__(self, dtype=None, copy=None):
        # A copy, as TensorFlow's: writing into np.asarray(v) leaves v alone.
        return np.array(self.numpy(), dtype=dtype, copy=True)

    # --- writing ------------------------------------------------------------

    def assign(self, value, use_locking=False, name=None, read_value=True):
        """Replace the value; returns the new value (None if read_value=False)."""
        return self._update("AssignVariableOp", value, read_value)

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        """Add `delta` to the value; returns the new value."""
        return self._update("AssignAddVariableOp", delta, read_value)

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        """Subtract `delta` from the value; returns the new value."""
        return self._update("AssignSubVariableOp", delta, read_value)

    def _update(self, op_name, value, read_value):
        if isinstance(value, Variable):
            value = value._as_tensor()
        if _dtype_promotion.mode() is not None:
            value = self._auto_converted(value)
        if not isinstance(value, Tensor):
            value = convert_to_tensor(value, self._dtype)
        if op_name != "AssignVariableOp" and _graph.current_graph() is None \
                and value.shape != self._shape and self._shape.is_fully_defined():
            # Eagerly, TF's update kernels refuse any other shape (no broadcasting).
            raise InvalidArgumentError(
                f"Cannot update variable with shape {list(self._shape.dims)} using a Tensor "
                f"with shape {list(value.shape.dims)}, shapes must be equal.", op_name)
        self._check_spec(value.dtype, value.shape)
        apply(op_name, [value], {"variable": self})
        # The result is a read of the Variable after the write, as TF's (so a
        # gradient through it reaches the Variable, not the value written).
        if not read_value:
            return None
        result = self._as_tensor()
        if self._SHOWS_UNREAD and result.__class__ is EagerTensor:
            result.__class__ = _AssignedValue      # the same tensor (the tape's), TF's repr
        return result

    def _auto_converted(self, value):
        """Under auto dtype conversion, a value that promotes to this
        variable's dtype, cast to it (TF: 'tf.Variable in-place ops allow
        implicit conversions'); one that promotes to another stays as it is
        and is refused below."""
        from runtime._src.ops.math_ops import cast
        from runtime._src.ops.weak_ops import operand_type
        if reads_as_tensor(value) and not isinstance(value, Tensor):
            kind = operand_type(value)
            value = value._as_tensor()
        else:
            kind = operand_type(value)
        if kind[0] is self._dtype:
            return value
        promoted, _ = _dtype_promotion.result_type((self._dtype, False), kind)
        if promoted is not self._dtype:
            return value
        return cast(value, self._dtype) if isinstance(value, Tensor) else \
            convert_to_tensor(value, self._dtype)

    def _check_spec(self, dtype, shape):
        """Raise TypeError/ValueError when a value cannot be written here."""
        if dtype != self._dtype:
            raise TypeError(f"Variable {self.name!r} has dtype {self._dtype.name}; cannot "
                            f"assign a {dtype.name} value. Use tf.cast to convert it.")
        if not self._shape.is_compatible_with(shape):
            # TensorFlow 2.21's words, its odd space and missing one included.
            raise ValueError(f"Cannot assign value to variable ' {self.name}': Shape mismatch."
                             f"The variable shape {self._shape}, and the assigned value "
                             f"shape {shape} are incompatible.")

    def _write(self, value):
        """Kernel side of an assignment: check the run-time value and store it."""
        if value.dtype != self._np_dtype:
            raise InvalidArgumentError(
                f"Variable {self.name!r} has dtype {self._dtype.name}; cannot assign a value "
                f"of numpy dtype {value.dtype}", "AssignVariableOp")
        if np.shape(value) != np.shape(self._value) \
                and not self._shape.is_compatible_with(np.shape(value)):
            raise InvalidArgumentError(
                f"Cannot assign to variable {self.name!r}: its shape {self._shape} and the "
                f"value's shape {TensorShape(np.shape(value))} are incompatible.",
                "AssignVariableOp")
        self._value = value

    # --- Python protocol ----------------------------------------------------

    def __repr__(self):
        if _graph.current_graph() is not None:
            return f"<tf.Variable '{self.name}' shape={self._shape} dtype={self._dtype.name}>"
        return (f"<tf.Variable '{self.name}' shape={self._shape} dtype={self._dtype.name}, "
                f"numpy={_own_line(_numpy_repr(self._value))}>")

    def __str__(self):
        return repr(self)

    def __hash__(self):
        raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key.")

    def ref(self):
        return _VariableRef(self)

    def __bool__(self): return bool(self._as_tensor())
    def __int__(self): return int(self._as_tensor())
    def __float__(self): return float(self._as_tensor())
    def __index__(self): return self._as_tensor().__index__()
    def __len__(self): return len(self._as_tensor())
    def __iter__(self): return iter(self._as_tensor())

    # Python operators: the same as on the current value (a tensor).
    def __add__(self, other): return self._as_tensor().__add__(other)
    def __radd__(self, other): return self._as_tensor().__radd__(other)
    def __sub__(self, other): return self._as_tensor().__sub__(other)
    def __rsub__(self, other): return self._as_tensor().__rsub__(other)
    def __mul__(self, other): return self._as_tensor().__mul__(other)
    def __rmul__(self, other): return self._as_tensor().__rmul__(other)
    def __truediv__(self, other): return self._as_tensor().__truediv__(other)
    def __rtruediv__(self, other): return self._as_tensor().__rtruediv__(other)
    def __floordiv__(self, other): return self._as_tensor().__floordiv__(other)
    def __rfloordiv__(self, other): return self._as_tensor().__rfloordiv__(other)
    def __mod__(self, other): return self._as_tensor().__mod__(other)
    def __rmod__(self, other): return self._as_tensor().__rmod__(other)
    def __pow__(self, other): return self._as_tensor().__pow__(other)
    def __rpow__(self, other): return self._as_tensor().__rpow__(other)
    def __matmul__(self, other): return self._as_tensor().__matmul__(other)
    def __rmatmul__(self, other): return self._as_tensor().__rmatmul__(other)
    def __neg__(self): return self._as_tensor().__neg__()
    def __pos__(self): return self._as_tensor()
    def __abs__(self): return self._as_tensor().__abs__()
    def __lt__(self, other): return self._as_tensor().__lt__(other)
    def __le__(self, other): return self._as_tensor().__le__(other)
    def __gt__(self, other): return self._as_tensor().__gt__(other)
    def __ge__(self, other): return self._as_tensor().__ge__(other)
    def __eq__(self, other): return self._as_tensor().__eq__(other)
    def __ne__(self, other): return self._as_tensor().__ne__(other)
    def __and__(self, other): return self._as_tensor().__and__(other)
    def __rand__(self, other): return self._as_tensor().__rand__(other)
    def __or__(self, other): return self._as_tensor().__or__(other)
    def __ror__(self, other): return self._as_tensor().__ror__(other)
    def __invert__(self): return self._as_tensor().__invert__()
    def __xor__(self, other): return self._as_tensor().__xor__(other)
    def __rxor__(self, other): return self._as_tensor().__rxor__(other)
    def __lshift__(self, other): return self._as_tensor().__lshift__(other)
    def __rlshift__(self, other): return self._as_tensor().__rlshift__(other)
    def __rshift__(self, other): return self._as_tensor().__rshift__(other)
    def __rrshift__(self, other): return self._as_tensor().__rrshift__(other)


class ResourceVariable(Variable):
    """The class of what `tf.Variable(...)` makes, as in TF (whose variables are
    resource variables): `type(tf.Variable(1.0)).__name__` is 'ResourceVariable'."""


Variable._MAKES = ResourceVariable


class _VariableRef:
    """A hashable reference to a Variable (`variable.ref()`)."""

    __slots__ = ("_variable",)

    def __init__(self, variable):
        self._variable = variable

    def deref(self):
        return self._variable

    def __hash__(self):
        return id(self._variable)

    def __eq__(self, other):
        return isinstance(other, _VariableRef) and other._variable is self._variable


class VariableArgument(Variable):
    """A Variable argument's place in a traced graph (TensorFlow feeds a
    VariableSpec input a variable handle).

    A function is traced with the Variable it was called with (so `v is a`
    holds while tracing, as in TensorFlow); then the graph's reads and writes
    of that Variable are routed through this slot (`route_variable_arguments`),
    and each call binds the slot to the Variable it was given, on the calling
    thread. So one trace serves every Variable of the same dtype, shape and
    trainability. Unbound, the slot is the Variable it was traced with.
    """

    def __init__(self, traced):           # no Variable.__init__: nothing is created
        self._traced = weakref.ref(traced)
        self._dtype, self._np_dtype = traced._dtype, traced._np_dtype
        self._shape, self._trainable = traced._shape, traced._trainable
        self._name, self._initializer = traced._name, None
        self.constraint = traced.constraint
        self.synchronization, self.aggregation = traced.synchronization, traced.aggregation
        self._local = threading.local()

    @property
    def _value(self):
        return self._target()._value

    def _write(self, value):
        self._target()._write(value)

    def _target(self):
        variable = getattr(self._local, "variable", None)
        if variable is None:
            variable = self._traced()
        if variable is None:
            raise ReferenceError(f"the Variable {self._name!r} a function was traced with "
                                 "has been garbage collected and no Variable was passed")
        return variable

    def bind(self, variable):
        """Route this thread's reads and writes to `variable`; returns the
        previous binding (for `bind(previous)` afterwards)."""
        previous = getattr(self._local, "variable", None)
        self._local.variable = variable
        return previous


def route_variable_arguments(graph, variables):
    """Route the reads and writes of `variables` (a call's Variable
    arguments) in `graph` and its subgraphs through one `VariableArgument`
    each; returns the slots, in the order of `variables`."""
    slots = {}
    for v in variables:
        slots.setdefault(id(v), VariableArgument(v))
    _route(graph, slots)
    return [slots[id(v)] for v in variables]


def _route(graph, slots):
    for node in graph.nodes:
        variable = node.attrs.get("variable")
        if variable is not None and id(variable) in slots:
            node.attrs["variable"] = slots[id(variable)]
        for sub in node.subgraph_list():
            _route(sub, slots)


# --- helpers ------------------------------------------------------------------------

def _initial_numpy_value(initial_value, dtype):
    """(numpy value, None) of an initial value, computed eagerly even while
    tracing; or (None, symbolic tensor) when the value depends on an input of
    the function being traced: `lift_initializers` computes it from the
    call's arguments once the trace is done (as TensorFlow lifts it)."""
    with init_scope():
        if callable(initial_value) and not isinstance(initial_value, (Tensor, Variable)):
            initial_value = initial_value()
        if isinstance(initial_value, Variable):
            initial_value = initial_value._as_tensor()
        if isinstance(initial_value, SymbolicTensor):
            try:
                initial_value = EagerTensor(_evaluate(initial_value, {}), initial_value.dtype)
            except _NeedsInput:
                return None, _pending(initial_value, dtype)
        tensor = convert_to_tensor(initial_value, dtype)
    value = tensor._value
    return (value.copy() if isinstance(value, np.ndarray) else value), None


def _pending(initial_value, dtype):
    if dtype is not None and _dtypes.as_dtype(dtype) != initial_value.dtype:
        raise TypeError(f"Variable: the initial value is a {initial_value.dtype.name} tensor "
                        f"but dtype={_dtypes.as_dtype(dtype).name}; use tf.cast")
    return initial_value


class _NeedsInput(Exception):
    """An initializer needs the value of `placeholder`, which is not known."""

    def __init__(self, placeholder):
        super().__init__(placeholder.name)
        self.placeholder = placeholder


# Ops that read only the static shape of their input (when it is fully known).
_SHAPE_ONLY = frozenset({"Shape", "Size", "Rank", "ZerosLike", "OnesLike"})


def _evaluate(t, known):
    """The value of the symbolic tensor `t`, running only the nodes it needs
    (across nested graphs: a captured placeholder stands for its outer
    tensor). `known`: {id(placeholder tensor): numpy value}. An input
    `Shape` or `ZerosLike` reads only for its fully known static shape is not
    needed. Raises _NeedsInput for another placeholder.
    """
    values, stack = {}, [(t, False)]
    while stack:
        tensor, ready = stack.pop()
        if id(tensor) in values:
            continue
        node = tensor.node
        if node.op == "Placeholder":
            if id(tensor) in known:
                values[id(tensor)] = known[id(tensor)]
                continue
            outer = next((o for o, inner in node.graph.captures if inner is tensor), None)
            if outer is None:
                raise _NeedsInput(tensor)
            if ready:
                values[id(tensor)] = values[id(outer)]
            else:
                stack += [(tensor, True), (outer, False)]
            continue
        needed = [i for i in node.inputs
                  if node.op not in _SHAPE_ONLY or not i.shape.is_fully_defined()]
        if not ready:
            stack.append((tensor, True))
            stack.extend((i, False) for i in needed)
            continue
        args = [values[id(i)] if id(i) in values
                else np.zeros(i.shape.as_list(), i.dtype.np_dtype) for i in node.inputs]
        out = node.opdef.kernel(*args, **node.attrs)
        for o, v in zip(node.outputs, (out,) if node.opdef.num_outputs == 1 else out):
            values[id(o)] = v
    return values[id(t)]


def lift_initializers(graph, feeds, where):
    """Give the Variables created while tracing `graph` whose initial value
    depends on its inputs their value, computed from `feeds` (the numpy
    value of each of `graph.inputs`; None when tracing from TensorSpecs).

    This is TensorFlow's lifting of a variable initializer out of the
    function: `self.v = tf.Variable(tf.ones_like(x) * 2.0)` on the first
    call makes a Variable initialized from that call's `x`, which later
    calls read and write. Without values only what needs no input's value
    (e.g. `ones_like` of a fully known shape) can be lifted.
    """
    known = {} if feeds is None else {id(p): v for p, v in zip(graph.inputs, feeds)
                                      if v is not None}
    for variable in graph.variables:
        pending = variable._initializer
        if pending is None:
            continue
        try:
            value = _evaluate(pending, known)
        except _NeedsInput as e:
            name = e.placeholder.node.name
            if not any(e.placeholder is p for p in graph.inputs):
                raise ValueError(
                    f"{where}: the initial value of Variable {variable.name!r} depends on "
                    f"{name!r}, a value of a staged loop or branch, which cannot be lifted out "
                    "of the function. Create the Variable outside the loop or branch."
                ) from None
            raise ValueError(
                f"{where}: the initial value of Variable {variable.name!r} depends on the value "
                f"of the input {name!r}, which is not known when tracing from a TensorSpec. "
                "Call the function with a tensor first (the first call initializes the "
                "Variable), or create the Variable outside the function.") from None
        variable._initializer = None
        variable._value = np.asarray(value, variable._np_dtype)


def _record_creation(variable):
    """Append `variable` to the outermost graph being traced, if any."""
    g = _graph.current_graph()
    if g is None:
        return
    while g.outer is not None:
        g = g.outer
    g.variables.append(variable)
