"""Tensors: `EagerTensor` holds a numpy value; `SymbolicTensor` is an output of
a graph node while tracing. Both share `Tensor`'s Python operators, which call
the ops through `dispatch`, a table the ops layer fills in.

    >>> t = EagerTensor(np.array([1, 2], np.int32))
    >>> print(t)
    tf.Tensor([1 2], shape=(2,), dtype=int32)
"""

import types
from typing import Any, Sequence

import numpy as np

from runtime._src.core import dtype_promotion as _promotion
from runtime._src.core import dtypes as _dtypes
from runtime._src.core import tensor_conversion as _conversion
from runtime._src.core.composite import is_composite
from runtime._src.core.context import current_graph
from runtime._src.core.devices import EAGER_DEVICE
from runtime._src.core.dlpack_capsule import array_capsule
from runtime._src.core.errors import InvalidArgumentError, OperatorNotAllowedInGraphError
from runtime._src.core.tensor_shape import TensorShape, as_shape
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.core.type_spec import TypeSpec

__all__ = ["Tensor", "TensorSpec", "EagerTensor", "SymbolicTensor", "VariantValue", "wrap_numpy",
           "convert_to_tensor", "format_value", "is_tensor_like", "unwrap_variable",
           "dispatch", "DISPATCHED", "is_symbolic_tensor"]

# The ops behind tensors' Python operators (`a + b` is `dispatch.add(a, b)`),
# and `dispatch.stack_nested` for `convert_to_tensor([t1, t2])`. The ops layer
# sets each of these names when it is imported (see ops/__init__.py), so this
# layer does not import the ops.
DISPATCHED = ("add", "subtract", "multiply", "truediv", "floordiv", "floormod", "pow",
              "matmul", "negative", "abs", "less", "less_equal", "greater",
              "greater_equal", "equal", "not_equal", "and_", "or_", "xor_", "invert_",
              "left_shift", "right_shift", "getitem", "stack_nested")
dispatch = types.SimpleNamespace()


_LIST_NOTE = ("A Python list that a tensor loop appended to is a tensor after the loop (its "
              "elements stacked along the first axis): append and extend still work on it, "
              "other list methods and item assignment do not.")


def describe_value(value):
    """A short description of a Python value for messages: a function by its
    name (not the qualified name of the generated code it lives in), other
    values by a repr cut to 80 characters."""
    if isinstance(value, (types.FunctionType, types.MethodType)):
        return f"<function {value.__name__}>"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _user_location():
    """' (file:line: text)' of the user's code running now, or ''."""
    from autograph import integration as ag
    return ag.describe(ag.current_location(3))


class _NotAListMethod:
    """A list method tensors lack: reading it raises AttributeError saying
    what a list appended to in a tensor loop became."""

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, objtype=None):
        raise AttributeError(f"a tensor has no method '{self.name}'{_user_location()}. "
                             f"{_LIST_NOTE}")


def _reflected(other, tensor):
    """The left operand of a reflected operator (`np.int8(1) - t`): a numpy scalar
    or 0-d array takes the tensor's dtype first, as TF's operators convert it
    (passed on as it is, its own dtype would fix the op's, as in
    `tf.subtract(np.int8(1), t)`, which fails). Under NumPy behaviour the
    promotion rules decide instead."""
    if isinstance(other, (np.generic, np.ndarray)) and np.ndim(other) == 0 \
            and other.dtype.kind in "biufc" and not _promotion.numpy_behavior():
        return convert_to_tensor(other, tensor.dtype)
    return other


