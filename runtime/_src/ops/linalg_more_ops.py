"""More of `tf.linalg`: `set_diag`, `cross`, `normalize`, `matrix_rank`,
`pinv`, the LU family (`lu`, `lu_solve`, `lu_reconstruct`,
`lu_matrix_inverse`), `eig`/`eigvals`, `eigh_tridiagonal`,
`tridiagonal_solve`, `tridiagonal_matmul` and `banded_triangular_solve`.

`lu`, `eig` and `tridiagonal_solve` are kernels; the rest are TF's
compositions of existing ops, so their gradients come from those (`pinv`
through `svd`, `lu_solve` through the triangular solves, the banded and
tridiagonal products through slices). As in TF, `lu` has no gradient.

    lu(constant([[1.0, 2.0], [3.0, 4.0]]))
    # Lu(lu=[[3, 4], [1/3, 2/3]], p=[1, 0]): the rows of input in p's order are L @ U
"""

import collections

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.array_ops import eye, ones_like, zeros_like
from runtime._src.ops.base_ops import FLOATS, NUMERIC, dtype_error
from runtime._src.ops.linalg_ops import MATRIX_FLOATS, _matrix_rule, eigh, eigvalsh, svd
from runtime._src.ops.linalg_solve_ops import triangular_solve
from runtime._src.ops.manipulation_ops import concat, gather, stack
from runtime._src.ops.complex_ops import conj
from runtime._src.ops.scatter_ops import boolean_mask
from runtime._src.ops.math_ops import (cast, greater, less_equal, logical_and, matmul, multiply,
                                       negative, truediv, where)
from runtime._src.ops.matrix_diag_ops import (band_part, diag, diag_part, matrix_transpose,
                                              set_diag)
from runtime._src.ops.reduction_ops import norm, reduce_max, reduce_sum
from runtime._src.ops.sort_ops import argsort

__all__ = ["cross", "normalize", "matrix_rank", "pinv", "lu", "lu_solve", "lu_reconstruct",
           "lu_matrix_inverse", "eig", "eigvals", "eigh_tridiagonal", "tridiagonal_solve",
           "tridiagonal_matmul", "banded_triangular_solve"]

Lu = collections.namedtuple("Lu", ["lu", "p"])


def cross(a, b, name=None):
    """`tf.linalg.cross`: the cross product of 3-vectors along the last axis."""
    a, b = convert_to_tensor(a), convert_to_tensor(b, getattr(a, "dtype", None))
    for what, t in (("a", a), ("b", b)):
        if t.shape.rank is not None and (t.shape.rank == 0 or t.shape[-1] not in (3, None)):
            raise ValueError(f"Cross: {what} must have a last dimension of 3, got shape "
                             f"{t.shape}")
    if a.dtype not in NUMERIC:
        raise dtype_error("Cross", a.dtype, NUMERIC)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    return stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)


def normalize(tensor, ord="euclidean", axis=None, name=None):
    """`tf.linalg.normalize`: (tensor / its norm, the norm with kept dimensions)."""
    tensor = convert_to_tensor(tensor)
    magnitude = norm(tensor, ord=ord, axis=axis, keepdims=True)
    return truediv(tensor, magnitude), magnitude


def _eps(dtype):
    return float(np.finfo(dtype.np_dtype).eps)


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """`tf.linalg.matrix_rank`: the number of singular values above `tol`
    (default: eps * max(rows, cols) * the largest singular value), int32."""
    a = convert_to_tensor(a)
    s = svd(a, compute_uv=False)
    if tol is None:
        rows, cols = a.shape[-2], a.shape[-1]
        tol = multiply(reduce_max(s, axis=-1, keepdims=True),
                       _eps(a.dtype) * max(rows or 0, cols or 0))
    else:
        tol = convert_to_tensor(tol, a.dtype)
    return reduce_sum(cast(greater(s, tol), dtypes.int32), axis=-1)


