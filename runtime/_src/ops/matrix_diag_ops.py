"""Diagonals, bands, traces and transposes of (batches of) matrices, for
`tf.linalg`: `diag diag_part band_part trace tensor_diag tensor_diag_part
matrix_transpose adjoint`.

    >>> band_part(ones([3, 3]), 1, 0).numpy()
    array([[1., 0., 0.],
           [1., 1., 0.],
           [0., 1., 1.]], dtype=float32)

`diag` and `diag_part` take one diagonal `k` or a band `k = (lower, upper)`,
with TF's `align` and `padding_value`; `diag`'s output is square unless
`num_rows` / `num_cols` say otherwise, as TF's MatrixDiagV3 decides.
"""

import numpy as np

from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.graph.op_registry import define_grad  # gradients
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.manipulation_ops import transpose
from runtime._src.ops.reduction_ops import reduce_sum

__all__ = ["band_part", "diag", "diag_part", "trace", "set_diag", "tensor_diag", "tensor_diag_part",
           "matrix_transpose", "adjoint"]


def check_now(op, *problems):
    """Raise a running kernel's first problem (a string, or None) as TF does:
    InvalidArgumentError naming the op."""
    for problem in problems:
        if problem:
            raise InvalidArgumentError(f"{op}: {problem}", op)


def _at_least(op, x, rank, what):
    if x.shape.rank is not None and x.shape.rank < rank:
        raise ValueError(f"{op}: {what} must be at least {rank}-dim, received shape: "
                         f"{rules.dims_text(x.shape)}")


def _check_rank_now(op, x, rank, what):
    if x.ndim < rank:
        raise InvalidArgumentError(f"{op}: {what} must be at least {rank}-dim, received "
                                   f"shape: {list(x.shape)}", op)


def _band_problem(rows, cols, lower, upper):
    if lower is not None and rows is not None and lower > rows:
        return (f"num_lower must be negative or less or equal to number of rows ({rows}) "
                f"got: {lower}")
    if upper is not None and cols is not None and upper > cols:
        return (f"num_upper must be negative or less or equal to number of columns ({cols}) "
                f"got: {upper}")
    return None


def _infer_band_part(inputs, attrs):
    x, lower, upper = inputs
    _at_least("MatrixBandPart", x, 2, "input")
    if x.shape.rank is not None:
        known = [rules.constant_value(t) for t in (lower, upper)]
        known = [None if v is None else int(v) for v in known]
        problem = _band_problem(x.shape.dims[-2], x.shape.dims[-1], *known)
        if problem:
            raise ValueError(problem)
    return [(x.dtype, x.shape)]


@define_op("MatrixBandPart", infer=_infer_band_part)
def _band_part(x, lower, upper):
    _check_rank_now("MatrixBandPart", x, 2, "input")
    rows, cols = x.shape[-2:]
    lower, upper = int(lower), int(upper)
    check_now("MatrixBandPart", _band_problem(rows, cols, lower, upper))
    below = np.arange(rows)[:, None] - np.arange(cols)[None, :]   # i - j
    keep = ((lower < 0) | (below <= lower)) & ((upper < 0) | (-below <= upper))
    return np.where(keep, x, np.zeros((), x.dtype))


@define_grad("MatrixBandPart")
def _band_part_grad(op, grad):
    return [apply("MatrixBandPart", (grad, *op.inputs[1:])), None, None]


def band_part(input, num_lower, num_upper, name=None):
    """`input` with everything outside the band zeroed: keep [i, j] when
    (num_lower < 0 or i - j <= num_lower) and (num_upper < 0 or j - i <= num_upper)."""
    x = convert_to_tensor(input)
    bounds = []
    for value, what in ((num_lower, "num_lower"), (num_upper, "num_upper")):
        if not hasattr(value, "dtype"):
            value = convert_to_tensor(np.int64(rules.static_int(value, "MatrixBandPart", what)))
        if not value.dtype.is_integer:
            raise TypeError(f"MatrixBandPart: {what} must be an integer, got a "
                            f"{value.dtype.name} tensor")
        bounds.append(value)
    return apply("MatrixBandPart", (x, *bounds))


# --- diag and diag_part: one diagonal k, or a band k = (lower, upper) --------------------
#
# A band's diagonals are stacked from the upper one down, each padded to the
# longest: [..., upper - lower + 1, max_len]. `align` says which end a shorter
# diagonal sits at: its first half for superdiagonals (d >= 0), its second for
# subdiagonals (d <= 0); TF's default RIGHT_LEFT puts superdiagonals right.

ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _diagonal_length(rows, cols, d):
    if rows is None or cols is None:
        return None
    return max(min(rows + min(d, 0), cols - max(d, 0)), 0)