class Tensor:
    """Base class of eager and symbolic tensors (`tf.Tensor`)."""

    __slots__ = ()
    __array_priority__ = 100  # numpy defers `ndarray + Tensor` to Tensor.__radd__

    # Python operators. Each calls the op of the same meaning through `dispatch`.
    def __add__(self, other): return dispatch.add(self, other)
    def __radd__(self, other): return dispatch.add(_reflected(other, self), self)
    def __sub__(self, other): return dispatch.subtract(self, other)
    def __rsub__(self, other): return dispatch.subtract(_reflected(other, self), self)
    def __mul__(self, other): return dispatch.multiply(self, other)
    def __rmul__(self, other): return dispatch.multiply(_reflected(other, self), self)
    def __truediv__(self, other): return dispatch.truediv(self, other)
    def __rtruediv__(self, other): return dispatch.truediv(_reflected(other, self), self)
    def __floordiv__(self, other): return dispatch.floordiv(self, other)
    def __rfloordiv__(self, other): return dispatch.floordiv(_reflected(other, self), self)
    def __mod__(self, other): return dispatch.floormod(self, other)
    def __rmod__(self, other): return dispatch.floormod(_reflected(other, self), self)
    def __pow__(self, other): return dispatch.pow(self, other)
    def __rpow__(self, other): return dispatch.pow(_reflected(other, self), self)
    def __matmul__(self, other): return dispatch.matmul(self, other)
    def __rmatmul__(self, other): return dispatch.matmul(_reflected(other, self), self)
    def __neg__(self): return dispatch.negative(self)
    def __pos__(self): return self
    def __abs__(self): return dispatch.abs(self)
    def __lt__(self, other): return dispatch.less(self, other)
    def __le__(self, other): return dispatch.less_equal(self, other)
    def __gt__(self, other): return dispatch.greater(self, other)
    def __ge__(self, other): return dispatch.greater_equal(self, other)
    def __eq__(self, other): return dispatch.equal(self, other)
    def __ne__(self, other): return dispatch.not_equal(self, other)
    # Logical on bool tensors, bitwise on integer ones (runtime._src.ops.bitwise_ops).
    def __and__(self, other): return dispatch.and_(self, other)
    def __rand__(self, other): return dispatch.and_(_reflected(other, self), self)
    def __or__(self, other): return dispatch.or_(self, other)
    def __ror__(self, other): return dispatch.or_(_reflected(other, self), self)
    def __xor__(self, other): return dispatch.xor_(self, other)
    def __rxor__(self, other): return dispatch.xor_(_reflected(other, self), self)
    def __invert__(self): return dispatch.invert_(self)
    def __lshift__(self, other): return dispatch.left_shift(self, other)
    def __rlshift__(self, other): return dispatch.left_shift(_reflected(other, self), self)
    def __rshift__(self, other): return dispatch.right_shift(self, other)
    def __rrshift__(self, other): return dispatch.right_shift(_reflected(other, self), self)
    def __getitem__(self, key): return dispatch.getitem(self, key)

    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def __setitem__(self, key, value):
        raise TypeError(
            f"a tensor is immutable: item assignment is not supported{_user_location()}. "
            f"Build a new tensor (tf.tensor_scatter_nd_update, tf.where, tf.concat). "
            f"{_LIST_NOTE}")

    # Python list methods a tensor does not have (reading one raises
    # AttributeError with a hint; hasattr() stays False). A descriptor per
    # name, not __getattr__, which would slow every attribute read.
    insert = _NotAListMethod()
    pop = _NotAListMethod()
    remove = _NotAListMethod()
    sort = _NotAListMethod()
    reverse = _NotAListMethod()
    clear = _NotAListMethod()
    index = _NotAListMethod()
    count = _NotAListMethod()

    def ref(self):
        return _TensorRef(self)

    @property
    def ndim(self):
        return self.shape.rank

    def get_shape(self):
        return self.shape

    def set_shape(self, shape):
        """`Tensor.set_shape`: a symbolic tensor's static shape merged with
        `shape`; an eager tensor's shape is only checked against it."""
        from runtime._src.core.tensor_shape import as_shape
        shape = as_shape(shape)
        if isinstance(self, SymbolicTensor):
            self.shape = _merged_shapes(self.shape, shape)
        elif not self.shape.is_compatible_with(shape):
            raise ValueError(f"Tensor's shape {self.shape} is not compatible with supplied "
                             f"shape {shape}.")


class _TensorRef:
    """A hashable reference to a tensor (`tensor.ref()`)."""

    __slots__ = ("_tensor",)

    def __init__(self, tensor):
        self._tensor = tensor

    def deref(self):
        return self._tensor

    def __hash__(self):
        return id(self._tensor)

    def __eq__(self, other):
        return isinstance(other, _TensorRef) and other._tensor is self._tensor


