"""runtime's implementation of `autograph.backend.Backend`: converted code
meeting a runtime tensor while tracing calls these methods.

    if x > 0: ...        # x symbolic -> AutographBackend.cond -> runtime.cond
    for v in t: ...      # -> while_loop over an index, t[i] each step

Tensors count as "staged" values only while a graph is being traced (or when
symbolic); eagerly, converted code runs plain Python on eager tensors, as
TensorFlow's eager mode does.
"""

import numpy as np

from autograph.integration import Backend, register_backend

from runtime._src.core import dtypes
from runtime._src.function.control_flow import _static_truth, cond_branches
from runtime._src.function.control_flow import while_loop as _while_loop
from runtime._src.graph.graph import Graph, current_graph
from runtime._src.ops import array_ops, math_ops, reduction_ops
from runtime._src.ops.check_ops import Assert
from runtime._src.ops.script_ops import py_function
from runtime._src.core.tensor import (EagerTensor, SymbolicTensor, Tensor, convert_to_tensor,
                                      unwrap_variable)
from runtime._src.core.protocols import is_streamable, reads_as_tensor
from runtime._src.function.tensor_array import TensorArray

__all__ = ["AutographBackend", "BACKEND"]


class ListInLoop(TensorArray):
    """A Python list that a staged loop appends to, held as a TensorArray
    while the loop is traced; it reads like the list it stands for:

        lst[-1]        # the last element appended (read at size - 1)
    """

    def __getitem__(self, index):
        if isinstance(index, slice):
            raise TypeError("a list appended to in a tensor loop can be indexed with a "
                            "number (lst[i], lst[-1]) inside the loop, not sliced; slice it "
                            "after the loop, where it is a tensor")
        index = convert_to_tensor(unwrap_variable(index))
        size = self.size()
        return self.read(math_ops.where(index < 0, size + index, index))


def _index(lst, i):
    return lst[i] if isinstance(lst, ListInLoop) else lst.read(i)


def _truth(value):
    """Python truthiness as a bool tensor: a number is true when nonzero, a
    list appended to in a staged loop when it is not empty."""
    if value.__class__ is SymbolicTensor and value.dtype.is_bool and not value.shape.dims:
        return value                # a bool scalar (or of unknown rank): the commonest
    if isinstance(value, TensorArray):
        return math_ops.greater(value.size(), 0)
    value = unwrap_variable(value)
    if isinstance(value, Tensor) and value.shape.rank is not None and value.shape.rank > 0:
        raise TypeError(
            f"the truth value of a tensor of shape {value.shape} is ambiguous in a condition "
            f"(a list a tensor loop appended to is such a tensor after the loop: test "
            f"len(lst) > 0 instead); use tf.reduce_any / tf.reduce_all, or a scalar")
    if isinstance(value, Tensor) and not value.dtype.is_bool:
        if value.dtype.is_string:
            return math_ops.not_equal(value, "")
        return math_ops.not_equal(value, 0)
    return value