def pinv(a, rcond=None, validate_args=False, name=None):
    """`tf.linalg.pinv`: the Moore-Penrose pseudo-inverse from the SVD, singular
    values at most rcond * the largest one dropped (rcond default: 10 *
    max(rows, cols) * eps)."""
    a = convert_to_tensor(a)
    if a.dtype not in MATRIX_FLOATS:
        raise dtype_error("pinv", a.dtype, MATRIX_FLOATS)
    if rcond is None:
        rcond = 10.0 * max(a.shape[-2] or 0, a.shape[-1] or 0) * _eps(a.dtype)
    s, u, v = svd(a, full_matrices=False)
    cutoff = multiply(convert_to_tensor(rcond, a.dtype), reduce_max(s, axis=-1, keepdims=True))
    kept = where(greater(s, cutoff), s, convert_to_tensor(np.inf, a.dtype))
    return matmul(truediv(v, kept[..., None, :]), u, adjoint_b=True)


# --- LU --------------------------------------------------------------------------

def _lu_one(a):
    """(lu, p) of one matrix by Gaussian elimination with partial pivoting (the
    first largest |pivot|, as LAPACK's getrf)."""
    a = a.copy()
    n = a.shape[0]
    p = np.arange(n)
    for k in range(n - 1):
        pivot = k + int(np.argmax(np.abs(a[k:, k])))
        if pivot != k:
            a[[k, pivot]] = a[[pivot, k]]
            p[[k, pivot]] = p[[pivot, k]]
        if a[k, k] != 0:
            a[k + 1:, k] /= a[k, k]
        a[k + 1:, k + 1:] -= np.outer(a[k + 1:, k], a[k, k + 1:])
    return a, p


def _infer_lu(inputs, attrs):
    (dtype, shape), = _matrix_rule(lambda dims, at: [dims])(inputs, attrs)
    return [(dtype, shape), (attrs["output_idx_type"],
                             TensorShape(None if shape.rank is None else shape.dims[:-1]))]


@define_op("Lu", infer=_infer_lu, num_outputs=2)
def _lu(x, output_idx_type):
    out = np.empty_like(x)
    perm = np.empty(x.shape[:-1], output_idx_type.np_dtype)
    with np.errstate(all="ignore"):
        for index in np.ndindex(*x.shape[:-2]):
            out[index], perm[index] = _lu_one(x[index])
    return out, perm


not_differentiable("Lu")


def lu(input, output_idx_type=dtypes.int32, name=None):
    """`tf.linalg.lu`: (lu, p) with input's rows in the order p equal to L @ U,
    L unit lower-triangular (below lu's diagonal) and U upper (on and above)."""
    x = convert_to_tensor(input)
    if x.dtype not in FLOATS and not x.dtype.is_complex:
        raise dtype_error("Lu", x.dtype, FLOATS)
    index = dtypes.as_dtype(output_idx_type)
    if index not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"Lu: output_idx_type must be int32 or int64, got {index.name}")
    return Lu(*apply("Lu", (x,), {"output_idx_type": index}))


def _lu_factors(lower_upper):
    lower = set_diag(band_part(lower_upper, -1, 0), ones_like(diag_part(lower_upper)))
    return lower, band_part(lower_upper, 0, -1)


