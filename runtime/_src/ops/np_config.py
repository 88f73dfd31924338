"""`tnp.experimental_enable_numpy_behavior`: NumPy's ways on every tensor.

Turning it on (process-wide and for good, as in TensorFlow) does three things:
  - tensors get NumPy's methods and properties: `T`, `size`, `tolist`,
    `reshape`, `ravel`, `flatten`, `transpose`, `clip`, `astype`, `max`,
    `min`, `mean`, `round()`, unary `+` and `data`;
  - tensors index as NumPy arrays do (integer arrays, boolean masks;
    np_indexing.py);
  - with dtype_conversion_mode='all' or 'safe', TF's auto dtype conversion:
    Python numbers make weak tensors, and ops promote by a lattice
    (core/dtype_promotion.py, ops/weak_ops.py);
  - with dtype_conversion_mode='legacy' (the default), the Python operators
    of two operands of different dtypes promote them by NumPy's rules
    (`int32 + int64` is int64, `int32 + 1.5` float64, `float32 + 1.5`
    float32) instead of raising; `prefer_float32` makes Python floats count
    as float32 there and in tnp's dtype inference.

It works by swapping entries of `core.tensor.dispatch` (the table behind
tensors' operators) and setting attributes on `Tensor`; `disable_numpy_behavior`
puts every one back (TensorFlow has no such switch: it is for tests).
"""

import numbers

import numpy as np

from runtime._src.core import dtype_promotion
from runtime._src.core import tensor as _tensor
from runtime._src.core.dtypes import as_dtype
from runtime._src.core.tensor import SymbolicTensor, Tensor
from runtime._src.ops import math_ops
from runtime._src.ops.np_array_ops import flatten, ravel, reshape, transpose
from runtime._src.ops.np_dtypes import asarray, np_result_type, set_prefer_float32
from runtime._src.ops.np_indexing import numpy_getitem
from runtime._src.ops.np_math_ops import around
from runtime._src.ops.np_reduce_ops import amax, amin, mean
from runtime._src.ops.np_reduce_ops import matmul as np_matmul
from runtime._src.ops.np_select_ops import clip
from runtime._src.ops import weak_ops

__all__ = ["experimental_enable_numpy_behavior", "disable_numpy_behavior",
           "numpy_behavior_enabled"]

# The operators that promote their operands in 'legacy' mode (dispatch names).
_PROMOTING = ("add", "subtract", "multiply", "truediv", "floordiv", "floormod", "pow",
              "matmul", "less", "less_equal", "greater", "greater_equal", "equal",
              "not_equal", "and_", "or_", "xor_")
_MODES = ("off", "legacy", "all", "safe")
_saved = {}        # what enabling replaced: ("dispatch" | "attr", name) -> old value


def _numeric(x):
    """Whether NumPy's promotion applies to x: a non-string tensor, a Python
    number, a numpy array or scalar of numbers, or a list of numbers (whose
    elements count as Python numbers, as in TF)."""
    if isinstance(x, Tensor):
        return not x.dtype.is_string
    if isinstance(x, (list, tuple)):
        return all(_numeric(v) for v in x)
    if isinstance(x, (numbers.Number, np.generic, np.ndarray)):
        return np.asarray(x).dtype.kind in "biufc"
    return False


def _promoted(op):
    def fn(x, y):
        # strings and other objects go to the op as they are
        if not (_numeric(x) and _numeric(y)) or (
                isinstance(x, Tensor) and isinstance(y, Tensor) and x.dtype == y.dtype):
            return op(x, y)
        dtype = as_dtype(np_result_type(x, y))
        return op(_cast(x, dtype), _cast(y, dtype))
    fn.__name__ = fn.__qualname__ = getattr(op, "__name__", "op")
    return fn


def _cast(x, dtype):
    if isinstance(x, Tensor):
        return x if x.dtype == dtype else math_ops.cast(x, dtype)
    return asarray(x, dtype)       # NumPy's conversion: 300 as uint8 wraps to 44, as in TF


# -- the methods ----------------------------------------------------------------------

