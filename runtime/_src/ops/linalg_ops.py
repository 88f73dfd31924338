"""Linear algebra (`tf.linalg.*`): `inv det slogdet cholesky qr svd eigh eigvalsh`
as kernels, and `logdet` composed from ops as TensorFlow does. The solves
(`solve triangular_solve` as kernels, `matvec cholesky_solve lstsq` composed)
are in linalg_solve_ops.py; diagonals, bands, traces and transposes in
matrix_diag_ops.py.

Every op works on the last two dimensions and batches over the leading ones:

    >>> det(constant([[[2.0, 0.0], [0.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([ 6., -2.], dtype=float32)>

TensorFlow's conventions, which differ from numpy's where noted:
- `svd` returns `(s, u, v)` with `a == u @ diag(s) @ transpose(v)`: `v`, not
  numpy's `vh`, and `s` first;
- `cholesky` and `eigh` read only the lower triangle; a matrix that is not
  positive definite gives NaN in the Cholesky factor (TF's CPU kernel), not an
  error;
- `inv` of a singular matrix raises InvalidArgumentError "Input is not
  invertible.", `solve` "Input matrix is not invertible."; `triangular_solve`
  with a zero on the diagonal gives inf/NaN; `det` and `slogdet` give 0 and
  (0, -inf);
- `solve` needs equal batch dimensions; `triangular_solve`, `matvec`,
  `cholesky_solve` and `lstsq` broadcast them.
Decompositions run on float32 and float64 (`inv` and `qr` also on float16,
computed in float32), as TF's CPU kernels do.
"""

import collections

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.graph.op_registry import define_grad  # gradients
from runtime._src.ops import math_ops
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.indexing import getitem
from runtime._src.ops.manipulation_ops import concat, expand_dims
from runtime._src.ops.base_ops import FLOATS, dtype_error
from runtime._src.ops.math_ops import matmul
from runtime._src.ops.matrix_diag_ops import check_now, diag, diag_part
from runtime._src.ops.reduction_ops import reduce_sum

__all__ = ["inv", "det", "slogdet", "logdet", "cholesky", "qr", "svd", "eigh", "eigvalsh"]

MATRIX_FLOATS = frozenset((dtypes.float32, dtypes.float64))   # TF's CPU decompositions

# The named results TF gives `qr` and `slogdet` (`tf.linalg.qr(a).q`).
Qr = collections.namedtuple("Qr", ["q", "r"])
LogMatrixDeterminant = collections.namedtuple("LogMatrixDeterminant",
                                              ["sign", "log_abs_determinant"])


# --- shape rules and checks shared by the kernels ---------------------------------------

def _matrix_problem(shape, square=True, which="Input"):
    """What is wrong with a (batch of) matrix shape, or None (unknown dims pass)."""
    if shape.rank is None:
        return None
    if shape.rank < 2:
        return f"{which} must have rank >= 2, got shape {rules.dims_text(shape)}"
    m, n = shape.dims[-2:]
    if square and m is not None and n is not None and m != n:
        return f"{which} matrix must be square, got shape {rules.dims_text(shape)}"
    return None


def _matrix_rule(outputs, square=True):
    """A shape rule for one-matrix ops: `outputs(dims, attrs)` gives the output
    dims (a list, None for unknown rank) from the input's dims."""
    def infer(inputs, attrs):
        x = inputs[0]
        problem = _matrix_problem(x.shape, square)
        if problem:
            raise ValueError(problem)
        dims = None if x.shape.rank is None else list(x.shape.dims)
        return [(x.dtype, TensorShape(d)) for d in outputs(dims, attrs)]
    return infer


def _same(dims, attrs):
    return [dims]


def _batch(dims, attrs):
    return [None if dims is None else dims[:-2]]


def _working(x):
    """float16 computed in float32, as TF's CPU kernels do."""
    return x.astype(np.float32) if x.dtype == np.float16 else x


def _adjoint(x):
    return np.swapaxes(x, -1, -2)


# --- inverse, determinants, Cholesky --------------------------------------------------------