def _rows_in_order(x, perm):
    """x's rows (axis -2) in the order `perm`, batched over perm's leading dims."""
    return gather(x, perm, axis=-2, batch_dims=perm.shape.rank - 1)


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """`tf.linalg.lu_solve`: X with input @ X == rhs, from `lu`'s factors."""
    lower_upper, perm = convert_to_tensor(lower_upper), convert_to_tensor(perm)
    rhs = convert_to_tensor(rhs, lower_upper.dtype)
    lower, upper = _lu_factors(lower_upper)
    z = triangular_solve(lower, _rows_in_order(rhs, perm), lower=True)
    return triangular_solve(upper, z, lower=False)


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """`tf.linalg.lu_reconstruct`: the matrix `lu` factored: L @ U with its rows
    put back from p's order."""
    lower_upper, perm = convert_to_tensor(lower_upper), convert_to_tensor(perm)
    lower, upper = _lu_factors(lower_upper)
    return _rows_in_order(matmul(lower, upper), argsort(perm, axis=-1))


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """`tf.linalg.lu_matrix_inverse`: the inverse of the matrix `lu` factored."""
    lower_upper = convert_to_tensor(lower_upper)
    n = lower_upper.shape[-1]
    batch = lower_upper.shape.dims[:-2] if lower_upper.shape.rank else []
    identity = eye(n, batch_shape=batch, dtype=lower_upper.dtype)
    return lu_solve(lower_upper, perm, identity)


# --- eig ---------------------------------------------------------------------------

_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128,
               dtypes.complex64: dtypes.complex64, dtypes.complex128: dtypes.complex128}


def _infer_eig(inputs, attrs):
    (dtype, shape), = _matrix_rule(lambda dims, at: [dims])(inputs, attrs)
    out = _COMPLEX_OF[dtype]
    values = TensorShape(None if shape.rank is None else shape.dims[:-1])
    return [(out, values), (out, shape if attrs["compute_v"] else TensorShape([0]))]


@define_op("Eig", infer=_infer_eig, num_outputs=2)
def _eig(x, compute_v):
    out = np.complex64 if x.dtype in (np.float32, np.complex64) else np.complex128
    w, v = np.linalg.eig(x.astype(np.complex128) if x.dtype.kind == "c" else x)
    return w.astype(out), (v.astype(out) if compute_v else np.zeros(0, out))


not_differentiable("Eig")


def _eig_input(tensor):
    x = convert_to_tensor(tensor)
    if x.dtype not in _COMPLEX_OF:
        raise dtype_error("Eig", x.dtype, frozenset(_COMPLEX_OF))
    return x


def eig(tensor, name=None):
    """`tf.linalg.eig`: (eigenvalues, eigenvectors as unit columns), complex."""
    return tuple(apply("Eig", (_eig_input(tensor),), {"compute_v": True}))


def eigvals(tensor, name=None):
    """`tf.linalg.eigvals`: the eigenvalues of each square matrix, complex."""
    return apply("Eig", (_eig_input(tensor),), {"compute_v": False})[0]


# --- tridiagonal and banded matrices -------------------------------------------

def _tridiagonal_dense(alpha, beta):
    """The Hermitian tridiagonal matrix with diagonal alpha and subdiagonal beta."""
    zero = zeros_like(beta[..., :1])
    upper = concat([_conj(beta), zero], axis=-1)
    lower = concat([zero, beta], axis=-1)
    return diag(stack([upper, alpha, lower], axis=-2), k=(-1, 1), align="LEFT_RIGHT")


def _conj(t):
    return conj(t) if t.dtype.is_complex else t


def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None,
                     name=None):
    """`tf.linalg.eigh_tridiagonal`: the eigenvalues (ascending; with
    `eigvals_only=False` also the eigenvectors as columns) of the Hermitian
    tridiagonal matrix with diagonal `alpha` and subdiagonal `beta`.
    `select`: 'a' all, 'v' those in (lo, hi], 'i' those of index lo..hi."""
    alpha = convert_to_tensor(alpha)
    beta = convert_to_tensor(beta, alpha.dtype)
    if select not in ("a", "v", "i"):
        raise ValueError(f"eigh_tridiagonal: select must be 'a', 'v' or 'i', got {select!r}")
    if select != "a" and select_range is None:
        raise ValueError(f"eigh_tridiagonal: select={select!r} needs select_range")
    dense = _tridiagonal_dense(alpha, beta)
    values, vectors = eigh(dense) if not eigvals_only else (eigvalsh(dense), None)
    if select == "i":
        lo, hi = (int(v) for v in select_range)
        values = values[lo:hi + 1]
        vectors = None if vectors is None else vectors[:, lo:hi + 1]
    elif select == "v":
        lo, hi = (convert_to_tensor(v, values.dtype) for v in select_range)
        held = logical_and(greater(values, lo), less_equal(values, hi))
        values = boolean_mask(values, held)
        vectors = None if vectors is None else boolean_mask(vectors, held, axis=1)
    return values if eigvals_only else (values, vectors)


