"""The base of the op modules: the graph plumbing ops `Placeholder` (an
input) and `Const` (a captured value), and what every op module uses to
define and run its ops: the dtype families (FLOATS, NUMERIC, ...), the dtype
error, operand conversion (`convert_pair`), and the eager fast path of front
functions (`binary`, `unary`, `run_kernel_now`).
"""

import types

import numpy as np

from runtime._src.core import dtype_promotion, dtypes
from runtime._src.core.composite import _API_TYPES, dispatch_api
from runtime._src.core.context import plain_eager, state as _state
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.fp_quiet import quiet, restore
from runtime._src.core.tensor import (_PYTHON_SCALARS, EagerTensor, Tensor, convert_to_tensor,
                                      to_numpy_value)
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.graph.graph import current_graph, user_location
from runtime._src.graph.op_registry import (OPS, apply, define_op, eager_kernel_error,
                                            run_quietly, stage)


def _infer_attr_spec(inputs, attrs):
    if "shape" in attrs:
        return [(attrs["dtype"], attrs["shape"])]
    value = attrs["value"]          # an array's own shape: what np.shape returns, sooner
    return [(attrs["dtype"], value.shape if value.__class__ is np.ndarray else np.shape(value))]


@define_op("Placeholder", infer=_infer_attr_spec)
def _placeholder(*, dtype, shape):
    raise RuntimeError("a Placeholder is fed by the executor, never run")


@define_op("Const", infer=_infer_attr_spec)
def _const(*, value, dtype):
    return value


# Dtype families, as sets of DType singletons (membership is an identity test).
INTEGERS = frozenset(d for d in (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64,
                                 dtypes.uint8))
FLOATS = frozenset((dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64))
NUMERIC = INTEGERS | FLOATS
COMPLEX = frozenset((dtypes.complex64, dtypes.complex128))
ARITHMETIC = NUMERIC | COMPLEX          # + - * / ** neg square matmul (TF's kernels)
INEXACT = FLOATS | COMPLEX              # sqrt exp log
BOOL = frozenset((dtypes.bool,))
# uint16/32/64: TF's kernels of + - * / // %, maximum/minimum, comparisons,
# square, TruncateDiv and the reductions take them; negation, abs, sign, pow,
# matmul and TruncateMod do not.
WIDE_UINTS = frozenset((dtypes.uint16, dtypes.uint32, dtypes.uint64))
ARITHMETIC_UINTS = ARITHMETIC | WIDE_UINTS
NUMERIC_UINTS = NUMERIC | WIDE_UINTS
# TF's TruncateDiv/TruncateMod kernels: no 8- or 16-bit integers.
TRUNCATE = FLOATS | frozenset((dtypes.int32, dtypes.int64))
ORDERED = NUMERIC_UINTS
ANY = NUMERIC_UINTS | COMPLEX | BOOL | frozenset((dtypes.string,))
_FAMILY_TEXT = {FLOATS: "a floating-point tensor (float16, bfloat16, float32, float64)",
                NUMERIC: "a numeric tensor (an integer or floating-point dtype)",
                BOOL: "a bool tensor",
                INTEGERS: "an integer tensor (int8, int16, int32, int64, uint8)",
                ARITHMETIC: "a numeric tensor (an integer, floating-point or complex dtype)",
                ARITHMETIC_UINTS: "a numeric tensor (an integer, floating-point or complex "
                                  "dtype)",
                NUMERIC_UINTS: "a numeric tensor (an integer or floating-point dtype)",
                INEXACT: "a floating-point tensor (float16, bfloat16, float32, float64) or a complex one"}


def dtype_error(op_name, dtype, allowed):
    """The error for an input whose dtype the op does not support: as in
    TensorFlow, InvalidArgumentError eagerly (no kernel for that dtype) and
    TypeError while tracing (the op definition refuses it)."""
    wanted = _FAMILY_TEXT.get(allowed, "one of " + ", ".join(sorted(d.name for d in allowed)))
    hint = "; use tf.cast to convert it" if dtype in ANY else ""
    message = f"{op_name}: expected {wanted}, got a {dtype.name} tensor{hint}"
    if current_graph() is None:
        return InvalidArgumentError(message, op_name)
    return TypeError(message)