@define_op("MatrixInverse", infer=_matrix_rule(_same))
def _inverse(x, adjoint):
    check_now("MatrixInverse", _matrix_problem(TensorShape(x.shape)))
    a = _working(_adjoint(x) if adjoint else x)
    if np.isnan(a).any():
        raise InvalidArgumentError("MatrixInverse: Input is not invertible.", "MatrixInverse")
    try:
        return np.linalg.inv(a).astype(x.dtype, copy=False)
    except np.linalg.LinAlgError:
        raise InvalidArgumentError("MatrixInverse: Input is not invertible.",
                                   "MatrixInverse") from None


@define_grad("MatrixInverse")
def _inverse_grad(op, grad):
    # y = inv(x): dL/dx = -y^T g y^T; with adjoint (y = inv(x)^T): -y g^T y.
    y = op.outputs[0]
    if op.attrs["adjoint"]:
        return [math_ops.negative(matmul(matmul(y, grad, transpose_b=True), y))]
    return [math_ops.negative(matmul(matmul(y, grad, transpose_a=True), y, transpose_b=True))]


@define_op("MatrixDeterminant", infer=_matrix_rule(_batch))
def _determinant(x):
    check_now("MatrixDeterminant", _matrix_problem(TensorShape(x.shape)))
    return np.asarray(np.linalg.det(x), x.dtype)


@define_grad("MatrixDeterminant")
def _determinant_grad(op, grad):
    x, det = op.inputs[0], op.outputs[0]
    scale = expand_dims(expand_dims(math_ops.multiply(grad, det), -1), -1)
    return [math_ops.multiply(scale, _inverse_transposed(x))]


def _inverse_transposed(x):
    return apply("MatrixInverse", (x,), {"adjoint": True})


@define_op("LogMatrixDeterminant", infer=_matrix_rule(lambda d, a: _batch(d, a) * 2),
           num_outputs=2)
def _log_determinant(x):
    check_now("LogMatrixDeterminant", _matrix_problem(TensorShape(x.shape)))
    sign, log_abs = np.linalg.slogdet(x)
    return np.asarray(sign, x.dtype), np.asarray(log_abs, x.dtype)


@define_grad("LogMatrixDeterminant")
def _log_determinant_grad(op, _, grad):
    scale = expand_dims(expand_dims(grad, -1), -1)
    return [math_ops.multiply(scale, _inverse_transposed(op.inputs[0]))]


@define_op("Cholesky", infer=_matrix_rule(_same))
def _cholesky(x):
    check_now("Cholesky", _matrix_problem(TensorShape(x.shape)))
    try:
        return np.linalg.cholesky(x)
    except np.linalg.LinAlgError:       # some matrix is not positive definite
        pass
    out = np.empty_like(x)
    flat_out = out.reshape((-1,) + x.shape[-2:])
    for i, m in enumerate(x.reshape((-1,) + x.shape[-2:])):
        try:
            flat_out[i] = np.linalg.cholesky(m)
        except np.linalg.LinAlgError:
            flat_out[i] = np.tril(np.full_like(m, np.nan))
    return out


@define_grad("Cholesky")
def _cholesky_grad(op, grad):
    # A = L L^T: dL/dA = sym(L^-T phi(L^T g) L^-1) / 2-ish, phi = lower triangle
    # with a halved diagonal (as TF's rule).
    lower = op.outputs[0]
    inverse = apply("MatrixInverse", (lower,), {"adjoint": False})
    phi = _halved_diagonal(_band(matmul(lower, grad, transpose_a=True), -1, 0))
    s = matmul(matmul(inverse, phi, transpose_a=True), inverse)
    return [math_ops.multiply(math_ops.add(s, _transposed(s)), 0.5)]


# --- helpers of the gradient rules -----------------------------------------------------------

def _transposed(x):
    rank = x.shape.rank
    return apply("Transpose", (x,), {"perm": tuple(range(rank - 2)) + (rank - 1, rank - 2)})


def _band(x, lower, upper):
    """band_part(x, lower, upper) (-1: no bound on that side)."""
    bounds = [convert_to_tensor(np.array(b, np.int64)) for b in (lower, upper)]
    return apply("MatrixBandPart", (x, *bounds))