def _longest(rows, cols, k):
    """The longest diagonal of band k: TF's max_diag_len."""
    return max(min(rows + min(k[1], 0), cols - max(k[0], 0)), 0)


def _band_cells(rows, cols, k, align):
    """For each diagonal d of band k, top one first: (its index in the stack, the
    (row, col) of its cells, where they sit in the padded diagonal)."""
    longest = _longest(rows, cols, k)
    for i, d in enumerate(range(k[1], k[0] - 1, -1)):
        m = np.arange(_diagonal_length(rows, cols, d))
        left = (d >= 0 and align.startswith("LEFT")) or (d <= 0 and align.endswith("LEFT"))
        offset = 0 if left else longest - len(m)
        yield i, (m - min(d, 0), m + max(d, 0)), offset + m


def _order_problem(k):
    if k[0] > k[1]:
        return f"lower_diag_index must not be larger than upper_diag_index: {k[0]} > {k[1]}"
    return None


def _diag_part_problem(rows, cols, k):
    if rows is not None and cols is not None:
        if not (-rows < k[0] < cols or k[0] == 0):
            return (f"lower_diag_index is out of bound: {k[0]}. It must be between {-rows} "
                    f"and {cols}")
        if not (-rows < k[1] < cols or k[1] == 0):
            return (f"upper_diag_index is out of bound: {k[1]}. It must be between {-rows} "
                    f"and {cols}")
    return _order_problem(k)


def _infer_diag_part(inputs, attrs):
    x, k = inputs[0], attrs["k"]
    _at_least("MatrixDiagPartV3", x, 2, "input")
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))]
    rows, cols = x.shape.dims[-2:]
    problem = _diag_part_problem(rows, cols, k)
    if problem:
        raise ValueError(problem)
    longest = None if rows is None or cols is None else _longest(rows, cols, k)
    band = [] if k[0] == k[1] else [k[1] - k[0] + 1]
    return [(x.dtype, TensorShape(list(x.shape.dims[:-2]) + band + [longest]))]


@define_op("MatrixDiagPartV3", infer=_infer_diag_part)
def _diag_part(x, k, padding_value, align):
    _check_rank_now("MatrixDiagPartV3", x, 2, "input")
    rows, cols = x.shape[-2:]
    check_now("MatrixDiagPartV3", _diag_part_problem(rows, cols, k))
    longest = _longest(rows, cols, k)
    out = np.full(x.shape[:-2] + (k[1] - k[0] + 1, longest), padding_value, x.dtype)
    for i, (r, c), at in _band_cells(rows, cols, k, align):
        out[..., i, at] = x[..., r, c]
    return out[..., 0, :] if k[0] == k[1] else out


@define_grad("MatrixDiagPartV3")
def _diag_part_grad(op, grad):
    # The band's cells get their diagonal's gradient, every other cell (and the
    # padding) nothing: diag of the gradient into a matrix of x's size.
    x, attrs = op.inputs[0], op.attrs
    dims = x.shape.dims[-2:] if x.shape.rank is not None else (None, None)
    if None not in dims:
        return [apply("MatrixDiagV3", (grad,), {
            "k": attrs["k"], "num_rows": dims[0], "num_cols": dims[1], "padding_value": 0,
            "align": attrs["align"]})]
    return [apply("MatrixSetDiagV3", (apply("ZerosLike", (x,), {"dtype": None}), grad),
                  {"k": attrs["k"], "align": attrs["align"]})]


def _diag_size(longest, k, num_rows, num_cols):
    """(rows, cols) of MatrixDiag's output, or a problem string (TF's rule)."""
    min_rows, min_cols = longest - min(k[1], 0), longest + max(k[0], 0)
    if num_rows != -1 and num_rows < min_rows:
        return "The number of rows is too small."
    if num_cols != -1 and num_cols < min_cols:
        return "The number of columns is too small."
    if num_rows == -1 and num_cols == -1:
        return max(min_rows, min_cols), max(min_rows, min_cols)
    rows = min_rows if num_rows == -1 else num_rows
    cols = min_cols if num_cols == -1 else num_cols
    if rows != min_rows and cols != min_cols:
        return ("The number of rows or columns is not consistent with the specified "
                "d_lower, d_upper, and diagonal.")
    return rows, cols