def _compact(diagonals, diagonals_format, what):
    """The [..., 3, M] (superdiagonal, diagonal, subdiagonal) form of `diagonals`."""
    if diagonals_format == "compact":
        return convert_to_tensor(diagonals)
    if diagonals_format == "sequence":
        if not isinstance(diagonals, (list, tuple)) or len(diagonals) != 3:
            raise ValueError(f"{what}: diagonals_format='sequence' takes a list of three "
                             "tensors (superdiagonal, diagonal, subdiagonal)")
        return stack([convert_to_tensor(d) for d in diagonals], axis=-2)
    if diagonals_format == "matrix":
        return diag_part(convert_to_tensor(diagonals), k=(-1, 1), align="LEFT_RIGHT")
    raise ValueError(f"{what}: diagonals_format must be 'compact', 'sequence' or 'matrix', "
                     f"got {diagonals_format!r}")


def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    """`tf.linalg.tridiagonal_matmul`: the tridiagonal matrix times rhs [..., M, N]."""
    d = _compact(diagonals, diagonals_format, "tridiagonal_matmul")
    rhs = convert_to_tensor(rhs, d.dtype)
    zero_row = zeros_like(rhs[..., :1, :])
    below = concat([rhs[..., 1:, :], zero_row], axis=-2)       # x[i + 1]
    above = concat([zero_row, rhs[..., :-1, :]], axis=-2)      # x[i - 1]
    return (d[..., 0, :, None] * below + d[..., 1, :, None] * rhs +
            d[..., 2, :, None] * above)


def _gtsv(d3, b):
    """Solve the tridiagonal systems d3 [..., 3, M] x = b [..., M, K] by
    Gaussian elimination with partial pivoting (LAPACK's gtsv)."""
    up, main, low = (d3[..., i, :].astype(np.result_type(d3, b)).copy() for i in range(3))
    b = b.astype(main.dtype).copy()
    n = main.shape[-1]
    up2 = np.zeros_like(main)
    for i in range(n - 1):
        sub = low[..., i + 1]
        swap = np.abs(sub) > np.abs(main[..., i])
        safe_main = np.where(main[..., i] == 0, 1, main[..., i])
        safe_sub = np.where(sub == 0, 1, sub)
        m = np.where(swap, main[..., i] / safe_sub, sub / safe_main)
        next_up = up[..., i + 1] if i + 1 < n - 1 else np.zeros_like(main[..., i])
        new_main_i = np.where(swap, sub, main[..., i])
        new_up_i = np.where(swap, main[..., i + 1], up[..., i])
        up2[..., i] = np.where(swap, next_up, 0)
        main[..., i + 1] = np.where(swap, up[..., i] - m * main[..., i + 1],
                                    main[..., i + 1] - m * up[..., i])
        if i + 1 < n - 1:
            up[..., i + 1] = np.where(swap, -m * next_up, next_up)
        main[..., i], up[..., i] = new_main_i, new_up_i
        bi, bj = b[..., i, :].copy(), b[..., i + 1, :].copy()
        s = swap[..., None]
        b[..., i, :] = np.where(s, bj, bi)
        b[..., i + 1, :] = np.where(s, bi - m[..., None] * bj, bj - m[..., None] * bi)
    x = np.zeros_like(b)
    for i in range(n - 1, -1, -1):
        acc = b[..., i, :].copy()
        if i + 1 < n:
            acc -= up[..., i, None] * x[..., i + 1, :]
        if i + 2 < n:
            acc -= up2[..., i, None] * x[..., i + 2, :]
        x[..., i, :] = acc / main[..., i, None]
    return x