def _halved_diagonal(x):
    """x with its main diagonal halved."""
    return math_ops.subtract(x, math_ops.multiply(_band(x, 0, 0), 0.5))


def _add(*terms):
    return math_ops.add_n(list(terms)) if len(terms) > 2 else math_ops.add(*terms)


def _columns_scaled(x, s):
    """x @ diag(s): x's columns times s."""
    return math_ops.multiply(x, expand_dims(s, -2))


def _rows_scaled(s, x):
    """diag(s) @ x: x's rows times s."""
    return math_ops.multiply(expand_dims(s, -1), x)


def _safe_reciprocal(x, epsilon=1e-20):
    """1 / x, but 0 where x is 0 (x / (x^2 + epsilon), as TF's rules use it)."""
    epsilon = convert_to_tensor(epsilon, x.dtype)      # straight in x's dtype, as TF
    return math_ops.multiply(x, math_ops.reciprocal(math_ops.add(math_ops.square(x), epsilon)))


def _pairwise_reciprocal(values):
    """F[..., i, j] = 1 / (values[j] - values[i]), zero on the diagonal (and for
    repeated values, where the true gradient is infinite)."""
    return _safe_reciprocal(math_ops.subtract(expand_dims(values, -2), expand_dims(values, -1)))


def _columns(x, start, stop=None):
    return getitem(x, (Ellipsis, slice(None), slice(start, stop)))


def _static_matrix_dims(op, x, what):
    """x's last two dims, which a rule needs statically (NotImplementedError
    when unknown, as TF's rule raises)."""
    dims = None if x.shape.rank is None else x.shape.dims[-2:]
    if dims is None or None in dims:
        raise NotImplementedError(f"{op}Grad not implemented with dynamic shapes: {what} has "
                                  f"shape {x.shape}")
    return dims


# --- QR, SVD, eigh -----------------------------------------------------------------------------

def _qr_dims(dims, attrs):
    if dims is None:
        return [None, None]
    m, n = dims[-2:]
    k = None if m is None or n is None else min(m, n)
    full = attrs["full_matrices"]
    return [dims[:-2] + [m, m if full else k], dims[:-2] + [m if full else k, n]]


@define_op("Qr", infer=_matrix_rule(_qr_dims, square=False), num_outputs=2)
def _qr(x, full_matrices):
    check_now("Qr", _matrix_problem(TensorShape(x.shape), square=False))
    q, r = np.linalg.qr(_working(x), mode="complete" if full_matrices else "reduced")
    return q.astype(x.dtype, copy=False), r.astype(x.dtype, copy=False)


@define_grad("Qr")
def _qr_grad(op, grad_q, grad_r):
    a, (q, r) = op.inputs[0], op.outputs
    rows, cols = _static_matrix_dims("Qr", r, "r")
    if rows > cols and q.shape.dims[-1] == q.shape.dims[-2]:
        raise NotImplementedError(f"QrGrad not implemented when nrows > ncols and "
                                  f"full_matrices is true. Received r.shape={r.shape} with "
                                  f"nrows={rows}and ncols={cols}.")
    if rows >= cols:
        return [_qr_grad_tall(q, r, grad_q, grad_r)]
    # A wide matrix [X | Y] = Q [U | V] with U square: X's QR is (Q, U), and
    # Y = Q V moves Q's and V's gradients to Y.
    grad_v = _columns(grad_r, rows)
    grad_x = _qr_grad_tall(q, _columns(r, 0, rows),
                           math_ops.add(grad_q, matmul(_columns(a, rows), grad_v,
                                                       adjoint_b=True)),
                           _columns(grad_r, 0, rows))
    return [concat([grad_x, matmul(q, grad_v)], -1)]


def _qr_grad_tall(q, r, grad_q, grad_r):
    """The gradient of A = Q R for A with at least as many rows as columns."""
    def times_r_inverse_adjoint(x):              # x R^-T, by a triangular solve
        solved = apply("MatrixTriangularSolve", (r, _transposed(x)),
                       {"lower": False, "adjoint": False})
        return _transposed(solved)

    qt_gq = matmul(q, grad_q, adjoint_a=True)
    r_grt = matmul(r, grad_r, adjoint_b=True)
    skew = _band(_add(qt_gq, math_ops.negative(_transposed(qt_gq)),
                      r_grt, math_ops.negative(_transposed(r_grt))), -1, 0)
    through_r = matmul(q, math_ops.add(grad_r, times_r_inverse_adjoint(skew)))
    through_q = times_r_inverse_adjoint(math_ops.subtract(grad_q, matmul(q, qt_gq)))
    return math_ops.add(through_r, through_q)