class AutographBackend(Backend):
    """Maps autograph's operators to runtime's cond / while_loop / ops."""

    def is_tensor(self, value):
        if isinstance(value, SymbolicTensor):
            return True
        if current_graph() is None:
            return False
        # A dataset (or its iterator) while tracing: `for x in ds` is staged.
        return isinstance(value, Tensor) or reads_as_tensor(value) or \
            is_streamable(value)

    def stream(self, iterable):
        """A dataset or iterator while tracing: `for` stages a loop over its
        iterator (runtime/_src/data/iterator_ops.py)."""
        make = getattr(iterable, "_autograph_stream", None)
        return None if make is None else make()

    def is_list(self, value):
        return isinstance(value, TensorArray)

    def static_truth(self, pred):
        if isinstance(unwrap_variable(pred), SymbolicTensor):
            return None                 # no test op made here: cond makes it once
        pred = _truth(pred)
        if isinstance(pred, SymbolicTensor):
            return None
        return _static_truth(pred, "cond")

    def cond(self, pred, branches, names):
        return cond_branches(_truth(pred), branches, tuple(names))

    def while_loop(self, cond_fn, body_fn, loop_vars, names, opts=None):
        def test(*loop_vars):
            return _truth(cond_fn(*loop_vars))
        opts = opts or {}
        return tuple(_while_loop(
            test, body_fn, tuple(loop_vars),
            shape_invariants=_positional_invariants(opts.get("shape_invariants"), loop_vars),
            parallel_iterations=opts.get("parallel_iterations", 10),
            swap_memory=opts.get("swap_memory", False),
            maximum_iterations=opts.get("maximum_iterations"), names=tuple(names)))

    def logical_not(self, x):
        return math_ops.logical_not(_truth(x))

    def len(self, x):
        if is_streamable(x) and hasattr(x, "__len__"):
            return len(x)               # a dataset's length (TypeError when unknown)
        x = unwrap_variable(x)
        if isinstance(x, TensorArray):      # a list being appended to in a tensor loop
            return x.size()
        dims = x.shape.dims
        if dims is None or not dims:
            if dims is not None:
                raise TypeError(f"len() of a scalar tensor ({x!r}) is not defined")
            return self.size0(x)
        return dims[0] if dims[0] is not None else self.size0(x)

    def size0(self, x):
        _refuse_stream(x)
        x = unwrap_variable(x)
        if isinstance(x, TensorArray):
            return x.size()
        if x.shape.rank == 0:
            raise TypeError(f"cannot iterate over a scalar tensor ({x!r})")
        return array_ops.shape(x)[0]

    def getitem(self, x, i):
        if isinstance(x, TensorArray):
            return _index(x, i)
        return unwrap_variable(x)[i]

    def sum0(self, x):
        if isinstance(x, TensorArray):
            x = x.stack()
        x = unwrap_variable(x)
        if x.shape.rank == 0:
            raise TypeError(f"sum() of a scalar tensor ({x!r}) is not defined: it is not "
                            f"iterable")
        return reduction_ops.reduce_sum(x, axis=0)

    def range(self, start, limit, delta):
        # Python's range is empty when start is past limit; tf.range raises.
        if isinstance(delta, (int, float)):
            clamp = math_ops.maximum if delta > 0 else math_ops.minimum
            start_t = convert_to_tensor(unwrap_variable(start))
            limit = clamp(convert_to_tensor(unwrap_variable(limit)), start_t)
        return array_ops.range(start, limit, delta)

    def cast(self, x, kind):
        return math_ops.cast(unwrap_variable(x), dtypes.int32 if kind == "int" else dtypes.float32)

    def reduce(self, kind, x):
        fn = reduction_ops.reduce_min if kind == "min" else reduction_ops.reduce_max
        return fn(unwrap_variable(x))

    def elementwise(self, kind, a, b):
        fn = math_ops.minimum if kind == "min" else math_ops.maximum
        return fn(unwrap_variable(a), unwrap_variable(b))

    def assert_(self, cond, message):
        return Assert(unwrap_variable(cond), [message])

    def print_(self, objects, kwargs):
        """TensorFlow's converted print (Feature.BUILTIN_FUNCTIONS): a
        py_function that prints the values with Python's print at every run
        (numpy values; strings decoded), flushing unless told otherwise."""
        slots = [i for i, o in enumerate(objects) if self.is_tensor(o)]
        kwargs = dict(kwargs)
        kwargs.setdefault("flush", True)

        def run(*values):
            out = list(objects)
            for i, v in zip(slots, values):
                v = v.numpy()
                if isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "SO":
                    v = v.item()
                out[i] = v.decode("utf-8") if isinstance(v, bytes) else v
            print(*out, **kwargs)
        py_function(run, [unwrap_variable(objects[i]) for i in slots], None)

    def new_list(self, items, like):
        sample = items[0] if items else like
        if sample is None:
            raise ValueError("cannot stage a loop appending to an empty list whose elements "
                             "are unknown")
        ta = ListInLoop(_element_dtype(sample), size=0, dynamic_size=True)
        for i, item in enumerate(items):
            ta = ta.write(i, item)
        return ta

    def list_append(self, lst, x):
        """`lst.append(x)`: a write at the end of a tensor list; on a tensor
        (a list a tensor loop appended to, stacked after it), a new tensor
        one row longer."""
        if isinstance(lst, TensorArray):
            return lst.write(lst.size(), x)
        lst = unwrap_variable(lst)
        if lst.shape.rank == 0:
            raise TypeError(f"cannot append to a scalar tensor ({lst!r}): it is not a list")
        row = array_ops.expand_dims(convert_to_tensor(unwrap_variable(x), lst.dtype), 0)
        return array_ops.concat([lst, row], 0)

    def list_stack(self, lst):
        return lst.stack()

    def probe(self, fn, args):
        """Trace `fn` once in a scratch graph; tensors and numbers among
        `args` become placeholders, as in a real loop body."""
        scratch = Graph("autograph_probe", outer=current_graph())
        with scratch.as_default():
            return fn(*[self._placeholder(scratch, a) for a in args])

    @staticmethod
    def _placeholder(graph, value):
        if isinstance(value, (bool, int, float, np.number, np.bool_)) or \
                (reads_as_tensor(value) and not isinstance(value, Tensor)):
            value = convert_to_tensor(unwrap_variable(value))
        if isinstance(value, Tensor):
            return graph.add_placeholder(value.dtype, value.shape, "probe")
        return value

    def dummy_like(self, value):
        if isinstance(value, (tuple, list)):        # `return a, b` in a loop
            return type(value)(self.dummy_like(v) for v in value)
        value = unwrap_variable(value)
        if isinstance(value, TensorArray):
            return TensorArray(value.dtype, size=0, dynamic_size=True)
        if not isinstance(value, Tensor):
            value = convert_to_tensor(value)
        dims = value.shape.dims or []
        shape = [0 if d is None else d for d in dims]
        return convert_to_tensor(np.zeros(shape, value.dtype.np_dtype))