def _infer_tridiagonal_solve(inputs, attrs):
    d, rhs = inputs
    rules.check_same_dtype(d, rhs)
    if d.shape.rank is not None and (d.shape.rank < 2 or d.shape[-2] not in (3, None)):
        raise ValueError(f"TridiagonalSolve: diagonals must have shape [..., 3, M], got "
                         f"{d.shape}")
    return [(rhs.dtype, rhs.shape)]


@define_op("TridiagonalSolve", infer=_infer_tridiagonal_solve)
def _tridiagonal_solve(diagonals, rhs):
    with np.errstate(all="ignore"):
        return _gtsv(diagonals, rhs).astype(rhs.dtype)


def _transposed_compact(d):
    """The compact diagonals of the transposed tridiagonal matrix."""
    zero = zeros_like(d[..., 0, :1])
    up = concat([d[..., 2, 1:], zero], axis=-1)
    low = concat([zero, d[..., 0, :-1]], axis=-1)
    return stack([up, d[..., 1, :], low], axis=-2)


@define_grad("TridiagonalSolve")
def _tridiagonal_solve_grad(op, grad):
    d, _ = op.inputs
    x = op.outputs[0]
    grad_rhs = apply("TridiagonalSolve", (_transposed_compact(d), grad))
    zero_row = zeros_like(x[..., :1, :])
    below = concat([x[..., 1:, :], zero_row], axis=-2)
    above = concat([zero_row, x[..., :-1, :]], axis=-2)
    grad_d = stack([reduce_sum(grad_rhs * below, axis=-1), reduce_sum(grad_rhs * x, axis=-1),
                    reduce_sum(grad_rhs * above, axis=-1)], axis=-2)
    return [negative(grad_d), grad_rhs]


def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False,
                      conjugate_rhs=False, name=None, partial_pivoting=True,
                      perturb_singular=False):
    """`tf.linalg.tridiagonal_solve`: x with A x = rhs for the tridiagonal A
    given by `diagonals` ([..., 3, M] compact: superdiagonal with its last
    element unused, diagonal, subdiagonal with its first unused; or 'sequence',
    'matrix'); rhs [..., M, K] ([..., K, M] with transpose_rhs). Always pivots."""
    d = _compact(diagonals, diagonals_format, "tridiagonal_solve")
    if d.dtype not in FLOATS and not d.dtype.is_complex:
        raise dtype_error("TridiagonalSolve", d.dtype, FLOATS)
    rhs = convert_to_tensor(rhs, d.dtype)
    if transpose_rhs:
        rhs = matrix_transpose(rhs)
    if conjugate_rhs:
        rhs = _conj(rhs)
    if rhs.shape.rank == d.shape.rank - 1:        # a vector right-hand side
        return apply("TridiagonalSolve", (d, rhs[..., None]))[..., 0]
    return apply("TridiagonalSolve", (d, rhs))


def banded_triangular_solve(bands, rhs, lower=True, adjoint=False, name=None):
    """`tf.linalg.banded_triangular_solve`: solve with the triangular matrix
    whose K diagonals are the rows of `bands` [..., K, M] (lower: the diagonal
    first, then the subdiagonals; upper: the last superdiagonal first, the
    diagonal last; LEFT_RIGHT alignment)."""
    bands = convert_to_tensor(bands)
    rhs = convert_to_tensor(rhs, bands.dtype)
    k = bands.shape[-2]
    if k is None:
        raise ValueError("banded_triangular_solve: the number of bands must be known")
    n = bands.shape[-1]
    band = (-(k - 1), 0) if lower else (0, k - 1)
    dense = diag(bands, k=band, align="LEFT_RIGHT", num_rows=n, num_cols=n)
    return triangular_solve(dense, rhs, lower=lower, adjoint=adjoint)
