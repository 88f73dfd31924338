"""Small everyday ops: `ensure_shape`, `identity_n`, `get_static_value`,
`control_dependencies`, `timestamp`, `histogram_fixed_width(_bins)`.

    ensure_shape(x, [None, 3])   # x, its static shape refined to (?, 3); a run
                                 # whose x is not [?, 3] is InvalidArgumentError
    get_static_value(t)          # t's numpy value if known while tracing, else None

`group(*inputs)` and `no_op()` are a `NoOp` node in a graph (an operation,
which runs when the graph does, like every side effect) and None eagerly;
`tuple(tensors)` gives the tensors back once all of them are computed.

`control_dependencies(inputs)` makes the ops created in its scope wait for
`inputs` in a graph. Our graphs already run every side effect (assign,
print, assert, ...) in program order, so what the scope adds is the running
of `inputs` themselves: entering it stages a side-effecting `ControlGate` on
them, which runs (and so computes them, raising their errors) before any op
made later; eagerly the scope does nothing, as TensorFlow's.
"""

import contextlib
import time

import numpy as np

from runtime._src.core import dtypes, nest
from runtime._src.core.context import current_graph
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.graph.graph import Node
from runtime._src.graph.op_registry import (apply, define_grad, define_op, get_op,
                                            not_differentiable)
from runtime._src.ops import shape_rules as rules
from runtime._src.ops import array_ops, math_ops
from runtime._src.ops.math_ops import identity

__all__ = ["ensure_shape", "identity_n", "get_static_value", "control_dependencies",
           "group", "no_op", "tuple_", "guarantee_const", "timestamp",
           "histogram_fixed_width", "histogram_fixed_width_bins"]


def _shape_text(dims):
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def _infer_ensure(inputs, attrs):
    have, want = inputs[0].shape, attrs["shape"]
    if not have.is_compatible_with(want):
        raise ValueError(f"Shape of tensor {have} is not compatible with the expected shape "
                         f"{want} (ensure_shape)")
    return [(inputs[0].dtype, have.merge_with(want) if want.rank is not None else have)]


@define_op("EnsureShape", infer=_infer_ensure)
def _ensure_shape(x, *, shape, label):
    if not shape.is_compatible_with(np.shape(x)):
        raise InvalidArgumentError(
            f"Shape of tensor {label} {_shape_text(np.shape(x))} is not compatible with "
            f"expected shape {_shape_text(shape.dims)}.", "EnsureShape")
    return x


@define_grad("EnsureShape")
def _ensure_shape_grad(op, grad):
    return [grad]


def ensure_shape(x, shape, name=None):
    """`tf.ensure_shape`: x, checked (when it runs) to have a shape compatible
    with `shape` (None for an unknown dimension); the static shape is refined."""
    x = convert_to_tensor(x._as_tensor() if reads_as_tensor(x) else x)
    shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
    label = "x" if current_graph() is not None else "input"
    return apply("EnsureShape", [x], {"shape": shape, "label": label})


def identity_n(input, name=None):  # TensorFlow's name
    """`tf.identity_n`: a list of identities of the tensors in `input`."""
    return [identity(t) for t in input]


def get_static_value(tensor, partial=False):
    """`tf.get_static_value`: the numpy value of `tensor` if it is known without
    running a graph (an eager tensor, a constant, a known shape), else None.
    A non-tensor is returned as it is (as TF)."""
    if reads_as_tensor(tensor) and not isinstance(tensor, Tensor):
        if current_graph() is not None:
            return None
        tensor = tensor._as_tensor()
    if not isinstance(tensor, Tensor):
        return tensor
    value = rules.constant_value(tensor)
    return None if value is None else np.array(value)


@define_op("ControlGate", infer=lambda inputs, attrs: [], side_effect=True, num_outputs=0)
def _control_gate(*values):
    return ()


not_differentiable("ControlGate")


@contextlib.contextmanager
def control_dependencies(control_inputs):
    """`tf.control_dependencies`: ops made in the scope run after
    `control_inputs` (tensors, variables, or None entries, which are skipped)."""
    if control_inputs is not None and current_graph() is not None:
        tensors = []
        for c in control_inputs:
            if isinstance(c, Node):          # an operation (tf.group): it runs anyway
                continue
            if c is None or callable(c) and not isinstance(c, Tensor) \
                    and not reads_as_tensor(c):
                continue
            tensors.append(convert_to_tensor(c._as_tensor() if reads_as_tensor(c) else c))
        if tensors:
            apply("ControlGate", tensors)
    yield


