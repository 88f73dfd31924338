"""Linear solves (`tf.linalg.solve`, `triangular_solve`, `cholesky_solve`,
`lstsq`) and `matvec`, with their gradients; the decompositions they build on
are in linalg_ops.py, whose docstring gives TF's conventions for both.

`solve` needs equal batch dimensions; `triangular_solve`, `matvec`,
`cholesky_solve` and `lstsq` broadcast them. `solve` of a singular matrix
raises InvalidArgumentError "Input matrix is not invertible."; a zero on
`triangular_solve`'s diagonal gives inf/NaN, as TF."""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.graph.op_registry import define_grad  # gradients
from runtime._src.ops import math_ops
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import eye, ones_like, shape
from runtime._src.ops.indexing import getitem
from runtime._src.ops.manipulation_ops import expand_dims, squeeze
from runtime._src.ops.math_ops import matmul
from runtime._src.ops.matrix_diag_ops import check_now
from runtime._src.ops.linalg_ops import (_adjoint, _band, _cholesky, _matrix_input, _matrix_problem,
                                         _transposed, cholesky)

__all__ = ["solve", "triangular_solve", "cholesky_solve", "lstsq", "matvec"]


# --- solves -----------------------------------------------------------------------------------

def _solve_problem(a_shape, b_shape, op):
    """What is wrong with (matrix, rhs) shapes for MatrixSolve / MatrixTriangularSolve."""
    problem = _matrix_problem(a_shape, which="Input") or \
        _matrix_problem(b_shape, square=False, which="Right-hand side")
    if problem or a_shape.rank is None or b_shape.rank is None:
        return problem
    if op == "MatrixSolve" and a_shape.rank != b_shape.rank:
        return (f"All input tensors must have the same rank, got shapes "
                f"{rules.dims_text(a_shape)} and {rules.dims_text(b_shape)}")
    m, k = a_shape.dims[-1], b_shape.dims[-2]
    if m is not None and k is not None and m != k:
        return (f"Input matrix and rhs are incompatible: shapes {rules.dims_text(a_shape)} "
                f"and {rules.dims_text(b_shape)}")
    batch_a, batch_b = TensorShape(a_shape.dims[:-2]), TensorShape(b_shape.dims[:-2])
    if op == "MatrixSolve":
        if not batch_a.is_compatible_with(batch_b):
            return (f"All input tensors must have the same outer dimensions, got shapes "
                    f"{rules.dims_text(a_shape)} and {rules.dims_text(b_shape)}")
        return None
    try:
        rules.broadcast_shapes(batch_a, batch_b)
    except ValueError as e:
        return str(e)
    return None


def _two_matrix_rule(problem, last_two):
    """A shape rule for (matrix, rhs) ops: `problem(a_shape, b_shape)` says what
    is wrong or None; the output has the broadcast batch dimensions, then
    `last_two(a_dims, b_dims)`."""
    def infer(inputs, attrs):
        a, b = inputs[:2]
        rules.check_same_dtype(a, b)
        found = problem(a.shape, b.shape)
        if found:
            raise ValueError(found)
        if a.shape.rank is None or b.shape.rank is None:
            return [(a.dtype, TensorShape(None))]
        batch = rules.broadcast_shapes(TensorShape(a.shape.dims[:-2]),
                                       TensorShape(b.shape.dims[:-2]))
        return [(a.dtype, TensorShape(list(batch.dims) + last_two(a.shape.dims,
                                                                   b.shape.dims)))]
    return infer


def _infer_solve(op):
    return _two_matrix_rule(lambda a, b: _solve_problem(a, b, op), lambda a, b: list(b[-2:]))


@define_op("MatrixSolve", infer=_infer_solve("MatrixSolve"))
def _solve(a, b, adjoint):
    check_now("MatrixSolve", _solve_problem(TensorShape(a.shape), TensorShape(b.shape),
                                             "MatrixSolve"))
    a = _adjoint(a) if adjoint else a
    if np.isnan(a).any():
        raise InvalidArgumentError("MatrixSolve: Input matrix is not invertible.", "MatrixSolve")
    try:
        return np.linalg.solve(a, b).astype(b.dtype, copy=False)
    except np.linalg.LinAlgError:
        raise InvalidArgumentError("MatrixSolve: Input matrix is not invertible.",
                                   "MatrixSolve") from None


@define_grad("MatrixSolve")
def _solve_grad(op, grad):
    a, _ = op.inputs
    x, adjoint = op.outputs[0], op.attrs["adjoint"]
    gb = apply("MatrixSolve", (a, grad), {"adjoint": not adjoint})
    if adjoint:
        return [math_ops.negative(matmul(x, gb, transpose_b=True)), gb]
    return [math_ops.negative(matmul(gb, x, transpose_b=True)), gb]