class EagerTensor(Tensor):
    """A tensor with a concrete numpy value. `_keras_logits` (unset unless a
    Keras sigmoid/softmax made it) holds the logits behind it, as TF's
    tensors carry them for Keras 3's cross-entropies; `_keras_mask` (unset
    unless a masking Keras layer made it) its Keras mask, as on TF's."""

    __slots__ = ("_value", "dtype", "_keras_logits", "_keras_mask")

    def __init__(self, value, dtype=None):
        self._value = value
        self.dtype = dtype if dtype is not None else _dtypes.as_dtype(value.dtype)

    @property
    def shape(self):
        return TensorShape(np.shape(self._value))

    @property
    def device(self):
        """Where the value lives: TensorFlow's name of the one CPU."""
        return EAGER_DEVICE

    def numpy(self):
        """A copy of the value: an ndarray, or for a scalar a numpy scalar
        (np.float32(1.0), b'a'), as TensorFlow returns."""
        v = self._value
        if isinstance(v, np.ndarray):
            return v[()] if v.ndim == 0 else v.copy()
        return v

    def __array__(self, dtype=None, copy=None):
        # As TensorFlow: np.asarray(t) shares t's memory read-only (t.numpy() copies),
        # so writing into it cannot change the tensor, or a Variable it was read from.
        if copy or (dtype is not None and np.dtype(dtype) != np.asarray(self._value).dtype):
            return np.array(self._value, dtype=dtype, copy=True)
        a = np.asarray(self._value).view()
        a.flags.writeable = False
        return a

    def __dlpack__(self, stream=None, **kwargs):
        """The DLPack capsule of this tensor's memory (tf.experimental.dlpack:
        core/dlpack.py), for `np.from_dlpack(t)` and other frameworks."""
        try:
            return array_capsule(np.asarray(self._value), **kwargs)
        except (BufferError, TypeError) as e:
            raise InvalidArgumentError(f"a {self.dtype.name} tensor cannot be exchanged "
                                       f"through DLPack: {e}") from None

    def __dlpack_device__(self):
        return (1, 0)          # DLPack's CPU, device 0

    def __bool__(self):
        return bool(self._value)

    def __int__(self):
        return int(self._value)

    def __float__(self):
        return float(self._value)

    def __index__(self):
        if not self.dtype.is_integer:
            raise TypeError(f"only integer tensors can be used as an index, got {self.dtype.name}")
        return int(self._value)

    def __len__(self):
        if np.ndim(self._value) == 0:
            raise TypeError("len() of a scalar tensor")
        return len(self._value)

    def __iter__(self):
        if np.ndim(self._value) == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (wrap_numpy(v) for v in self._value)

    def __format__(self, spec):
        # TensorFlow 2.21: format(t, spec) formats the numpy value, so f"{t}" of
        # a float32 scalar is "3.141590118408203" and of a vector "[1.5 2.5]".
        value = self._value
        if self.dtype.is_string:
            value = _as_bytes_array(value)
        return format(value, spec)

    def __str__(self):
        return (f"tf.Tensor({_own_line(format_value(self._value, self.dtype))}, "
                f"shape={self.shape}, dtype={self.dtype.name})")

    def __repr__(self):
        return (f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, "
                f"numpy={_own_line(_numpy_repr(self._value))}>")


