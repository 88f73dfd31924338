"""Run-time checks: `Assert` and `debugging.assert_*`.

Eagerly a failing check raises `errors.InvalidArgumentError` at once. While
tracing, each check is a side-effecting node that raises when the graph runs;
since side effects run in program order, a failing check stops the side
effects after it (a `print` before it prints, one after it does not).

    Assert(x > 0, ["x must be positive, got", x])
    # InvalidArgumentError: assertion failed: [x must be positive, got] [-3]

    debugging.assert_equal(x, y, message="shapes differ")
    # InvalidArgumentError: shapes differ
    # Condition x == y did not hold.
    # Indices of first 1 different values:
    # [[1]]
    # Corresponding x values:
    # [2]
    # ...

Unlike TensorFlow, `Assert` accepts a bool condition of any shape: it holds
when every element is true.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.graph.graph import current_graph, user_location
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.graph.op_registry import define_grad, not_differentiable  # gradients
from runtime._src.core.composite import is_composite
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.ops.logging_ops import format_element, summarize_v1
from runtime._src.ops.base_ops import convert_pair
from runtime._src.ops.shape_rules import broadcast_shapes, static_int

__all__ = ["Assert", "assert_equal", "assert_none_equal", "assert_greater",
           "assert_greater_equal", "assert_less", "assert_less_equal",
           "assert_positive", "assert_negative", "assert_non_negative",
           "assert_non_positive", "assert_rank", "assert_rank_at_least", "assert_rank_in",
           "assert_scalar", "assert_type", "assert_integer", "is_numeric_tensor",
           "assert_near", "check_numerics", "assert_all_finite", "is_tensor",
           "assert_proper_iterable", "assert_same_float_dtype"]


def _where():
    """'file:line' of the user's code staging a check; '' eagerly."""
    if current_graph() is None:
        return ""
    loc = user_location()
    return f"{loc[0]}:{loc[1]}" if loc else ""


def _at(where):
    return f"\n  (at {where})" if where else ""


# --- Assert --------------------------------------------------------------------

def _infer_assert(inputs, attrs):
    if not inputs[0].dtype.is_bool:
        raise TypeError(f"condition must be a bool tensor, got {inputs[0].dtype.name}")
    return []


@define_op("Assert", infer=_infer_assert, side_effect=True, num_outputs=0)
def _assert(condition, *data, summarize, where):
    if np.all(condition):
        return ()
    texts = " ".join(f"[{summarize_v1(d, summarize)}]" for d in data)
    raise InvalidArgumentError(f"assertion failed: {texts}{_at(where)}", "Assert")


not_differentiable("Assert")      # no outputs: nothing to differentiate, as in TF


def Assert(condition, data, summarize=None, name=None):  # TensorFlow's name
    """`tf.debugging.Assert`: raise InvalidArgumentError showing `data` unless
    `condition` holds. Strings in `data` print as they are; tensors print
    their first `summarize` (default 3) entries."""
    condition = convert_to_tensor(condition)
    if not condition.dtype.is_bool:
        raise TypeError(f"Assert: condition must be a bool tensor, got {condition.dtype.name}")
    if isinstance(data, (Tensor, str)) or reads_as_tensor(data):
        data = [data]
    tensors = [convert_to_tensor(d) for d in data]
    attrs = {"summarize": _summarize(summarize, "Assert"), "where": _where()}
    apply("Assert", [condition, *tensors], attrs)
    return None


# --- binary comparisons ---------------------------------------------------------

_COMPARISONS = {          # symbol -> numpy test that must hold elementwise
    "==": np.equal,
    "!=": np.not_equal,
    ">": np.greater,
    ">=": np.greater_equal,
    "<": np.less,
    "<=": np.less_equal,
}


def _infer_binary_assert(inputs, attrs):
    x, y = inputs
    if x.dtype != y.dtype:
        raise TypeError(f"x and y must have the same dtype, got {x.dtype.name} and "
                        f"{y.dtype.name}")
    broadcast_shapes(x.shape, y.shape)
    return []


@define_op("AssertBinary", infer=_infer_binary_assert, side_effect=True, num_outputs=0)
def _assert_binary(x, y, *, symbol, message, summarize, where):
    try:
        ok = _COMPARISONS[symbol](x, y)
    except ValueError as e:
        raise InvalidArgumentError(f"assert x {symbol} y: incompatible shapes "
                                   f"{np.shape(x)} and {np.shape(y)}: {e}", "AssertBinary")
    if np.all(ok):
        return ()
    raise InvalidArgumentError(_binary_failure(x, y, ok, symbol, message, summarize) + _at(where),
                               "AssertBinary")