def _tensor_size(self):
    """The number of elements (None when the shape is not fully known)."""
    dims = self.shape.as_list() if self.shape.rank is not None else None
    if dims is None or None in dims:
        return None
    return np.prod(dims, dtype=np.int64)


def _tensor_tolist(self):
    if isinstance(self, SymbolicTensor):
        raise ValueError("Symbolic Tensors do not support the tolist API.")
    return self.numpy().tolist()


def _reshape_method(self, *args, **kwargs):
    """t.reshape(2, 3) or t.reshape((2, 3)) (order='C' only)."""
    order = kwargs.pop("order", "C")
    if kwargs:
        raise TypeError(f"reshape() got unexpected keyword arguments {sorted(kwargs)}")
    shape = args[0] if len(args) == 1 else args
    return reshape(self, shape, order=order)


_METHODS = {
    "T": property(lambda self: transpose(self)),
    "size": property(_tensor_size),
    "data": property(lambda self: self),
    "tolist": _tensor_tolist,
    "reshape": _reshape_method,
    "ravel": ravel,
    "flatten": flatten,
    "transpose": transpose,
    "clip": clip,
    "astype": lambda self, dtype: math_ops.cast(self, dtype),
    "__round__": around,
    "__pos__": lambda self: self,
    "max": amax,
    "min": amin,
    "mean": mean,
}


def _set_attr(name, value):
    key = ("attr", name)
    if key not in _saved:
        _saved[key] = Tensor.__dict__.get(name, _MISSING)
    setattr(Tensor, name, value)


def _set_dispatch(name, value):
    key = ("dispatch", name)
    if key not in _saved:
        _saved[key] = getattr(_tensor.dispatch, name)
    setattr(_tensor.dispatch, name, value)


_MISSING = object()
weak_ops.install()


def experimental_enable_numpy_behavior(prefer_float32=False, dtype_conversion_mode="legacy"):
    """`tnp.experimental_enable_numpy_behavior(prefer_float32=False,
    dtype_conversion_mode='legacy')`: see the module docstring. The modes
    are 'legacy' (NumPy's promotion in operators), 'off' (none), and TF's auto
    dtype conversion 'all' and 'safe' (weak tensors and a lattice:
    core/dtype_promotion.py, ops/weak_ops.py)."""
    if dtype_conversion_mode not in _MODES:
        raise ValueError(f"experimental_enable_numpy_behavior: dtype_conversion_mode must be "
                         f"one of {', '.join(map(repr, _MODES))}, got {dtype_conversion_mode!r}")
    _restore_dispatch()
    dtype_promotion.set_mode(dtype_conversion_mode)
    for name, value in _METHODS.items():
        _set_attr(name, value)
    basic = _saved.get(("dispatch", "getitem"), _tensor.dispatch.getitem)
    _set_dispatch("getitem", lambda t, key: numpy_getitem(t, key, basic))
    _set_dispatch("matmul", np_matmul)       # NumPy's matmul: 1-D operands too
    if dtype_conversion_mode == "legacy":
        for name in _PROMOTING:
            base = np_matmul if name == "matmul" else _saved[("dispatch", name)] \
                if ("dispatch", name) in _saved else getattr(_tensor.dispatch, name)
            _set_dispatch(name, _promoted(base))
    # TF's auto dtype conversion makes tnp's default float float32, as prefer_float32 does.
    set_prefer_float32(prefer_float32 or dtype_conversion_mode in ("all", "safe"))


def _restore_dispatch():
    for (kind, name), old in list(_saved.items()):
        if kind == "dispatch":
            setattr(_tensor.dispatch, name, old)
            del _saved[(kind, name)]


def disable_numpy_behavior():
    """Undo experimental_enable_numpy_behavior (for tests; TF has no such switch)."""
    _restore_dispatch()
    for (kind, name), old in list(_saved.items()):
        if old is _MISSING:
            delattr(Tensor, name)
        else:
            setattr(Tensor, name, old)
        del _saved[(kind, name)]
    set_prefer_float32(False)
    dtype_promotion.set_mode(None)


def numpy_behavior_enabled():
    """Whether experimental_enable_numpy_behavior is in effect."""
    return bool(_saved)