class SymbolicTensor(Tensor):
    """An output of a graph node; it has a static dtype and a (partial) shape
    (and `_keras_logits` and `_keras_mask` as EagerTensor)."""

    __slots__ = ("node", "index", "dtype", "shape", "_keras_logits", "_keras_mask")

    def __init__(self, node, index, dtype, shape):
        self.node = node
        self.index = index
        self.dtype = dtype
        self.shape = shape

    @property
    def device(self):
        """"" as TensorFlow's graph tensors outside a `tf.device` scope (we
        place nothing)."""
        return ""

    @property
    def graph(self):
        return self.node.graph

    @property
    def name(self):
        return f"{self.node.name}:{self.index}"

    @property
    def op(self):
        return self.node

    def _not_allowed(self, what):
        return OperatorNotAllowedInGraphError(
            f"{what} a symbolic tf.Tensor ({self.name}) is not allowed in a graph: "
            "its value is only known when the graph runs. Use autograph "
            "(function(autograph=True), the default) to convert Python control "
            "flow, or write it with tf.cond / tf.while_loop.")

    def __bool__(self):
        raise self._not_allowed("Using")

    def __iter__(self):
        raise self._not_allowed("Iterating over")

    def __len__(self):
        dims = self.shape.dims
        if dims is None or not dims or dims[0] is None:
            raise TypeError(f"len() of {self!r} is not known while tracing; "
                            "use tf.shape(x)[0]")
        return dims[0]

    def __index__(self):
        raise self._not_allowed("Using as a Python index")

    @property
    def numpy(self):
        # TensorFlow 2.21 raises AttributeError ('SymbolicTensor' object has no
        # attribute 'numpy'), so hasattr(t, "numpy") is False while tracing.
        # Its message is TF's; what to do instead is a note (in tracebacks).
        error = AttributeError("'SymbolicTensor' object has no attribute 'numpy'")
        error.add_note(f"numpy() is only available for eager tensors; {self.name} is "
                       "symbolic (inside a traced function). Use tf.print to see its "
                       "value at run time.")
        raise error

    def __array__(self, dtype=None, copy=None):
        raise TypeError(f"Cannot convert a symbolic tf.Tensor ({self.name}) to a numpy "
                        "array: its value is only known when the graph runs.")

    def __repr__(self):
        if self.shape.dims is None:          # TensorFlow 2.21 leaves an unknown shape out
            return f'Tensor("{self.name}", dtype={self.dtype.name})'
        return f'Tensor("{self.name}", shape={self.shape}, dtype={self.dtype.name})'

    __str__ = __repr__


def _merged_shapes(have, given):
    """`have` merged with `given`, or TF's ValueError naming the clashing dimension."""
    if have.dims is not None and given.dims is not None:
        if len(have.dims) != len(given.dims):
            raise ValueError(f"Shapes must be equal rank, but are {len(have.dims)} and "
                             f"{len(given.dims)}")
        for i, (a, b) in enumerate(zip(have.dims, given.dims)):
            if a is not None and b is not None and a != b:
                def text(s):
                    return "[" + ",".join("?" if d is None else str(d) for d in s.dims) + "]"
                raise ValueError(f"Dimension {i} in both shapes must be equal, but are {a} "
                                 f"and {b}. Shapes are {text(have)} and {text(given)}.")
    return have.merge_with(given)


class VariantValue:
    """Base of the run-time values of `variant` tensors that kernels return
    (TensorArray storage and gradient maps): `wrap_numpy` keeps them as they
    are instead of making numpy arrays of them."""

    __slots__ = ()


def wrap_numpy(value):
    """An EagerTensor for a numpy kernel result (or a `VariantValue`)."""
    if not isinstance(value, (np.ndarray, np.generic)):
        if isinstance(value, VariantValue):
            return EagerTensor(value, _dtypes.variant)
        value = np.asarray(value)
    dtype = _NUMPY_TO_DTYPE.get(value.dtype)  # fast path of as_dtype (eager hot path)
    return EagerTensor(value, dtype if dtype is not None else _dtypes.as_dtype(value.dtype))


_NUMPY_TO_DTYPE = {d.np_dtype: d for d in (
    _dtypes.bool, _dtypes.int8, _dtypes.int16, _dtypes.int32, _dtypes.int64, _dtypes.uint8,
    _dtypes.uint16, _dtypes.uint32, _dtypes.uint64, _dtypes.float16, _dtypes.bfloat16,
    _dtypes.float32, _dtypes.float64, _dtypes.complex64, _dtypes.complex128) + _dtypes.NARROW}