def _diag_problem(shape, k):
    """What is wrong with MatrixDiag's diagonal shape for band k, or None."""
    band = k[0] != k[1]
    if shape.rank is not None and shape.rank < 1 + band:
        return (f"diagonal must be at least {1 + band}-dim, received shape: "
                f"{rules.dims_text(shape)}")
    if band and shape.rank is not None and shape.dims[-2] not in (None, k[1] - k[0] + 1):
        return ("The number of diagonals provided in the input does not match the "
                "lower_diag_index and upper_diag_index range.")
    return _order_problem(k)


def _infer_diag(inputs, attrs):
    d, k = inputs[0], attrs["k"]
    problem = _diag_problem(d.shape, k)
    if problem:
        raise ValueError(problem)
    if d.shape.rank is None:
        return [(d.dtype, TensorShape(None))]
    longest = d.shape.dims[-1]
    size = [None, None] if longest is None else \
        _diag_size(longest, k, attrs["num_rows"], attrs["num_cols"])
    if isinstance(size, str):
        raise ValueError(size)
    batch = d.shape.dims[:-2] if k[0] != k[1] else d.shape.dims[:-1]
    return [(d.dtype, TensorShape(list(batch) + list(size)))]


@define_op("MatrixDiagV3", infer=_infer_diag)
def _diag(d, k, num_rows, num_cols, padding_value, align):
    check_now("MatrixDiagV3", _diag_problem(TensorShape(d.shape), k))
    size = _diag_size(d.shape[-1], k, num_rows, num_cols)
    check_now("MatrixDiagV3", size if isinstance(size, str) else None)
    stack = d[..., None, :] if k[0] == k[1] else d
    out = np.full(stack.shape[:-2] + tuple(size), padding_value, d.dtype)
    for i, (r, c), at in _band_cells(size[0], size[1], k, align):
        out[..., r, c] = stack[..., i, at]
    return out


@define_grad("MatrixDiagV3")
def _diag_grad(op, grad):
    attrs = op.attrs
    return [apply("MatrixDiagPartV3", (grad,), {"k": attrs["k"], "padding_value": 0,
                                                "align": attrs["align"]})]


def _infer_set_diag(inputs, attrs):
    x = inputs[0]
    _at_least("MatrixSetDiagV3", x, 2, "input")
    return [(x.dtype, x.shape)]


@define_op("MatrixSetDiagV3", infer=_infer_set_diag)
def _set_diag(x, d, k, align):
    """x with the diagonals of band k replaced by `d` (as diag_part gives
    them); the gradient of diag_part where x's size is known only at run time."""
    rows, cols = x.shape[-2:]
    check_now("MatrixSetDiagV3", _diag_part_problem(rows, cols, k))
    out = x.copy()
    stack = d[..., None, :] if k[0] == k[1] else d
    for i, (r, c), at in _band_cells(rows, cols, k, align):
        out[..., r, c] = stack[..., i, at]
    return out


@define_grad("MatrixSetDiagV3")
def _set_diag_grad(op, grad):
    attrs = {"k": op.attrs["k"], "align": op.attrs["align"]}
    no_band = apply("ZerosLike", (op.inputs[1],), {"dtype": None})
    return [apply("MatrixSetDiagV3", (grad, no_band), attrs),
            apply("MatrixDiagPartV3", (grad,), dict(attrs, padding_value=0))]


def _diag_attrs(op, k, padding_value, align, dtype):
    """k as a (lower, upper) pair, the padding as a Python scalar, align checked."""
    pair = rules.static_ints(k, op, "k")
    if len(pair) not in (1, 2):
        raise ValueError(f"{op}: k must have one or two elements, got {len(pair)}")
    if align not in ALIGNS:
        raise ValueError(f"{op}: align must be one of {', '.join(ALIGNS)}, got {align!r}")
    pad = rules.static_value(convert_to_tensor(padding_value, dtype), op, "padding_value")
    return {"k": (pair[0], pair[-1]), "padding_value": np.asarray(pad).item(), "align": align}


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0,
         align="RIGHT_LEFT"):
    """A (batch of) matrix with `diagonal` on its k-th diagonal (with k a pair
    (lower, upper): the stacked diagonals of that band) and `padding_value`
    elsewhere; square unless num_rows / num_cols say otherwise."""
    op = "MatrixDiagV3"
    d = convert_to_tensor(diagonal)
    attrs = _diag_attrs(op, k, padding_value, align, d.dtype)
    attrs["num_rows"] = rules.static_int(num_rows, op, "num_rows")
    attrs["num_cols"] = rules.static_int(num_cols, op, "num_cols")
    return apply(op, (d,), attrs)