@define_op("MatrixTriangularSolve", infer=_infer_solve("MatrixTriangularSolve"))
def _triangular_solve(a, b, lower, adjoint):
    """Substitution, one row per step (vectorized over batch and columns): a
    zero on the diagonal gives inf/NaN as in TF, not an error."""
    check_now("MatrixTriangularSolve", _solve_problem(TensorShape(a.shape),
                                                       TensorShape(b.shape),
                                                       "MatrixTriangularSolve"))
    a = np.tril(a) if lower else np.triu(a)
    if adjoint:
        a, lower = _adjoint(a), not lower
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    x = np.zeros(batch + b.shape[-2:], np.result_type(a, b))
    b = np.broadcast_to(b, x.shape)
    n = a.shape[-1]
    with np.errstate(divide="ignore", invalid="ignore"):     # inf / NaN, as TF gives
        for i in (range(n) if lower else range(n - 1, -1, -1)):
            known = np.matmul(a[..., i:i + 1, :], x)[..., 0, :]
            x[..., i, :] = (b[..., i, :] - known) / a[..., i, i][..., None]
    return x


@define_grad("MatrixTriangularSolve")
def _triangular_solve_grad(op, grad):
    a, _ = op.inputs
    x, lower, adjoint = op.outputs[0], op.attrs["lower"], op.attrs["adjoint"]
    gb = apply("MatrixTriangularSolve", (a, grad), {"lower": lower, "adjoint": not adjoint})
    ga = matmul(x, gb, transpose_b=True) if adjoint else matmul(gb, x, transpose_b=True)
    return [math_ops.negative(_band(ga, -1, 0) if lower else _band(ga, 0, -1)), gb]


def _solve_inputs(op, matrix, rhs):
    matrix = _matrix_input(op, matrix)
    rhs = convert_to_tensor(rhs, matrix.dtype) if not hasattr(rhs, "dtype") \
        else convert_to_tensor(rhs)
    if rhs.dtype != matrix.dtype:
        raise TypeError(f"{op}: matrix and rhs must have the same dtype, got "
                        f"{matrix.dtype.name} and {rhs.dtype.name}; use tf.cast to convert one")
    return matrix, rhs


def solve(matrix, rhs, adjoint=False, name=None):
    """X with matrix @ X == rhs (adjoint(matrix) @ X with `adjoint=True`); matrix
    and rhs have the same batch dimensions; a singular matrix is an error."""
    adjoint = rules.static_bool(adjoint, "MatrixSolve", "adjoint")
    return apply("MatrixSolve", _solve_inputs("MatrixSolve", matrix, rhs),
                 {"adjoint": adjoint})


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """X with matrix @ X == rhs, reading only matrix's lower (or upper) triangle;
    batch dimensions broadcast."""
    op = "MatrixTriangularSolve"
    attrs = {"lower": rules.static_bool(lower, op, "lower"),
             "adjoint": rules.static_bool(adjoint, op, "adjoint")}
    return apply(op, _solve_inputs(op, matrix, rhs), attrs)


def cholesky_solve(chol, rhs, name=None):
    """X with A @ X == rhs, given chol = cholesky(A): two triangular solves."""
    y = triangular_solve(chol, rhs, lower=True, adjoint=False)
    return triangular_solve(chol, y, lower=True, adjoint=True)


def _least_squares_problem(a_shape, b_shape):
    problem = _matrix_problem(a_shape, square=False) or \
        _matrix_problem(b_shape, square=False, which="Right-hand side")
    if problem or a_shape.rank is None or b_shape.rank is None:
        return problem
    m, k = a_shape.dims[-2], b_shape.dims[-2]
    if m is not None and k is not None and m != k:
        return (f"Matrix size-incompatible: matrix {rules.dims_text(a_shape)} and rhs "
                f"{rules.dims_text(b_shape)}")
    try:
        rules.broadcast_shapes(TensorShape(a_shape.dims[:-2]), TensorShape(b_shape.dims[:-2]))
    except ValueError as e:
        return str(e)
    return None


@define_op("MatrixSolveLs", infer=_two_matrix_rule(_least_squares_problem,
                                                    lambda a, b: [a[-1], b[-1]]))