def to_numpy_value(value, dtype=None):
    """Convert a Python/numpy value to a numpy value of TensorFlow's dtype."""
    if dtype is not None and dtype.__class__ is not _dtypes.DType:
        dtype = _dtypes.as_dtype(dtype)
    if value.__class__ is int and dtype is not None and dtype.is_integer:
        low, high = dtype._numeric_limits()     # the commonest case, as below, at once
        if low <= value <= high:
            return np.asarray(value, dtype=dtype.np_dtype)
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        if value.dtype.kind in "SU" and (dtype is None or dtype.is_string):
            return _bytes_object_array(value)      # TF holds Python bytes (numpy())
        if dtype is None or value.dtype == dtype.np_dtype:
            return value
        return value.astype(dtype.np_dtype)
    if isinstance(value, TensorShape):
        value = _shape_as_list(value)
    elif isinstance(value, range):          # TF converts a range as its list
        value = list(value)
    if dtype is None:
        dtype = _infer_python_dtype(value)
    if dtype.is_string:
        _check_strings(value)
        return _string_array(value)
    if dtype.is_integer and not isinstance(value, bool):
        _check_integral(value, dtype)
    try:
        if dtype.is_integer or dtype.is_bool:      # in range (checked above): no overflow
            return np.asarray(value, dtype=dtype.np_dtype)
        with np.errstate(over="ignore"):            # 1e300 -> float32 is inf, as in TF
            return np.asarray(value, dtype=dtype.np_dtype)
    except (TypeError, ValueError) as e:
        if "inhomogeneous" in str(e):
            # TensorFlow 2.21's message, verbatim
            raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
        if is_composite(value):
            raise _composite_error(value) from None
        raise TypeError(f"Cannot convert {value!r} to a tensor of dtype {dtype.name}: {e}") from None


def _composite_error(value):
    """TF's words for converting a SparseTensor / RaggedTensor to a tensor."""
    return ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type "
                      f"({type(value)}) to a Tensor.")


def _shape_as_list(shape):
    """A TensorShape's dims, for converting it to a tensor (TensorFlow: int32,
    int64 for large dims; a partially known shape does not convert)."""
    if not shape.is_fully_defined():
        raise ValueError(f"Cannot convert a partially known TensorShape {shape} to a Tensor.")
    return list(shape.dims)


def _check_strings(value):
    """TypeError unless every leaf of `value` is a str or bytes."""
    for v in flatten_lists(value) if isinstance(value, (list, tuple)) else (value,):
        if not isinstance(v, (str, bytes, np.str_, np.bytes_)):
            raise TypeError(f"Cannot convert {value!r} to a tensor of dtype string: "
                            f"expected str or bytes, got {v!r} of type {type(v).__name__}")


def _infer_python_dtype(value):
    d = _dtypes.dtype_of_python(value)
    if d is not None:
        return d
    if isinstance(value, (list, tuple)):
        flat = flatten_lists(value)
        if not flat:
            return _dtypes.float32
        kinds = {_dtypes.dtype_of_python(v) if not isinstance(v, EagerTensor) else v.dtype
                 for v in flat}
        if None in kinds:
            raise TypeError(f"Cannot convert {value!r} to a tensor")
        if len(kinds) == 1:
            return kinds.pop()
        if _dtypes.string in kinds:
            raise TypeError(f"Cannot convert {value!r} to a tensor: mixes strings and numbers")
        if any(k.is_floating for k in kinds):
            return next((k for k in kinds if k.is_floating), _dtypes.float32)
        return _dtypes.int64 if _dtypes.int64 in kinds else _dtypes.int32
    if is_composite(value):
        raise _composite_error(value)
    raise TypeError(f"Cannot convert {describe_value(value)} (of type {type(value).__name__}) "
                    f"to a tensor")


def flatten_lists(value):
    """The leaves of nested lists and tuples (in no particular order)."""
    out = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(v)
        else:
            out.append(v)
    return out


def _check_integral(value, dtype):
    """TypeError for a fractional float, ValueError for a number `dtype` cannot hold."""
    if value.__class__ is int:      # the commonest value: one comparison when in range
        low, high = dtype._numeric_limits()
        if low <= value <= high:
            return
    for v in flatten_lists(value) if isinstance(value, (list, tuple)) else (value,):
        if isinstance(v, float) and not v.is_integer():
            raise TypeError(f"Cannot convert {value!r} to a tensor of dtype {dtype.name}: "
                            f"{v!r} is not an integer")
        if isinstance(v, (int, float)) and not isinstance(v, bool) \
                and not dtype.min <= v <= dtype.max:
            kind = "int" if isinstance(v, int) else "float"
            raise ValueError(f"Can't convert Python {kind} {v!r} to a {dtype.name} tensor: "
                             f"it is out of range [{dtype.min}, {dtype.max}]")