def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):
    """The k-th diagonal of each matrix ([..., its length]); with k a pair
    (lower, upper), that band's diagonals stacked from the top, each padded with
    `padding_value` to the longest ([..., upper - lower + 1, longest])."""
    x = convert_to_tensor(input)
    return apply("MatrixDiagPartV3", (x,),
                 _diag_attrs("MatrixDiagPartV3", k, padding_value, align, x.dtype))


def set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):
    """`tf.linalg.set_diag`: input with its k-th diagonal (or the band k =
    (lower, upper), stacked from the top as `diag_part` gives it) replaced."""
    op = "MatrixSetDiagV3"
    x = convert_to_tensor(input)
    d = convert_to_tensor(diagonal, x.dtype)
    attrs = _diag_attrs(op, k, 0, align, x.dtype)
    del attrs["padding_value"]
    return apply(op, (x, d), attrs)


def trace(x, name=None):
    """The sum of each matrix's main diagonal: reduce_sum(diag_part(x), -1)."""
    return reduce_sum(diag_part(x), -1)


def _infer_tensor_diag(inputs, attrs):
    x = inputs[0]
    if x.shape.rank == 0:
        raise ValueError("Input must be at least rank 1, got 0")
    dims = None if x.shape.rank is None else list(x.shape.dims) * 2
    return [(x.dtype, TensorShape(dims))]


@define_op("Diag", infer=_infer_tensor_diag)
def _tensor_diag(x):
    if x.ndim == 0:
        raise InvalidArgumentError("Diag: Input must be at least rank 1, got 0", "Diag")
    out = np.zeros((x.size, x.size), x.dtype)
    out[np.arange(x.size), np.arange(x.size)] = x.reshape(-1)
    return out.reshape(x.shape * 2)


@define_grad("Diag")
def _tensor_diag_grad(op, grad):
    return [apply("DiagPart", (grad,))]


def _tensor_diag_part_problem(dims):
    half = len(dims) // 2
    if not dims or len(dims) % 2:
        return f"The rank of the tensor should be even and positive, got shape {list(dims)}"
    for i in range(half):
        if dims[i] is not None and dims[i + half] is not None and dims[i] != dims[i + half]:
            return (f"Invalid shape {list(dims)}: dimensions {i} and {i + half} do not "
                    f"match.")
    return None


def _infer_tensor_diag_part(inputs, attrs):
    x = inputs[0]
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))]
    problem = _tensor_diag_part_problem(x.shape.dims)
    if problem:
        raise ValueError(problem)
    half = x.shape.rank // 2
    return [(x.dtype, TensorShape([a if a is not None else b for a, b in
                                   zip(x.shape.dims[:half], x.shape.dims[half:])]))]


@define_op("DiagPart", infer=_infer_tensor_diag_part)
def _tensor_diag_part(x):
    check_now("DiagPart", _tensor_diag_part_problem(x.shape))
    shape = x.shape[:x.ndim // 2]
    size = int(np.prod(shape))
    return np.diagonal(x.reshape(size, size)).reshape(shape).copy()


@define_grad("DiagPart")
def _tensor_diag_part_grad(op, grad):
    return [apply("Diag", (grad,))]


def tensor_diag(diagonal, name=None):
    """A tensor of shape diagonal.shape * 2 with `diagonal` where the first and
    second halves of the index agree, zero elsewhere."""
    return apply("Diag", (convert_to_tensor(diagonal),))


def tensor_diag_part(input, name=None):
    """The inverse of tensor_diag: x[i..., i...] for x of shape s + s."""
    return apply("DiagPart", (convert_to_tensor(input),))


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """`a` with its last two dimensions swapped."""
    a = convert_to_tensor(a)
    rank = a.shape.rank
    if rank is None or rank < 2:
        raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  Received "
                         f"`a` with shape: {a.shape}")
    swapped = transpose(a, list(range(rank - 2)) + [rank - 1, rank - 2])
    return apply("Conj", (swapped,)) if conjugate and a.dtype.is_complex else swapped


def adjoint(matrix, name=None):
    """The conjugate transpose of the last two dimensions."""
    return matrix_transpose(matrix, conjugate=True)