def _svd_dims(dims, attrs):
    if dims is None:
        return [None, None, None] if attrs["compute_uv"] else [None, [0], [0]]
    m, n = dims[-2:]
    k = None if m is None or n is None else min(m, n)
    batch = dims[:-2]
    if not attrs["compute_uv"]:
        return [batch + [k], [0], [0]]
    full = attrs["full_matrices"]
    return [batch + [k], batch + [m, m if full else k], batch + [n, n if full else k]]


@define_op("Svd", infer=_matrix_rule(_svd_dims, square=False), num_outputs=3)
def _svd(x, compute_uv, full_matrices):
    check_now("Svd", _matrix_problem(TensorShape(x.shape), square=False))
    if not compute_uv:
        empty = np.zeros((0,), x.dtype)
        return np.linalg.svd(x, compute_uv=False).astype(x.dtype, copy=False), empty, empty
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return s, u, np.ascontiguousarray(_adjoint(vh))


@define_grad("Svd")
def _svd_grad(op, grad_s, grad_u, grad_v):
    a, s = op.inputs[0], op.outputs[0]
    if not op.attrs["compute_uv"]:               # ds_i = u_i^T dA v_i
        _, u, v = apply("Svd", (a,), {"compute_uv": True, "full_matrices": False})
        return [matmul(_columns_scaled(u, grad_s), v, adjoint_b=True)]
    m, n = _static_matrix_dims("Svd", a, "the input")
    full = op.attrs["full_matrices"]
    if full and abs(m - n) > 1:
        raise NotImplementedError(f"svd gradient is not implemented for abs(m - n) > 1 when "
                                  f"full_matrices is True. Received: m={min(m, n)} and "
                                  f"n={max(m, n)} from op input with shape={a.shape}.")
    u, v = op.outputs[1:]
    flipped = m > n                  # work on A^T, whose SVD swaps u and v
    if flipped:
        m, n, u, v, grad_u, grad_v = n, m, v, u, grad_v, grad_u
    v1, grad_v1 = _columns(v, 0, m), _columns(grad_v, 0, m)
    f = _pairwise_reciprocal(math_ops.square(s))
    fu = math_ops.multiply(f, matmul(u, grad_u, adjoint_a=True))
    fv = math_ops.multiply(f, matmul(v1, grad_v1, adjoint_a=True))
    inner = _add(diag(grad_s), _columns_scaled(math_ops.add(fu, _transposed(fu)), s),
                 _rows_scaled(s, math_ops.add(fv, _transposed(fv))))
    grad = matmul(u, matmul(inner, v1, adjoint_b=True))
    if m != n:                       # the part of v's gradient outside v1's span
        gv1t = _transposed(grad_v1)
        rest = math_ops.subtract(gv1t, matmul(matmul(gv1t, v1), v1, adjoint_b=True))
        if full:
            v2, grad_v2 = _columns(v, m, n), _columns(grad_v, m, n)
            rest = math_ops.subtract(rest, matmul(matmul(v1, grad_v2, adjoint_a=True), v2,
                                                  adjoint_b=True))
        grad = math_ops.add(grad, matmul(_columns_scaled(u, _safe_reciprocal(s)), rest))
    return [_transposed(grad) if flipped else grad]


def _eigh_dims(dims, attrs):
    values = None if dims is None else dims[:-1]
    return [values, dims if attrs["compute_v"] else [0]]


@define_op("SelfAdjointEigV2", infer=_matrix_rule(_eigh_dims), num_outputs=2)
def _eigh(x, compute_v):
    check_now("SelfAdjointEigV2", _matrix_problem(TensorShape(x.shape)))
    if not compute_v:
        return np.linalg.eigvalsh(x, UPLO="L"), np.zeros((0,), x.dtype)
    e, v = np.linalg.eigh(x, UPLO="L")
    return e, v