def convert_pair(x, y, op_name, location=False):
    """Convert two operands of a binary op to tensors of one dtype.
    (`location`: while tracing, the user's line, when known, of the
    constants made of Python numbers; see Graph.add_node.)"""
    # (a Python number, the commonest other operand, is no TensorLike)
    if not isinstance(x, Tensor) and x.__class__ not in _PYTHON_SCALARS and reads_as_tensor(x):
        x = x._as_tensor()
    # (and a failing isinstance test costs most: a number is asked none)
    if y.__class__ not in _PYTHON_SCALARS and not isinstance(y, Tensor) and reads_as_tensor(y):
        y = y._as_tensor()
    if isinstance(x, Tensor):
        if y.__class__ in _PYTHON_SCALARS or not isinstance(y, Tensor):
            y = _operand(y, x.dtype, location)
        elif x.dtype is not y.dtype and current_graph() is None:
            raise InvalidArgumentError(
                f"{op_name}: cannot compute {op_name} of a {x.dtype.name} tensor and a "
                f"{y.dtype.name} tensor; use tf.cast to convert one of them", op_name)
    elif isinstance(y, Tensor):
        _check_typed_first(x, y, op_name)
        x = _operand(x, y.dtype, location)
    else:
        x = convert_to_tensor(x)
        y = convert_to_tensor(y, x.dtype)
    return x, y


def _operand(value, dtype, location):
    """convert_to_tensor(value, dtype), a Python number made a constant of
    the graph being traced at `location` when that is known."""
    if location is False or value.__class__ not in _PYTHON_SCALARS:
        return convert_to_tensor(value, dtype)
    value = to_numpy_value(value, dtype)
    # The dtype an EagerTensor of the value would have (the Const node's):
    # `dtype` itself when the array has its numpy dtype (the commonest case).
    if value.dtype is not dtype.np_dtype:
        dtype = dtypes.as_dtype(value.dtype)
    return _state.graph.add_constant(value, dtype, location)


# TensorFlow's kernel names of dtypes (DataTypeString) in its eager dtype errors.
_KERNEL_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def _check_typed_first(x, y, op_name):
    """As TF's eager ops: a numpy scalar or 0-d array first fixes the op's dtype
    (`tf.add(np.array(1, np.int8), tf.constant(1))` fails; other values,
    numpy arrays of higher rank included, take the tensor's dtype)."""
    if current_graph() is not None or not isinstance(x, (np.generic, np.ndarray)) \
            or np.ndim(x) != 0 or x.dtype.kind not in "biufc":
        return
    first = dtypes.as_dtype(x.dtype)
    if first is not y.dtype:
        want, got = (_KERNEL_NAMES.get(d.name, d.name) for d in (first, y.dtype))
        raise InvalidArgumentError(
            f"cannot compute {op_name} as input #1(zero-based) was expected to be a {want} "
            f"tensor but is a {got} tensor [Op:{op_name}] name: ", op_name)


# --- the eager fast path and the general path ------------------------------------

def _scalar_value(v, dtype):
    """A Python int/float as a numpy scalar of `dtype`, or None (use the slow path)."""
    kind = type(v)
    if kind is int and dtype in NUMERIC:
        try:
            return dtype.np_dtype.type(v)
        except OverflowError:
            return None
    if kind is float and dtype in FLOATS:
        return dtype.np_dtype.type(v)
    return None


def eager_values(x, y):
    """(x value, y value, dtype) when both can go straight to a kernel, else None."""
    if x.__class__ is EagerTensor:
        if y.__class__ is EagerTensor:
            if x.dtype is y.dtype:
                return x._value, y._value, x.dtype
            return None
        v = _scalar_value(y, x.dtype)
        return None if v is None else (x._value, v, x.dtype)
    if y.__class__ is EagerTensor:
        v = _scalar_value(x, y.dtype)
        return None if v is None else (v, y._value, y.dtype)
    return None


# TF's auto dtype conversion ('all'/'safe' modes): ops/weak_ops.py puts its
# promoting binary, its unary of Python values and the WeakTensor class here;
# they run while core.dtype_promotion's mode is on.
auto_conversion = types.SimpleNamespace(binary=None, unary=None, wrap=None)