not_differentiable("AssertBinary")


def _binary_failure(x, y, ok, symbol, message, summarize):
    """TensorFlow's eager message: the first failing indices and values."""
    xb, yb, okb = np.broadcast_arrays(np.atleast_1d(x), np.atleast_1d(y), np.atleast_1d(ok))
    bad = np.argwhere(~okb)[:summarize]
    picks = tuple(bad.T)
    lines = [message] if message else []
    lines += [
        f"Condition x {symbol} y did not hold.",
        f"Indices of first {len(bad)} different values:",
        _np_text(bad),
        "Corresponding x values:",
        _np_text(xb[picks]),
        "Corresponding y values:",
        _np_text(yb[picks]),
        f"First {min(summarize, np.size(x))} elements of x:",
        _np_text(np.reshape(x, -1)[:summarize]),
        f"First {min(summarize, np.size(y))} elements of y:",
        _np_text(np.reshape(y, -1)[:summarize]),
    ]
    return "\n".join(lines)


def equal_failure(x, y, summarize=3):
    """TF's eager text of a failed `assert_equal(x, y)` of numpy values (row
    partitions that differ: ragged ops check them so); shapes that differ give
    TF's text of the failed shape check."""
    x, y = np.asarray(x), np.asarray(y)
    if x.shape != y.shape:
        return ("Condition x == y did not hold.\nFirst 1 elements of x:\n[False]\n"
                "First 1 elements of y:\n[ True]")
    return _binary_failure(x, y, x == y, "==", "", summarize)


def _np_text(arr):
    arr = np.asarray(arr)
    if arr.dtype == object:
        return np.array2string(arr, separator=" ", formatter={"all": repr})
    return np.array2string(arr, separator=" ")


def _summarize(summarize, op_name):
    """How many entries a failed assertion prints (3 by default)."""
    return 3 if summarize is None else static_int(summarize, op_name, "summarize")


def _binary_assert(symbol, x, y, message, summarize):
    x, y = convert_pair(x, y, f"assert x {symbol} y")
    attrs = {"symbol": symbol, "message": message or "",
             "summarize": _summarize(summarize, f"assert x {symbol} y"), "where": _where()}
    apply("AssertBinary", [x, y], attrs)
    return None


def assert_equal(x, y, message=None, summarize=None, name=None):
    """Raise InvalidArgumentError unless x == y elementwise (with broadcasting)."""
    return _binary_assert("==", x, y, message, summarize)


def assert_none_equal(x, y, message=None, summarize=None, name=None):
    """Raise InvalidArgumentError unless x != y elementwise."""
    return _binary_assert("!=", x, y, message, summarize)


def assert_greater(x, y, message=None, summarize=None, name=None):
    """Raise InvalidArgumentError unless x > y elementwise."""
    return _binary_assert(">", x, y, message, summarize)


def assert_greater_equal(x, y, message=None, summarize=None, name=None):
    """Raise InvalidArgumentError unless x >= y elementwise."""
    return _binary_assert(">=", x, y, message, summarize)


def assert_less(x, y, message=None, summarize=None, name=None):
    """Raise InvalidArgumentError unless x < y elementwise."""
    return _binary_assert("<", x, y, message, summarize)


def assert_less_equal(x, y, message=None, summarize=None, name=None):
    """Raise InvalidArgumentError unless x <= y elementwise."""
    return _binary_assert("<=", x, y, message, summarize)


def assert_positive(x, message=None, summarize=None, name=None):
    """Raise InvalidArgumentError unless x > 0 elementwise."""
    return _binary_assert(">", x, 0, message, summarize)


def assert_negative(x, message=None, summarize=None, name=None):
    """Raise InvalidArgumentError unless x < 0 elementwise."""
    return _binary_assert("<", x, 0, message, summarize)


def assert_non_negative(x, message=None, summarize=None, name=None):
    """Raise InvalidArgumentError unless x >= 0 elementwise."""
    return _binary_assert(">=", x, 0, message, summarize)


def assert_non_positive(x, message=None, summarize=None, name=None):
    """Raise InvalidArgumentError unless x <= 0 elementwise."""
    return _binary_assert("<=", x, 0, message, summarize)


# --- rank, scalar, type -------------------------------------------------------------

@define_op("AssertRank", infer=lambda inputs, attrs: [], side_effect=True, num_outputs=0)
def _assert_rank(x, *, ranks, at_least, name, message, where):
    actual = np.ndim(x)
    if _rank_ok(actual, ranks, at_least):
        return ()
    raise InvalidArgumentError(_rank_message(message, name, ranks, at_least, actual, np.shape(x))
                               + _at(where), "AssertRank")