def _string_array(value):
    def enc(v):
        return v.encode() if isinstance(v, str) else v
    if isinstance(value, (list, tuple)):
        arr = np.empty(np.shape(np.asarray(value, dtype=object)), dtype=object)
        flat = arr.reshape(-1)
        for i, v in enumerate(np.asarray(value, dtype=object).reshape(-1)):
            flat[i] = enc(v)
        return arr
    out = np.empty((), dtype=object)
    out[()] = enc(value)
    return out


def is_symbolic_tensor(tensor):
    """`tf.is_symbolic_tensor`: True for a tensor of a graph being traced (its
    value known only when the graph runs); False for eager tensors, Variables
    and anything else."""
    return isinstance(tensor, SymbolicTensor)


def is_tensor_like(value):
    """True for a Tensor or a TensorLike (core/protocols.py: a Variable, ...)."""
    return isinstance(value, Tensor) or reads_as_tensor(value)


def unwrap_variable(value):
    """A TensorLike (core/protocols.py: a Variable, ...) as its tensor (a
    Variable's current value); any other value unchanged.

    Ops that inspect `.dtype`, `.shape` or the value of an argument before
    converting it call this first, so Variables go wherever tensors go.
    """
    if not isinstance(value, Tensor) and reads_as_tensor(value):
        return value._as_tensor()
    return value


def convert_to_tensor(value, dtype=None, name=None):
    """`tf.convert_to_tensor`: a Tensor stays (dtype checked); others convert.

    While tracing, a non-tensor value becomes a constant node of the graph.
    """
    if value.__class__ in _PYTHON_SCALARS:   # no conversion can be registered for these
        eager = EagerTensor(to_numpy_value(value, dtype))
        graph = current_graph()
        return eager if graph is None else graph.capture(eager)
    if isinstance(value, Tensor):
        if dtype is not None and _dtypes.as_dtype(dtype) != value.dtype:
            raise ValueError(f"Tensor conversion requested dtype {_dtypes.as_dtype(dtype).name} "
                             f"for Tensor with dtype {value.dtype.name}: {value!r}")
        return value
    if reads_as_tensor(value):  # Variables
        t = value._as_tensor()
        return convert_to_tensor(t, dtype)
    if _conversion.REGISTRY:
        converted = _registered_conversion(value, dtype, name)
        if converted is not None:
            return converted
    if isinstance(value, (list, tuple)) and any(is_tensor_like(v) for v in flatten_lists(value)):
        return dispatch.stack_nested(value, dtype)
    eager = EagerTensor(to_numpy_value(value, dtype))
    graph = current_graph()
    if graph is not None:
        return graph.capture(eager)
    return eager


# Python numbers (bool is one) take convert_to_tensor's short road.
_PYTHON_SCALARS = frozenset((int, float, bool))


def _registered_conversion(value, dtype, name):
    """The tensor a `register_tensor_conversion_function` function makes of
    `value`, or None when none is registered for it (or all pass)."""
    wanted = None if dtype is None else _dtypes.as_dtype(dtype)
    for _, fn in _conversion.conversion_functions(value):
        out = fn(value, dtype=wanted, name=name, as_ref=False)
        if out is NotImplemented:
            continue
        out = convert_to_tensor(out)
        if wanted is not None and out.dtype is not wanted:
            raise RuntimeError(f"Conversion function {fn!r} for type {type(value)} returned "
                               f"incompatible dtype: requested = {wanted.name}, actual = "
                               f"{out.dtype.name}")
        return out
    if _conversion.conversion_functions(value):
        raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type "
                         f"({type(value)}) to a Tensor.")
    return None


# --- value formatting, shared by str(tensor) and tf.print -------------------

