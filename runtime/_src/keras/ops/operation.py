"""The machinery shared by `keras.ops`: Keras's dtype rules and the wrapper
that makes a function an op of KerasTensors.

`keras_op` turns a function over tensors into a Keras op: given a
KerasTensor anywhere in its arguments it records an `Operation` of the
functional graph (a row "sum (Sum)" of `summary()`), otherwise it runs
eagerly or in the graph being traced.

Keras converts Python floats to float32 and ints to int32, and promotes two
dtypes by its lattice (JAX's): Python scalars are "weak" (`int8 tensor + 1`
stays int8, `int32 tensor + 1.0` is float32), uint8 with int8 is int16,
int64 with float32 is float32, float16 with bfloat16 is float32.
"""

import functools
from builtins import all as builtins_all

import numpy as np

from runtime._src.core import dtypes, nest
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.keras.backend import keras_tensor
from runtime._src.keras.backend.keras_tensor import KerasTensor, Operation, any_symbolic
from runtime._src.ops import math_ops

__all__ = ["keras_op", "tensor", "result_type", "dtype_of", "cast_to", "floatx",
           "to_float", "standardize_dtype"]

_LATTICE = {
    "bool": ["int"], "uint8": ["int16", "uint16"], "uint16": ["int32", "uint32"],
    "uint32": ["int64", "uint64"], "uint64": ["float"], "int": ["uint8", "int8"],
    "int8": ["int16"], "int16": ["int32"], "int32": ["int64"], "int64": ["float"],
    "float": ["bfloat16", "float16"], "bfloat16": ["float32"], "float16": ["float32"],
    "float32": ["float64"], "float64": []}


def _upper(dtype):
    """The types at or above `dtype` in the lattice."""
    found, todo = {dtype}, [dtype]
    while todo:
        for up in _LATTICE[todo.pop()]:
            if up not in found:
                found.add(up)
                todo.append(up)
    return found


def floatx():
    return "float32"


def standardize_dtype(dtype):
    """A dtype name as Keras writes it ("float32"); Python's int/float/bool
    become Keras's defaults."""
    if dtype is None:
        return floatx()
    if dtype is int:
        return "int32"
    if dtype is float:
        return floatx()
    if dtype is bool:
        return "bool"
    return dtypes.as_dtype(dtype).name


def _lattice_name(x):
    """The lattice element of a value: "int"/"float" for Python scalars
    (a NumPy scalar, np.float64 included, is its own dtype)."""
    if isinstance(x, np.generic):
        return standardize_dtype(x.dtype)
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, int):
        return "int"
    if isinstance(x, float):
        return "float"
    return dtype_of(x)


def result_type(*values):
    """Keras's promoted dtype of `values` (tensors, dtypes or Python scalars)."""
    names = [_lattice_name(v) for v in values]
    common = set.intersection(*(_upper(n) for n in names))
    best = next(n for n in common if all(m in _upper(n) for m in common))
    return {"int": "int32", "float": floatx()}.get(best, best)


def dtype_of(x):
    """The Keras dtype name of a tensor, array, dtype or value."""
    if isinstance(x, (Tensor, KerasTensor)) or hasattr(x, "dtype"):
        return standardize_dtype(x.dtype)
    if isinstance(x, (str, dtypes.DType, type)):
        return standardize_dtype(x)
    return dtype_of(tensor(x))


def _python_dtype(value):
    """Keras's dtype for a Python scalar or nested list of them."""
    flat = np.asarray(value)
    if flat.dtype == np.bool_:
        return "bool"
    if np.issubdtype(flat.dtype, np.integer):
        return "int32"
    if np.issubdtype(flat.dtype, np.floating):
        return floatx()
    return None


def tensor(x, dtype=None):
    """`x` as a Tensor the way Keras converts it: Python floats float32,
    ints int32, NumPy arrays keep their dtype; cast to `dtype` if given."""
    if isinstance(x, np.generic):
        t = convert_to_tensor(np.asarray(x))
        return t if dtype is None else cast_to(t, dtype)
    if isinstance(x, (int, float, bool)) or isinstance(x, (list, tuple)) and builtins_all(
            isinstance(v, (int, float, bool)) for v in nest.flatten(x)):
        inferred = None
        try:
            inferred = dtype or _python_dtype(x)
        except (ValueError, TypeError):
            pass
        if inferred is not None:
            try:
                x = np.asarray(x, dtype=dtypes.as_dtype(standardize_dtype(inferred)).np_dtype)
            except (ValueError, TypeError):
                pass
    t = convert_to_tensor(x)
    return t if dtype is None else cast_to(t, dtype)


def cast_to(x, dtype):
    """`x` cast to `dtype` (no op when it is already)."""
    x = x if isinstance(x, Tensor) else tensor(x)
    dtype = standardize_dtype(dtype)
    return x if x.dtype.name == dtype else math_ops.cast(x, dtype)


def to_float(x):
    """`x` as a tensor, ints and bools cast to floatx (Keras's unary math)."""
    x = tensor(x)
    if not x.dtype.is_floating and not x.dtype.is_complex:
        x = math_ops.cast(x, floatx())
    return x


def _class_name(snake):
    return "".join(part.capitalize() for part in snake.split("_"))


def keras_op(fn=None, name=None):
    """Decorator: `fn` as a Keras op that also records on KerasTensors."""
    if fn is None:
        return functools.partial(keras_op, name=name)
    snake = name or fn.__name__
    class_name = _class_name(snake)
    op_class = type(class_name, (Operation,), {"__doc__": f"`keras.ops.{snake}`."})
    keras_tensor._SNAKE[class_name] = snake

    @functools.wraps(fn)
    def op(*args, **kwargs):
        if any_symbolic(args, kwargs):
            return op_class(fn)(*args, **kwargs)
        return fn(*args, **kwargs)

    return op