def binary(name, x, y, allowed, out_dtype=None):
    """Run binary op `name`: eagerly on the fast path, else convert and apply."""
    graph = _state.graph
    if graph is None and plain_eager():         # (while tracing, no call to tell)
        found = eager_values(x, y)
        if found is not None and found[2] in allowed:
            xv, yv, dtype = found
            token = quiet()         # TF's inf and NaN come silently
            try:
                return EagerTensor(OPS[name].kernel(xv, yv), out_dtype or dtype)
            except RuntimeWarning:  # a warnings filter made numpy's own warning an error
                return EagerTensor(run_quietly(OPS[name].kernel, xv, yv), out_dtype or dtype)
            except Exception as e:  # re-raised naming the op
                pair = convert_pair(x, y, name)
                raise eager_kernel_error(OPS[name], pair, None, e) from e
            finally:
                restore(token)
    if x.__class__ in _API_TYPES or y.__class__ in _API_TYPES:    # a tf.RaggedTensor
        out = dispatch_api("binary", (x, y), name, x, y,
                           lambda a, b: binary(name, a, b, allowed, out_dtype))
        if out is not NotImplemented:
            return out
    if dtype_promotion.mode() is not None:
        return auto_conversion.binary(name, x, y,
                                      lambda a, b: _converted_binary(name, a, b, allowed, graph))
    return _converted_binary(name, x, y, allowed, graph)


def _converted_binary(name, x, y, allowed, graph):
    # `graph`: the one being traced (None eagerly), as `binary` read it.
    # While tracing, the user's line is looked for once: the constants made
    # of Python numbers and the node share it. The walk starts above the
    # caller of `binary` (which alone calls this): that caller is an op's
    # front function (or a lambda of this module), never the user's code,
    # and each frame walked costs a frame object made for it.
    location = False if graph is None else user_location(4)
    x, y = convert_pair(x, y, name, location)
    if x.dtype not in allowed:
        raise dtype_error(name, x.dtype, allowed)
    if graph is None:
        return apply(name, (x, y))
    return stage(graph, OPS[name], (x, y), {}, location)


def unary(name, x, allowed, attrs=None, out_dtype=None):
    """Run unary op `name` (same dtype out as in, unless `out_dtype` is given)."""
    if x.__class__ is EagerTensor and plain_eager() and x.dtype in allowed \
            and attrs is None:
        token = quiet()
        try:
            return EagerTensor(OPS[name].kernel(x._value), out_dtype or x.dtype)
        except RuntimeWarning:      # a warnings filter made numpy's own warning an error
            return EagerTensor(run_quietly(OPS[name].kernel, x._value), out_dtype or x.dtype)
        except Exception as e:  # re-raised naming the op
            raise eager_kernel_error(OPS[name], (x,), None, e) from e
        finally:
            restore(token)
    if not isinstance(x, Tensor):
        mapped = map_composite_values(x, name, lambda v: unary(name, v, allowed, attrs,
                                                               out_dtype))
        if mapped is not NotImplemented:
            return mapped
        if dtype_promotion.mode() is not None and dtype_promotion.python_type(x) is not None:
            return map_python_value(x, name, lambda v: unary(name, v, allowed, attrs, out_dtype))
    x = convert_to_tensor(x)
    if x.dtype not in allowed:
        raise dtype_error(name, x.dtype, allowed)
    return apply(name, (x,), attrs)


def weak_input(value):
    """Under auto dtype conversion, a Python number or list as the WeakTensor
    (or strong tensor) it stands for; any other value as it is."""
    found = dtype_promotion.python_type(value)
    if found is None:
        return value
    tensor = convert_to_tensor(value, found[0])
    return auto_conversion.wrap(tensor) if found[1] else tensor


def map_python_value(x, op_name, fn):
    """Op `op_name` of a Python value under auto dtype conversion: weak when
    the value's type is (ops/weak_ops.py)."""
    return auto_conversion.unary(x, fn, op_name)


def map_composite_values(x, op_name, fn):
    """Op `op_name` on a composite value's values (`tf.abs(sparse)` is sparse,
    as TF dispatches it): the value's `_map_values_op` says whether TF runs
    that op so; NotImplemented when it does not (or x is not such a value)."""
    method = getattr(x, "_map_values_op", None)
    if method is None:
        return NotImplemented
    return method(op_name, fn)


def run_kernel_now(name, inputs, attrs, dtype):
    """Run op `name`'s kernel on eager `inputs` and wrap the result as `dtype`.

    The eager fast path of front functions: the caller has checked that no
    graph is being traced and that `dtype` is the op's output dtype.
    """
    values = [t._value for t in inputs]
    token = quiet()
    try:
        return EagerTensor(OPS[name].kernel(*values, **attrs), dtype)
    except RuntimeWarning:          # a warnings filter made numpy's own warning an error
        return EagerTensor(run_quietly(OPS[name].kernel, *values, **attrs), dtype)
    except Exception as e:  # re-raised naming the op
        raise eager_kernel_error(OPS[name], inputs, attrs, e) from e
    finally:
        restore(token)
