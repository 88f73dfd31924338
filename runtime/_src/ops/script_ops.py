"""Calling Python from a graph: `py_function` and `numpy_function`.

Both stage a side-effecting node that calls `func` at every run of the graph
(eagerly they call it at once), so Python side effects inside `func` happen
each time, in program order:

    def log(x):
        seen.append(int(x))
        return x * 2

    y = py_function(log, [x], Tout=int32)     # func gets EagerTensors
    z = numpy_function(np.sort, [v], int32)   # func gets numpy arrays

`Tout` is one dtype (the call returns one tensor) or a list of dtypes (the
call returns a list). Output shapes are unknown while tracing. An exception
raised by `func` becomes `errors.InvalidArgumentError` naming the op and the
user's line, with the original message (and the original exception as its
`__cause__`).
"""

import functools

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError, OpError
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.core.tensor import (EagerTensor, Tensor, convert_to_tensor, to_numpy_value,
                                      wrap_numpy)
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.context import init_scope
from runtime._src.core.protocols import reads_as_tensor

__all__ = ["py_function", "numpy_function"]


class _FuncError(Exception):
    """An exception raised by the user's function (wrapped by the op's caller)."""


def _infer_outputs(inputs, attrs):
    return [(d, TensorShape(None)) for d in attrs["Tout"]]


def _call(func, args, kind):
    try:
        with init_scope():
            return func(*args)
    except OpError:
        raise
    except Exception as e:  # reported with the op and the line
        name = getattr(func, "__name__", type(func).__name__)
        raise _FuncError(f"{kind} {name!r} raised {type(e).__name__}: {e}") from e


def _outputs(result, Tout, func, kind):  # TensorFlow's name
    """Convert `func`'s result to a tuple of numpy values of the Tout dtypes."""
    if not Tout:
        return ()
    items = list(result) if isinstance(result, (list, tuple)) else [result]
    name = getattr(func, "__name__", type(func).__name__)
    if len(items) != len(Tout):
        raise InvalidArgumentError(f"{kind} {name!r} returned {len(items)} value(s), but "
                                   f"Tout has {len(Tout)}", kind)
    return tuple(_convert(v, d, i, name, kind) for i, (v, d) in enumerate(zip(items, Tout)))


def _same_kind(a, b):
    return (a.is_integer and b.is_integer) or (a.is_floating and b.is_floating)


def _convert(value, dtype, index, name, kind):
    if reads_as_tensor(value):
        value = value._as_tensor()
    if isinstance(value, EagerTensor):
        found = value.dtype
        value = value._value
    elif isinstance(value, (np.ndarray, np.generic)):
        found = dtypes.as_dtype(value.dtype)
        if found != dtype and _same_kind(found, dtype):
            found = dtype  # a numpy number takes Tout's dtype (np.float64 -> float32)
            value = value.astype(dtype.np_dtype)
    elif isinstance(value, Tensor):
        raise InvalidArgumentError(f"{kind} {name!r} returned a symbolic tensor for output "
                                   f"{index}; return eager values", kind)
    else:
        try:
            return to_numpy_value(value, dtype)
        except TypeError as e:
            raise InvalidArgumentError(f"{kind} {name!r}: output {index}: {e}", kind) from None
    if found != dtype:
        raise InvalidArgumentError(f"{kind} {name!r}: output {index} has dtype {found.name}, "
                                   f"but Tout expects {dtype.name}", kind)
    return value


@define_op("EagerPyFunc", infer=_infer_outputs, side_effect=True, num_outputs=None)
def _eager_py_func(*values, func, Tout):
    args = [wrap_numpy(v) for v in values]
    result = _call(func, args, "py_function")
    return _outputs(result, Tout, func, "py_function")


@define_op("PyFunc", infer=_infer_outputs, side_effect=True, num_outputs=None)
def _py_func(*values, func, Tout):
    args = [np.array(v) if isinstance(v, np.ndarray) else v for v in values]
    result = _call(func, args, "numpy_function")
    return _outputs(result, Tout, func, "numpy_function")


# numpy_function has no gradient, as in TF: its inputs get None.
not_differentiable("PyFunc")


def _stage(op_name, func, inp, Tout):
    if not callable(func):
        raise TypeError(f"{op_name}: func must be callable, got {type(func).__name__}")
    single = Tout is not None and not isinstance(Tout, (list, tuple))
    tout = () if Tout is None else tuple(dtypes.as_dtype(d) for d in ([Tout] if single else Tout))
    if isinstance(inp, (Tensor, np.ndarray)) or reads_as_tensor(inp):
        inp = [inp]
    tensors = [convert_to_tensor(x) for x in (inp or [])]
    outs = apply(op_name, tensors, {"func": func, "Tout": tout})
    if Tout is None:
        return None
    return outs[0] if single else list(outs)


def _decorator(op_name, Tout):
    """`@tf.py_function(Tout=...)`: the decorated function, called with
    tensors, runs as the op on them."""
    def decorate(func):
        @functools.wraps(func)
        def staged(*args):
            return _stage(op_name, func, list(args), Tout)
        return staged
    return decorate


def py_function(func=None, inp=None, Tout=None, name=None):
    """`tf.py_function`: call `func` on EagerTensors at every run.

    The outputs are converted to `Tout`: a tensor output must already have
    that dtype; Python values and numpy numbers of the same kind convert.
    Without `func`, a decorator: `@tf.py_function(Tout=tf.string)`.
    """
    if func is None:
        return _decorator("EagerPyFunc", Tout)
    return _stage("EagerPyFunc", func, inp, Tout)


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """`tf.numpy_function`: call `func` on numpy arrays at every run.

    Numpy outputs of the same kind are cast to `Tout` (friendlier than
    TensorFlow, which rejects an int64 array for an int32 Tout). The node
    always runs, whatever `stateful` says. Without `func`, a decorator.
    """
    if func is None:
        return _decorator("PyFunc", Tout)
    return _stage("PyFunc", func, inp, Tout)