@define_op("NoOp", infer=lambda inputs, attrs: [], side_effect=True, num_outputs=0)
def _no_op(*values):
    return ()


not_differentiable("NoOp")


def _operation(inputs):
    """A NoOp node on `inputs` in the graph being traced; None eagerly."""
    graph = current_graph()
    if graph is None:
        return None
    tensors = [convert_to_tensor(t._as_tensor() if reads_as_tensor(t) else t)
               for t in inputs if t is not None and not isinstance(t, Node)]
    return graph.add_node(get_op("NoOp"), tensors, {})


def group(*inputs, name=None):
    """`tf.group`: one operation that runs once all of `inputs` have (an
    operation in a graph, None eagerly, as TF's)."""
    return _operation(nest.flatten(list(inputs)))


def no_op(name=None):
    """`tf.no_op`: an operation that does nothing (None eagerly)."""
    return _operation([])


def tuple_(tensors, control_inputs=None, name=None):   # tf.tuple
    """`tf.tuple`: the same tensors, as a list, each available once all of
    them (and `control_inputs`) are computed."""
    if control_inputs is not None and current_graph() is not None:
        _operation(list(control_inputs))
    return [None if t is None else identity(t) for t in tensors]


def guarantee_const(input, name=None):  # TensorFlow's name
    """`tf.guarantee_const` (deprecated in TF): the input, unchanged."""
    return identity(input)


# --- timestamp -------------------------------------------------------------------

@define_op("Timestamp", infer=lambda inputs, attrs: [(dtypes.float64, TensorShape([]))],
           stateful=True)
def _timestamp():
    return np.float64(time.time())


not_differentiable("Timestamp")


def timestamp(name=None):
    """Seconds since the epoch as a float64 scalar, read when the op runs
    (each call of a graph reads the clock again)."""
    return apply("Timestamp", ())


# --- histograms ------------------------------------------------------------------

def _bins(values, lo, hi, nbins):
    """Each value's bin among `nbins` equal ones over [lo, hi), computed in
    float64 as TF's kernel; values outside go to the first or last bin."""
    step = (np.float64(hi) - np.float64(lo)) / nbins
    with np.errstate(invalid="ignore", divide="ignore"):
        index = np.floor((values.astype(np.float64) - np.float64(lo)) / step)
    return np.clip(np.nan_to_num(index, nan=0.0), 0, nbins - 1).astype(np.int64)


def _infer_histogram(inputs, attrs):
    return [(attrs["dtype"], TensorShape([attrs["nbins"]]))]


@define_op("HistogramFixedWidth", infer=_infer_histogram)
def _histogram(values, value_range, *, nbins, dtype):
    counts = np.bincount(_bins(values.ravel(), value_range[0], value_range[1], nbins).ravel(),
                         minlength=nbins)
    return counts.astype(dtype.np_dtype)


not_differentiable("HistogramFixedWidth")


def _histogram_args(values, value_range, nbins, what):
    values = convert_to_tensor(values)
    value_range = convert_to_tensor(value_range, values.dtype)
    nbins = int(rules.static_value(nbins, what, "nbins") if isinstance(nbins, Tensor)
                else nbins)
    if nbins <= 0:
        raise InvalidArgumentError(f"{what}: nbins should be a positive number, but got "
                                   f"'{nbins}'", what)
    return values, value_range, nbins


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """How many of `values` fall in each of `nbins` equal bins over
    `value_range` = [lo, hi]; values below lo count in the first bin, values
    at or above hi in the last."""
    values, value_range, nbins = _histogram_args(values, value_range, nbins,
                                                 "HistogramFixedWidth")
    return apply("HistogramFixedWidth", (values, value_range),
                 {"nbins": nbins, "dtype": dtypes.as_dtype(dtype)})


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """The bin of each of `values` (int32, in `values`' shape), by TF's
    formula: floor(nbins * (v - lo) / (hi - lo)), clipped to the bins."""
    values, value_range, nbins = _histogram_args(values, value_range, nbins,
                                                 "histogram_fixed_width_bins")
    flat = array_ops.reshape(values, [-1])
    scaled = math_ops.truediv(math_ops.subtract(flat, value_range[0]),
                              math_ops.subtract(value_range[1], value_range[0]))
    index = math_ops.floor(math_ops.multiply(math_ops.cast(nbins, scaled.dtype), scaled))
    index = math_ops.clip_by_value(index, 0, nbins - 1)
    return array_ops.reshape(math_ops.cast(index, dtypes.int32), array_ops.shape(values))