def _least_squares(a, b, l2, fast):
    """The kernel behind `lstsq` when the matrix's size is unknown while tracing
    (`fast`: the regularized normal equations through Cholesky, as the composed
    form), and always for `fast=False` (the minimum-norm solution, l2 ignored)."""
    check_now("MatrixSolveLs", _least_squares_problem(TensorShape(a.shape),
                                                      TensorShape(b.shape)))
    if not fast:
        return np.matmul(np.linalg.pinv(a), b).astype(a.dtype, copy=False)
    at = _adjoint(a)
    over = a.shape[-2] >= a.shape[-1]
    gramian = np.matmul(at, a) if over else np.matmul(a, at)
    gramian = gramian + a.dtype.type(l2) * np.eye(gramian.shape[-1], dtype=a.dtype)
    chol = _cholesky(gramian)

    def chol_solve(rhs):
        return _triangular_solve(chol, _triangular_solve(chol, rhs, True, False), True, True)
    if over:
        return chol_solve(np.matmul(at, b))
    return np.matmul(at, chol_solve(b))


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """X minimizing ||matrix @ X - rhs||^2 + l2_regularizer * ||X||^2.

    `fast=True` (TF's default) solves the regularized normal equations with a
    Cholesky factorization, as TF composes it (NaN for a rank-deficient matrix
    without regularization); `fast=False` gives the minimum-norm solution and
    ignores `l2_regularizer`, as TF's kernel does.
    """
    op = "MatrixSolveLs"
    matrix, rhs = _solve_inputs(op, matrix, rhs)
    fast = rules.static_bool(fast, op, "fast")
    dims = None if matrix.shape.rank is None else matrix.shape.dims[-2:]
    if not fast or dims is None or None in dims:
        return apply(op, (matrix, rhs, _regularizer(l2_regularizer, matrix.dtype)),
                     {"fast": fast})
    over = dims[0] >= dims[1]                     # A^T A is the smaller Gramian
    l2 = l2_regularizer if hasattr(l2_regularizer, "dtype") or l2_regularizer != 0 else None
    chol = _gramian_cholesky(matrix, l2, over)
    if over:
        return cholesky_solve(chol, matmul(matrix, rhs, adjoint_a=True))
    return matmul(matrix, cholesky_solve(chol, rhs), adjoint_a=True)


def _gramian_cholesky(a, l2, first_kind):
    """cholesky(A^T A + l2 I) (`first_kind`) or cholesky(A A^T + l2 I); l2 None: none."""
    gramian = matmul(a, a, adjoint_a=first_kind, adjoint_b=not first_kind)
    if l2 is not None:
        l2 = _regularizer(l2, a.dtype)
        size = gramian.shape.dims[-1] if gramian.shape.rank is not None else None
        identity = eye(size, dtype=a.dtype) if size is not None else _band(ones_like(gramian),
                                                                            0, 0)
        gramian = math_ops.add(gramian, math_ops.multiply(l2, identity))
    return cholesky(gramian)


def _regularizer(l2, dtype):
    """l2 as a scalar of the matrix's dtype: a Python number converted directly
    (0.3 stays 0.3 in float64, not float32's 0.30000001), a tensor cast."""
    return math_ops.cast(l2, dtype) if hasattr(l2, "dtype") else convert_to_tensor(l2, dtype)


@define_grad("MatrixSolveLs")
def _least_squares_grad(op, grad):
    if not op.attrs["fast"]:
        raise ValueError("Gradient not defined for fast=False")
    a, b, l2 = op.inputs
    x = op.outputs[0]
    dims = None if a.shape.rank is None else a.shape.dims[-2:]
    if dims is not None and None not in dims:
        rule = _least_squares_grad_tall if dims[0] >= dims[1] else _least_squares_grad_wide
        return rule(a, b, l2, x, grad) + [None]
    # The matrix's size is known only at run time: both forms, the right one picked.
    size = shape(a, dtypes.int64)
    tall = math_ops.greater_equal(getitem(size, -2), getitem(size, -1))
    return [math_ops.where(tall, t, w) for t, w in
            zip(_least_squares_grad_tall(a, b, l2, x, grad),
                _least_squares_grad_wide(a, b, l2, x, grad))] + [None]


def _least_squares_grad_tall(a, b, l2, x, grad):
    # X = (A^T A + l2 I)^-1 A^T B
    z = cholesky_solve(_gramian_cholesky(a, l2, True), grad)
    xz = matmul(x, z, adjoint_b=True)
    grad_a = math_ops.subtract(matmul(b, z, adjoint_b=True),
                               matmul(a, math_ops.add(xz, _transposed(xz))))
    return [grad_a, matmul(a, z)]


def _least_squares_grad_wide(a, b, l2, x, grad):
    # X = A^T (A A^T + l2 I)^-1 B
    chol = _gramian_cholesky(a, l2, False)
    grad_b = cholesky_solve(chol, matmul(a, grad))
    y = cholesky_solve(chol, b)
    grad_a = math_ops.add(
        math_ops.negative(matmul(grad_b, matmul(y, a, adjoint_a=True))),
        matmul(y, math_ops.subtract(grad, matmul(a, grad_b, adjoint_a=True)), adjoint_b=True))
    return [grad_a, grad_b]


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None):
    """a @ b for matrices a [..., M, N] and vectors b [..., N]: [..., M]."""
    b = convert_to_tensor(b, a.dtype) if hasattr(a, "dtype") and not hasattr(b, "dtype") \
        else convert_to_tensor(b)
    product = matmul(a, expand_dims(b, -1), transpose_a=transpose_a, adjoint_a=adjoint_a)
    return squeeze(product, [-1])