def format_value(value, dtype, summarize=6):
    """The value part of `str(tensor)`, as numpy prints it (strings quoted)."""
    arr = np.asarray(value)
    if dtype.is_string:
        if arr.ndim == 0:
            return repr(_as_bytes(arr[()]))
        return np.array2string(arr, separator=" ", formatter={"all": _bytes_repr})
    threshold = 1000
    return np.array2string(arr, threshold=threshold, edgeitems=3, separator=" ") \
        if arr.ndim else str(arr[()])


def _own_line(text):
    """A value that prints on several lines starts on its own line (TensorFlow:
    `tf.Tensor(\n[[1. 1.]\n [1. 1.]], shape=(2, 2), dtype=float32)`)."""
    return "\n" + text if "\n" in text else text


def _as_bytes(v):
    """A string tensor element as TensorFlow holds it: Python bytes (numpy's
    np.bytes_ / np.str_ would print as `np.bytes_(b'aa')`)."""
    if isinstance(v, str):
        return v.encode()
    if isinstance(v, bytes):
        return bytes(v)
    return v


def _bytes_repr(v):
    return repr(_as_bytes(v))


def _as_bytes_array(value):
    arr = np.asarray(value)
    if arr.dtype.kind in "SU" or arr.dtype == object:
        out = np.empty(arr.shape, dtype=object)
        for index, v in np.ndenumerate(arr):
            out[index] = _as_bytes(v)
        return out if out.ndim else out[()]
    return value


def _bytes_object_array(value):
    """A numpy string array ('S' or 'U') as an object array of Python bytes."""
    out = np.empty(np.shape(value), dtype=object)
    for index, v in np.ndenumerate(np.asarray(value)):
        out[index] = _as_bytes(v)
    return out


def _numpy_repr(value):
    arr = np.asarray(value)
    if arr.ndim == 0:
        if arr.dtype.kind in "OSU":
            return repr(_as_bytes(arr[()]))
        # TensorFlow 2.21 shows a scalar as the Python number it holds:
        # float32 0.1 is numpy=0.10000000149011612 (its str stays 0.1).
        item = arr.item()
        return repr(item if isinstance(item, (bool, int, float, complex)) else float(item))
    if arr.dtype.kind in "SU":
        arr = _as_bytes_array(arr)
    return repr(arr)


class TensorSpec(TypeSpec):
    """`tf.TensorSpec`: describes a tensor (an argument, a result): shape
    (dims may be None), dtype, and an optional name."""

    __slots__ = ("shape", "dtype", "name")
    value_type = Tensor

    def __init__(self, shape: "TensorShape | Sequence[int | None] | None" = None,
                 dtype: "_dtypes.DType | str | type" = _dtypes.float32,
                 name: "str | None" = None) -> None:
        self.shape = as_shape(shape)
        self.dtype = _dtypes.as_dtype(dtype)
        self.name = name

    @classmethod
    def from_tensor(cls, tensor: "Any", name: "str | None" = None) -> "TensorSpec":
        return cls(tensor.shape, tensor.dtype, name)

    @classmethod
    def from_spec(cls, spec, name=None):
        """A TensorSpec of another spec's shape and dtype (its name unless `name`)."""
        return cls(spec.shape, spec.dtype, name or getattr(spec, "name", None))

    def is_compatible_with(self, value: "Any") -> "bool":
        """True when a tensor (or spec) has this dtype and a compatible shape."""
        return self.dtype == value.dtype and self.shape.is_compatible_with(value.shape)

    # The TypeSpec protocol: a tensor is its own one component.
    def _serialize(self):
        return (self.shape, self.dtype, self.name)

    @property
    def _component_specs(self):
        return self

    def _to_components(self, value):
        return value

    def _from_components(self, components):
        return components

    def flatten(self):
        return [self]

    def to_tensors(self, value):
        return [value]

    def from_tensors(self, tensors):
        return next(iter(tensors))

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self.shape == other.shape
                and self.dtype == other.dtype and self.name == other.name)

    def __hash__(self):
        return hash((self.shape, self.dtype.name, self.name))

    def __repr__(self):
        # TensorFlow 2.21: TensorSpec(shape=<unknown>, dtype=tf.int32, name=None)
        return f"TensorSpec(shape={self.shape}, dtype={self.dtype!r}, name={self.name!r})"