not_differentiable("AssertRank")


def _rank_ok(actual, ranks, at_least):
    return actual >= ranks[0] if at_least else actual in ranks


def _rank_message(message, name, ranks, at_least, actual, shape):
    """TensorFlow's text: 'msg.  Tensor x:0 must have rank 2.  Received rank 1, shape (2,)'."""
    prefix = f"{message}.  " if message else ""
    if at_least:
        want = f"rank at least {ranks[0]}"
    elif len(ranks) == 1:
        want = f"rank {ranks[0]}"
    else:
        want = f"rank in {tuple(ranks)}"
    return (f"{prefix}Tensor {name} must have {want}.  Received rank {actual}, "
            f"shape {tuple(shape)}")


def _check_rank(x, ranks, at_least, message, op_name):
    """At once when the rank is known statically (ValueError, as TensorFlow
    does), else when the graph runs (InvalidArgumentError)."""
    x = convert_to_tensor(x)
    name = x.name if current_graph() is not None and hasattr(x, "node") else ""
    known = x.shape.rank
    if known is not None:
        if not _rank_ok(known, ranks, at_least):
            raise ValueError(_rank_message(message, name, ranks, at_least, known,
                                           x.shape.dims))
        return None
    apply("AssertRank", [x], {"ranks": ranks, "at_least": at_least, "name": name,
                              "message": message or "", "where": _where()})
    return None


def assert_rank(x, rank, message=None, name=None):
    """Raise unless `x` has rank `rank` (see `_check_rank` for when)."""
    return _check_rank(x, (static_int(rank, "assert_rank", "rank"),), False, message,
                       "assert_rank")


def assert_rank_at_least(x, rank, message=None, name=None):
    """Raise unless `x` has rank `rank` or more."""
    return _check_rank(x, (static_int(rank, "assert_rank_at_least", "rank"),), True, message,
                       "assert_rank_at_least")


def assert_rank_in(x, ranks, message=None, name=None):
    """Raise unless the rank of `x` is one of `ranks`."""
    ranks = tuple(static_int(r, "assert_rank_in", "ranks") for r in ranks)
    return _check_rank(x, ranks, False, message, "assert_rank_in")


def assert_scalar(tensor, message=None, name=None):
    """ValueError unless `tensor`'s static shape is a scalar's."""
    tensor = convert_to_tensor(tensor)
    if tensor.shape.rank != 0:
        prefix = f"{message}.  " if message else ""
        raise ValueError(f"{prefix}Expected scalar shape, saw shape: {tensor.shape}.")
    return None


def assert_type(tensor, tf_type, message=None, name=None):
    """TypeError unless `tensor` has dtype `tf_type`."""
    tensor = convert_to_tensor(tensor)
    expected = dtypes.as_dtype(tf_type)
    if tensor.dtype != expected:
        prefix = f"{message}.  " if message else ""
        raise TypeError(f"{prefix}tensor must be of type {expected!r}; got {tensor.dtype!r}")
    return None


def assert_integer(x, message=None, name=None):
    """TypeError unless `x` has an integer dtype."""
    x = convert_to_tensor(x)
    if not x.dtype.is_integer:
        prefix = f"{message}.  " if message else ""
        raise TypeError(f'{prefix}Expected "x" to be integer type.  Found: tensor of dtype '
                        f"{x.dtype!r}")
    return None


def is_numeric_tensor(tensor):
    """`tf.debugging.is_numeric_tensor`: a tensor of an integer or floating dtype."""
    return isinstance(tensor, Tensor) and (tensor.dtype.is_integer or tensor.dtype.is_floating)


# --- assert_near --------------------------------------------------------------------

def _infer_near(inputs, attrs):
    _infer_binary_assert(inputs, attrs)
    return []


@define_op("AssertNear", infer=_infer_near, side_effect=True, num_outputs=0)
def _assert_near(x, y, *, rtol, atol, message, summarize, where):
    rtol, atol = np.asarray(rtol, x.dtype)[()], np.asarray(atol, x.dtype)[()]
    ok = np.abs(x - y) <= atol + rtol * np.abs(y)
    if np.all(ok):
        return ()
    lines = [f"{message}.  " if message else "",
             f"x and y not equal to tolerance rtol = {format_element(rtol)}, "
             f"atol = {format_element(atol)}"]
    for label, v in (("x", x), ("y", y)):
        lines.append(f"{label} (shape={tuple(np.shape(v))} dtype={np.asarray(v).dtype.name}) = ")
        lines.append(summarize_v1(v, summarize))
    raise InvalidArgumentError("\n".join(lines) + _at(where), "AssertNear")