def _refuse_stream(x):
    """enumerate() / zip() over a dataset inside a tf.function index it, which
    a dataset cannot be: say what to write instead."""
    if is_streamable(x):
        raise TypeError(
            "a tf.data dataset (or its iterator) cannot be indexed inside a tf.function: "
            "enumerate() and zip() over it are not staged; write `for i, x in "
            "ds.enumerate():` or `for a, b in tf.data.Dataset.zip((ds1, ds2)):`")


def _positional_invariants(pairs, loop_vars):
    """set_loop_options' `shape_invariants` (a list of `(loop variable,
    shape)` pairs) as one entry per loop variable, None where none is given.
    A pair whose value is not a loop variable of this loop is ignored, as in
    TensorFlow."""
    if pairs is None:
        return None
    try:
        pairs = [(value, shape) for value, shape in pairs]
    except (TypeError, ValueError):
        raise TypeError("set_loop_options: shape_invariants must be a list of (variable, "
                        f"shape) pairs, got {pairs!r}") from None
    return tuple(next((shape for value, shape in pairs if value is v), None)
                 for v in loop_vars)


def _element_dtype(sample):
    """The dtype of a tensor list whose elements are like `sample`: a tensor,
    a number, or a tuple / list of those (stacked into one tensor per
    element). Only dtypes are read: `sample` may come from another graph."""
    if isinstance(sample, (tuple, list)):
        kinds = {_element_dtype(v) for v in sample}
        reads = [unwrap_variable(v) for v in sample]
        tensors = {v.dtype for v in reads if isinstance(v, Tensor)}
        if len(tensors) == 1:
            return tensors.pop()       # numbers take the dtype of the tensors beside them
        if len(kinds) != 1:
            names = ", ".join(sorted(k.name for k in kinds))
            raise TypeError(f"the elements appended are {type(sample).__name__}s mixing "
                            f"{names}: a tensor list holds one dtype (use tf.cast)")
        return kinds.pop()
    sample = unwrap_variable(sample)
    if isinstance(sample, Tensor):
        return sample.dtype
    return convert_to_tensor(sample).dtype


BACKEND = AutographBackend()
register_backend(BACKEND)
