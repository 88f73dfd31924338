"""Diagonals, bands, traces and transposes of (batches of) matrices, for
`tf.linalg`: `diag diag_part band_part trace tensor_diag tensor_diag_part
matrix_transpose adjoint`.

    >>> band_part(ones([3, 3]), 1, 0).numpy()
    array([[1., 0., 0.],
           [1., 1., 0.],
           [0., 1., 1.]], dtype=float32)

`diag` and `diag_part` take one diagonal `k` (TF's band of diagonals, `k` a
pair, is not supported); `diag`'s output is square unless `num_rows` /
`num_cols` say otherwise, as TF's MatrixDiagV3 decides.
"""

import numpy as np

from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.manipulation_ops import transpose
from runtime._src.ops.reduction_ops import reduce_sum

__all__ = ["band_part", "diag", "diag_part", "trace", "tensor_diag", "tensor_diag_part",
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


def band_part(input, num_lower, num_upper, name=None):  # noqa: A002
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


def _diagonal_length(rows, cols, k):
    if rows is None or cols is None:
        return None
    return max(min(rows + min(k, 0), cols - max(k, 0)), 0)


def _diag_part_problem(rows, cols, k):
    if rows and cols and not -rows < k < cols:
        return f"lower_diag_index is out of bound: {k}. It must be between {-rows} and {cols}"
    return None


def _infer_diag_part(inputs, attrs):
    x = inputs[0]
    _at_least("MatrixDiagPartV3", x, 2, "input")
    if x.shape.rank is None:
        return [(x.dtype, TensorShape(None))]
    rows, cols = x.shape.dims[-2:]
    problem = _diag_part_problem(rows, cols, attrs["k"])
    if problem:
        raise ValueError(problem)
    return [(x.dtype, TensorShape(list(x.shape.dims[:-2]) +
                                  [_diagonal_length(rows, cols, attrs["k"])]))]


@define_op("MatrixDiagPartV3", infer=_infer_diag_part)
def _diag_part(x, k):
    _check_rank_now("MatrixDiagPartV3", x, 2, "input")
    check_now("MatrixDiagPartV3", _diag_part_problem(*x.shape[-2:], k))
    return np.ascontiguousarray(np.diagonal(x, offset=k, axis1=-2, axis2=-1))


def _diag_size(length, k, num_rows, num_cols):
    """(rows, cols) of MatrixDiag's output, or a problem string (TF's rule)."""
    min_rows, min_cols = length - min(k, 0), length + max(k, 0)
    if num_rows == -1 and num_cols == -1:
        return max(min_rows, min_cols), max(min_rows, min_cols)
    rows = min_rows if num_rows == -1 else num_rows
    cols = min_cols if num_cols == -1 else num_cols
    if rows != min_rows and cols != min_cols:
        return ("The number of rows or columns is not consistent with the specified "
                "d_lower, d_upper, and diagonal.")
    return rows, cols


def _infer_diag(inputs, attrs):
    d = inputs[0]
    if d.shape.rank == 0:
        raise ValueError("diagonal must be at least 1-dim, received shape: []")
    if d.shape.rank is None:
        return [(d.dtype, TensorShape(None))]
    length = d.shape.dims[-1]
    size = [None, None] if length is None else \
        _diag_size(length, attrs["k"], attrs["num_rows"], attrs["num_cols"])
    if isinstance(size, str):
        raise ValueError(size)
    return [(d.dtype, TensorShape(list(d.shape.dims[:-1]) + list(size)))]


@define_op("MatrixDiagV3", infer=_infer_diag)
def _diag(d, k, num_rows, num_cols, padding_value):
    _check_rank_now("MatrixDiagV3", d, 1, "diagonal")
    size = _diag_size(d.shape[-1], k, num_rows, num_cols)
    check_now("MatrixDiagV3", size if isinstance(size, str) else None)
    out = np.full(d.shape[:-1] + tuple(size), padding_value, d.dtype)
    length = _diagonal_length(size[0], size[1], k)
    rows = np.arange(length) - min(k, 0)
    out[..., rows, rows + k] = d[..., :length]
    return out


def _static_k(op, k):
    if isinstance(k, (tuple, list)) and len(k) == 2 and k[0] == k[1]:
        k = k[0]
    if isinstance(k, (tuple, list)) or hasattr(k, "shape") and len(k.shape):
        raise NotImplementedError(f"{op}: a band of diagonals (k a pair) is not supported; "
                                  f"pass one int")
    return rules.static_int(k, op, "k")


def diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0,
         align="RIGHT_LEFT"):
    """A (batch of) matrix with `diagonal` on its k-th diagonal and
    `padding_value` elsewhere (square unless num_rows / num_cols say otherwise)."""
    op = "MatrixDiagV3"
    d = convert_to_tensor(diagonal)
    attrs = {"k": _static_k(op, k), "num_rows": rules.static_int(num_rows, op, "num_rows"),
             "num_cols": rules.static_int(num_cols, op, "num_cols"),
             "padding_value": np.asarray(rules.static_value(convert_to_tensor(
                 padding_value, d.dtype), op, "padding_value")).item()}
    return apply(op, (d,), attrs)


def diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):  # noqa: A002
    """The k-th diagonal of each matrix: shape input.shape[:-2] + [its length]."""
    return apply("MatrixDiagPartV3", (convert_to_tensor(input),),
                 {"k": _static_k("MatrixDiagPartV3", k)})


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


def tensor_diag(diagonal, name=None):
    """A tensor of shape diagonal.shape * 2 with `diagonal` where the first and
    second halves of the index agree, zero elsewhere."""
    return apply("Diag", (convert_to_tensor(diagonal),))


def tensor_diag_part(input, name=None):  # noqa: A002
    """The inverse of tensor_diag: x[i..., i...] for x of shape s + s."""
    return apply("DiagPart", (convert_to_tensor(input),))


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """`a` with its last two dimensions swapped."""
    a = convert_to_tensor(a)
    rank = a.shape.rank
    if rank is None or rank < 2:
        raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  Received "
                         f"`a` with shape: {a.shape}")
    return transpose(a, list(range(rank - 2)) + [rank - 1, rank - 2])


def adjoint(matrix, name=None):
    """The conjugate transpose of the last two dimensions (the transpose: no
    complex dtypes here)."""
    return matrix_transpose(matrix)