not_differentiable("AssertNear")


def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """`tf.debugging.assert_near`: raise InvalidArgumentError unless
    |x - y| <= atol + rtol * |y| elementwise. rtol and atol default to 10 *
    the machine epsilon of the (floating) dtype."""
    x = convert_to_tensor(x)
    if not isinstance(y, Tensor) and not reads_as_tensor(y):
        y = convert_to_tensor(y, x.dtype)
    y = convert_to_tensor(y)
    if y.dtype != x.dtype:
        raise ValueError(f"assert_near: y: Tensor conversion requested dtype {x.dtype.name} "
                         f"for Tensor with dtype {y.dtype.name}")
    if not x.dtype.is_floating:
        raise ValueError(f"assert_near: x and y must be floating point tensors, got "
                         f"{x.dtype.name}")
    eps = np.finfo(x.dtype.np_dtype).eps
    attrs = {"rtol": float(10 * eps if rtol is None else rtol),
             "atol": float(10 * eps if atol is None else atol),
             "message": message or "", "summarize": _summarize(summarize, "assert_near"),
             "where": _where()}
    apply("AssertNear", [x, y], attrs)
    return None


# --- check_numerics ---------------------------------------------------------------

_NUMERIC_DTYPES = ("float16", "float32", "float64")


def _infer_numerics(inputs, attrs):
    x = inputs[0]
    if x.dtype.name not in _NUMERIC_DTYPES:
        raise TypeError(f"Value passed to parameter 'tensor' has DataType {x.dtype.name} not in "
                        "list of allowed values: float16, float32, float64")
    return [(x.dtype, x.shape)]


@define_op("CheckNumerics", infer=_infer_numerics, side_effect=True)
def _check_numerics(x, *, message, where):
    if not dtypes.is_float_array(np.asarray(x).dtype):
        raise TypeError("CheckNumerics needs a floating point tensor")
    nan, inf = bool(np.isnan(x).any()), bool(np.isinf(x).any())
    if not (nan or inf):
        return x
    found = "Inf and NaN" if nan and inf else "NaN" if nan else "Inf"
    raise InvalidArgumentError(f"{message} : Tensor had {found} values{_at(where)}",
                               "CheckNumerics")


@define_grad("CheckNumerics")
def _check_numerics_grad(op, grad):
    return [grad]


def assert_all_finite(t, msg, name=None, x=None, message=None):
    """`tf.debugging.assert_all_finite`: `check_numerics(t, msg)`."""
    return check_numerics(t if x is None else x, msg if message is None else message)


def check_numerics(tensor, message, name=None):
    """`tf.debugging.check_numerics`: `tensor` itself, or InvalidArgumentError
    ("<message> : Tensor had NaN values") when it holds a NaN or an Inf."""
    tensor = convert_to_tensor(tensor)
    return apply("CheckNumerics", [tensor], {"message": str(message), "where": _where()})


# --- is_tensor ------------------------------------------------------------------------

def is_tensor(x):
    """`tf.is_tensor`: True for tensors, Variables and composite tensors
    (SparseTensor, RaggedTensor), False for Python and numpy values."""
    return isinstance(x, Tensor) or reads_as_tensor(x) or is_composite(x)


# --- static checks -------------------------------------------------------------------

def assert_proper_iterable(values):
    """`tf.debugging.assert_proper_iterable`: TypeError unless `values` is an
    iterable that is not a tensor, an array, or a string."""
    if isinstance(values, (Tensor, np.ndarray, str, bytes)) or reads_as_tensor(values):
        raise TypeError(f'Expected argument "values" to be a "proper" iterable.  Found: '
                        f"{type(values)}")
    if not hasattr(values, "__iter__"):
        raise TypeError(f'Expected argument "values" to be iterable.  Found: {type(values)}')


def assert_same_float_dtype(tensors=None, dtype=None):
    """`tf.debugging.assert_same_float_dtype`: the one floating dtype of
    `tensors` (and `dtype`), float32 when neither says; ValueError otherwise."""
    dtype = None if dtype is None else dtypes.as_dtype(dtype)
    first = None
    for t in tensors or ():
        if dtype is None:
            dtype, first = t.dtype, t
        elif t.dtype != dtype:
            against = f" as {first!s}" if first is not None else ""
            raise ValueError(f"{t!s}, type={t.dtype!s}, must be of the same type ({dtype!s})"
                             f"{against}.")
    if dtype is None:
        return dtypes.float32
    if not dtype.is_floating:
        raise ValueError(f"Expected floating point type, got {dtype!s}.")
    return dtype