@define_grad("SelfAdjointEigV2")
def _eigh_grad(op, grad_e, grad_v):
    e = op.outputs[0]
    if op.attrs["compute_v"]:
        v = op.outputs[1]
        inner = math_ops.add(diag(grad_e), math_ops.multiply(_pairwise_reciprocal(e),
                                                             matmul(v, grad_v, adjoint_a=True)))
        grad = matmul(v, matmul(inner, v, adjoint_b=True))
    else:                                        # de_i = v_i^T dA v_i
        _, v = apply("SelfAdjointEigV2", (op.inputs[0],), {"compute_v": True})
        grad = matmul(_columns_scaled(v, grad_e), v, adjoint_b=True)
    # The kernel reads only the lower triangle: symmetrize onto it.
    return [_halved_diagonal(_band(math_ops.add(grad, _transposed(grad)), -1, 0))]


def _matrix_input(op, x, allowed=MATRIX_FLOATS):
    x = convert_to_tensor(x)
    if x.dtype not in allowed:
        raise dtype_error(op, x.dtype, allowed)
    return x


def inv(input, adjoint=False, name=None):  # TensorFlow's name
    """The inverse of each square matrix (of its adjoint with `adjoint=True`);
    a singular matrix is an InvalidArgumentError "Input is not invertible."."""
    adjoint = rules.static_bool(adjoint, "MatrixInverse", "adjoint")
    return apply("MatrixInverse", (_matrix_input("MatrixInverse", input, FLOATS),),
                 {"adjoint": adjoint})


def det(input, name=None):
    """The determinant of each square matrix: shape input.shape[:-2]."""
    return apply("MatrixDeterminant", (_matrix_input("MatrixDeterminant", input),))


def slogdet(input, name=None):
    """(sign, log|det|) of each square matrix; a singular one gives (0, -inf)."""
    return LogMatrixDeterminant(*apply("LogMatrixDeterminant",
                                       (_matrix_input("LogMatrixDeterminant", input),)))


def cholesky(input, name=None):
    """The lower-triangular L with L @ L^T == input, reading input's lower
    triangle; NaN where a matrix is not positive definite (as TF's CPU kernel)."""
    return apply("Cholesky", (_matrix_input("Cholesky", input),))


def logdet(matrix, name=None):
    """log(det(matrix)) of Hermitian positive-definite matrices, via Cholesky:
    2 * sum(log(diag(cholesky(matrix))))."""
    chol = cholesky(matrix)
    return math_ops.multiply(math_ops.cast(2.0, chol.dtype),
                             reduce_sum(math_ops.log(diag_part(chol)), -1))


def qr(input, full_matrices=False, name=None):
    """(q, r) with input == q @ r, q orthonormal columns, r upper-triangular;
    `full_matrices=True` gives a square q and r of input's shape."""
    full = rules.static_bool(full_matrices, "Qr", "full_matrices")
    return Qr(*apply("Qr", (_matrix_input("Qr", input, FLOATS),), {"full_matrices": full}))


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """(s, u, v) with tensor == u @ diag(s) @ transpose(v), s descending (TF's
    order and `v`, not numpy's `vh`); only s when `compute_uv=False`."""
    compute_uv = rules.static_bool(compute_uv, "Svd", "compute_uv")
    full = rules.static_bool(full_matrices, "Svd", "full_matrices")
    s, u, v = apply("Svd", (_matrix_input("Svd", tensor),),
                    {"compute_uv": compute_uv, "full_matrices": full})
    return (s, u, v) if compute_uv else s


def eigh(tensor, name=None):
    """(eigenvalues ascending, eigenvectors as columns) of each symmetric matrix,
    reading its lower triangle."""
    return apply("SelfAdjointEigV2", (_matrix_input("SelfAdjointEigV2", tensor),),
                 {"compute_v": True})


def eigvalsh(tensor, name=None):
    """The eigenvalues (ascending) of each symmetric matrix."""
    return apply("SelfAdjointEigV2", (_matrix_input("SelfAdjointEigV2", tensor),),
                 {"compute_v": False})[0]


