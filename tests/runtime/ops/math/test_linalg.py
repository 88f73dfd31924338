"""`tf.linalg` (`inv det slogdet logdet cholesky cholesky_solve solve
triangular_solve lstsq matvec trace diag diag_part band_part tensor_diag
tensor_diag_part matrix_transpose adjoint eye`, `norm` with ord=2 on matrices):
one record per case, run eagerly and inside `tf.function`, against float64
numpy references written here, with batch dimensions, float64 and empty
inputs. The decompositions (`qr svd eigh`) are checked by their defining
properties (the product gives the input back, orthonormal factors, the order
TF documents), and the errors by type and message.
"""

import numpy as np
import pytest

import runtime as tf
from tests.runtime.op_records import Rec, check_eager, check_in_function

RNG = np.random.RandomState(31)
L = tf.linalg


def f64(x):
    return np.asarray(x, np.float64)


def well_conditioned(*shape):
    n = shape[-1]
    return (RNG.uniform(-1, 1, shape) + 3 * np.eye(n)).astype(np.float32)


def spd(*shape):
    a = RNG.uniform(-1, 1, shape)
    return (a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])).astype(np.float32)


A = well_conditioned(2, 3, 4, 4)
B = RNG.uniform(-2, 2, (2, 3, 4, 2)).astype(np.float32)
S = spd(2, 4, 4)
TALL = (RNG.uniform(-1, 1, (2, 6, 3)) + np.eye(6, 3)).astype(np.float32)
WIDE = (RNG.uniform(-1, 1, (2, 3, 5)) + np.eye(3, 5)).astype(np.float32)
RHS6 = RNG.uniform(-1, 1, (2, 6, 2)).astype(np.float32)
RHS3 = RNG.uniform(-1, 1, (2, 3, 4)).astype(np.float32)
M = RNG.randint(-5, 6, (2, 3, 4)).astype(np.int32)
EMPTY = np.zeros((0, 0), np.float32)
NO_BATCH = np.zeros((0, 3, 3), np.float32)


# --- independent references (float64) -------------------------------------------------

def ref_slogdet(a):
    sign, logabs = np.linalg.slogdet(f64(a))
    return sign, logabs


def ref_lower_cholesky(a):
    """Cholesky of the symmetric matrix a's lower triangle defines."""
    low = np.tril(f64(a))
    return np.linalg.cholesky(low + np.swapaxes(np.tril(low, -1), -1, -2))


def ref_triangular_solve(a, b, lower=True, adjoint=False):
    t = np.tril(f64(a)) if lower else np.triu(f64(a))
    if adjoint:
        t = np.swapaxes(t, -1, -2)
    batch = np.broadcast_shapes(t.shape[:-2], np.shape(b)[:-2])
    return np.linalg.solve(np.broadcast_to(t, batch + t.shape[-2:]),
                           np.broadcast_to(f64(b), batch + np.shape(b)[-2:]))


def ref_ridge(a, b, l2):
    """argmin ||a x - b||^2 + l2 ||x||^2, from the normal equations in float64."""
    a, b = f64(a), f64(b)
    at = np.swapaxes(a, -1, -2)
    return np.linalg.solve(at @ a + l2 * np.eye(a.shape[-1]), at @ b)


def ref_band(x, lower, upper):
    out = f64(x).copy()
    rows, cols = out.shape[-2:]
    for i in range(rows):
        for j in range(cols):
            inside = (lower < 0 or i - j <= lower) and (upper < 0 or j - i <= upper)
            if not inside:
                out[..., i, j] = 0
    return out


def ref_diag(d, k=0, rows=None, cols=None, pad=0.0):
    """d on the k-th diagonal of a rows x cols matrix (square n + |k| by default)."""
    d = f64(d)
    n = d.shape[-1]
    rows, cols = rows or n + abs(k), cols or n + abs(k)
    out = np.full(d.shape[:-1] + (rows, cols), pad)
    for i in range(n):
        r, c = (i, i + k) if k >= 0 else (i - k, i)
        if r < rows and c < cols:
            out[..., r, c] = d[..., i]
    return out


def ref_diag_part(x, k=0):
    x = f64(x)
    rows, cols = x.shape[-2:]
    cells = [(i, i + k) for i in range(rows) if 0 <= i + k < cols]
    return np.stack([x[..., r, c] for r, c in cells], -1) if cells else \
        np.zeros(x.shape[:-2] + (0,))


# TF's own answers for bands of diagonals, one per alignment (from TensorFlow 2.21).
X34 = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
BAND_PARTS = {   # diag_part(X34, k=(-1, 2), align=...)
    "RIGHT_LEFT": [[0, 3, 8], [2, 7, 12], [1, 6, 11], [5, 10, 0]],
    "LEFT_RIGHT": [[3, 8, 0], [2, 7, 12], [1, 6, 11], [0, 5, 10]],
    "LEFT_LEFT": [[3, 8, 0], [2, 7, 12], [1, 6, 11], [5, 10, 0]],
    "RIGHT_RIGHT": [[0, 3, 8], [2, 7, 12], [1, 6, 11], [0, 5, 10]],
}
BAND_DIAG = [[1, 9, 9], [4, 2, 9], [9, 5, 3]]     # diag([[1, 2, 3], [4, 5, 6]], k=(-1, 0),
#                                                      padding_value=9)
BAND_DIAG_RIGHT = [[0, 3, 2], [0, 0, 4], [0, 0, 0]]   # diag([[1, 2], [3, 4]], k=(1, 2))


def ref_spectral_norm(x, axis):
    moved = np.moveaxis(f64(x), axis, (-2, -1))
    return np.linalg.svd(moved, compute_uv=False).max(-1)


# --- records --------------------------------------------------------------------------------

def Case(name, fn, args, kw, ref, dtype, rtol=1e-4):  # reads as a record
    """A record, float32 results within 1e-4 unless it says otherwise."""
    return Rec(name, fn, args, kw, ref, dtype, rtol)


def _inverses_and_determinants():
    upper_garbage = np.triu(RNG.uniform(5, 9, (4, 4)), 1).astype(np.float32) + np.tril(S[0])
    return [
        Case("inv", L.inv, [A], {}, np.linalg.inv(f64(A)), np.float32),
        Case("inv_adjoint", L.inv, [A], dict(adjoint=True),
            np.linalg.inv(np.swapaxes(f64(A), -1, -2)), np.float32),
        Case("inv_f64", L.inv, [f64(A)], {}, np.linalg.inv(f64(A)), np.float64, 1e-10),
        Case("inv_f16", L.inv, [A[0, 0].astype(np.float16)], {},
            np.linalg.inv(f64(A[0, 0].astype(np.float16))), np.float16, 1e-2),
        Case("inv_empty", L.inv, [EMPTY], {}, np.zeros((0, 0)), np.float32),
        Case("inv_empty_batch", L.inv, [NO_BATCH], {}, np.zeros((0, 3, 3)), np.float32),
        Case("det", L.det, [A], {}, np.linalg.det(f64(A)), np.float32),
        Case("det_f64", L.det, [f64(A)], {}, np.linalg.det(f64(A)), np.float64, 1e-10),
        Case("det_empty_is_one", L.det, [EMPTY], {}, 1.0, np.float32),
        Case("det_singular_is_zero", L.det, [np.array([[1, 2], [2, 4]], np.float32)], {}, 0.0,
            np.float32),
        Case("slogdet", L.slogdet, [A - 3 * np.eye(4, dtype=np.float32)], {},
            ref_slogdet(A - 3 * np.eye(4)), np.float32),
        Case("slogdet_f64", L.slogdet, [f64(A)], {}, ref_slogdet(A), np.float64, 1e-10),
        Case("logdet", L.logdet, [S], {}, np.log(np.linalg.det(f64(S))), np.float32),
        Case("cholesky", L.cholesky, [S], {}, np.linalg.cholesky(f64(S)), np.float32),
        Case("cholesky_f64", L.cholesky, [f64(S)], {}, np.linalg.cholesky(f64(S)), np.float64,
            1e-10),
        Case("cholesky_reads_the_lower_triangle", L.cholesky, [upper_garbage], {},
            ref_lower_cholesky(upper_garbage), np.float32),
        Case("cholesky_empty", L.cholesky, [NO_BATCH], {}, np.zeros((0, 3, 3)), np.float32),
    ]


def _solves():
    lower = np.tril(A) + np.triu(RNG.uniform(5, 9, A.shape), 1).astype(np.float32)
    chol = np.linalg.cholesky(f64(S)).astype(np.float32)
    rhs_s = RNG.uniform(-1, 1, (2, 4, 3)).astype(np.float32)
    rank_deficient = np.array([[1, 1], [1, 1], [1, 1]], np.float32)
    return [
        Case("solve", L.solve, [A, B], {}, np.linalg.solve(f64(A), f64(B)), np.float32),
        Case("solve_adjoint", L.solve, [A, B], dict(adjoint=True),
            np.linalg.solve(np.swapaxes(f64(A), -1, -2), f64(B)), np.float32),
        Case("solve_f64", L.solve, [f64(A), f64(B)], {}, np.linalg.solve(f64(A), f64(B)),
            np.float64, 1e-10),
        Case("solve_one_column", L.solve, [A[0, 0], B[0, 0, :, :1]], {},
            np.linalg.solve(f64(A[0, 0]), f64(B[0, 0, :, :1])), np.float32),
        Case("triangular_solve_lower", L.triangular_solve, [lower, B], {},
            ref_triangular_solve(lower, B), np.float32),
        Case("triangular_solve_upper", L.triangular_solve, [lower, B], dict(lower=False),
            ref_triangular_solve(lower, B, lower=False), np.float32),
        Case("triangular_solve_adjoint", L.triangular_solve, [lower, B], dict(adjoint=True),
            ref_triangular_solve(lower, B, adjoint=True), np.float32),
        Case("triangular_solve_upper_adjoint", L.triangular_solve, [lower, B],
            dict(lower=False, adjoint=True),
            ref_triangular_solve(lower, B, lower=False, adjoint=True), np.float32),
        Case("triangular_solve_broadcast_matrix", L.triangular_solve, [lower[0, 0], B], {},
            ref_triangular_solve(lower[0, 0], B), np.float32),
        Case("triangular_solve_broadcast_rhs", L.triangular_solve, [lower, B[0, 0]], {},
            ref_triangular_solve(lower, B[0, 0]), np.float32),
        Case("triangular_solve_f64", L.triangular_solve, [f64(lower), f64(B)], {},
            ref_triangular_solve(lower, B), np.float64, 1e-10),
        Case("cholesky_solve", L.cholesky_solve, [chol, rhs_s], {},
            np.linalg.solve(f64(S), f64(rhs_s)), np.float32),
        Case("cholesky_solve_broadcast", L.cholesky_solve, [chol[0], rhs_s], {},
            np.linalg.solve(f64(S[0]), f64(rhs_s)), np.float32),
        Case("lstsq_tall", L.lstsq, [TALL, RHS6], {}, ref_ridge(TALL, RHS6, 0.0), np.float32,
            1e-3),
        Case("lstsq_tall_l2", L.lstsq, [TALL, RHS6], dict(l2_regularizer=0.5),
            ref_ridge(TALL, RHS6, 0.5), np.float32, 1e-3),
        Case("lstsq_wide_min_norm", L.lstsq, [WIDE, RHS3], {},
            np.linalg.pinv(f64(WIDE)) @ f64(RHS3), np.float32, 1e-3),
        Case("lstsq_wide_l2", L.lstsq, [WIDE, RHS3], dict(l2_regularizer=0.25),
            ref_ridge(WIDE, RHS3, 0.25), np.float32, 1e-3),
        Case("lstsq_not_fast", L.lstsq, [TALL, RHS6], dict(fast=False),
            ref_ridge(TALL, RHS6, 0.0), np.float32, 1e-3),
        Case("lstsq_not_fast_ignores_l2", L.lstsq, [TALL, RHS6],
            dict(fast=False, l2_regularizer=3.0), ref_ridge(TALL, RHS6, 0.0), np.float32, 1e-3),
        Case("lstsq_not_fast_rank_deficient", L.lstsq, [rank_deficient, np.ones((3, 1),
                                                                                np.float32)],
            dict(fast=False), np.array([[0.5], [0.5]]), np.float32, 1e-3),
        Case("lstsq_broadcast", L.lstsq, [TALL[0], RHS6], {}, ref_ridge(TALL[0], RHS6, 0.0),
            np.float32, 1e-3),
        Case("lstsq_f64", L.lstsq, [f64(TALL), f64(RHS6)], {}, ref_ridge(TALL, RHS6, 0.0),
            np.float64, 1e-9),
    ]


def _products_and_parts():
    v4 = RNG.uniform(-1, 1, (4,)).astype(np.float32)
    v3 = RNG.uniform(-1, 1, (2, 3)).astype(np.float32)
    v24 = RNG.uniform(-1, 1, (2, 4)).astype(np.float32)
    x = RNG.uniform(-1, 1, (2, 3, 4)).astype(np.float32)
    d = RNG.uniform(-1, 1, (2, 3)).astype(np.float32)
    t4 = RNG.uniform(-1, 1, (2, 3, 2, 3)).astype(np.float32)
    bools = RNG.uniform(0, 1, (3, 4)) > 0.3
    return [
        Case("matvec", L.matvec, [x, v4], {}, f64(x) @ f64(v4), np.float32),
        Case("matvec_batch_vector", L.matvec, [x, v24], {},
            np.einsum("bij,bj->bi", f64(x), f64(v24)), np.float32),
        Case("matvec_transpose_a", L.matvec, [x, v3], dict(transpose_a=True),
            np.einsum("bij,bi->bj", f64(x), f64(v3)), np.float32),
        Case("matvec_adjoint_a", L.matvec, [x, v3], dict(adjoint_a=True),
            np.einsum("bij,bi->bj", f64(x), f64(v3)), np.float32),
        Case("matvec_int", L.matvec, [M, np.array([1, -2, 0, 3], np.int32)], {},
            f64(M) @ np.array([1, -2, 0, 3]), np.int32),
        Case("trace", L.trace, [A], {}, np.trace(f64(A), axis1=-2, axis2=-1), np.float32),
        Case("trace_int_rectangular", L.trace, [M], {}, np.trace(f64(M), axis1=-2, axis2=-1),
            np.int32),
        Case("trace_empty", L.trace, [EMPTY], {}, 0.0, np.float32),
        Case("diag", L.diag, [d], {}, ref_diag(d), np.float32),
        Case("diag_k1", L.diag, [d], dict(k=1), ref_diag(d, 1), np.float32),
        Case("diag_k_minus2", L.diag, [d], dict(k=-2), ref_diag(d, -2), np.float32),
        Case("diag_rows_cols", L.diag, [d], dict(num_rows=3, num_cols=5),
            ref_diag(d, 0, 3, 5), np.float32),
        Case("diag_padding", L.diag, [d], dict(padding_value=7), ref_diag(d, pad=7.0),
            np.float32),
        Case("diag_int", L.diag, [M[0, 0]], {}, ref_diag(M[0, 0]), np.int32),
        Case("diag_part", L.diag_part, [x], {}, ref_diag_part(x), np.float32),
        Case("diag_part_k1", L.diag_part, [x], dict(k=1), ref_diag_part(x, 1), np.float32),
        Case("diag_part_k_minus1", L.diag_part, [x], dict(k=-1), ref_diag_part(x, -1),
            np.float32),
        Case("diag_part_int", L.diag_part, [M], {}, ref_diag_part(M), np.int32),
        Case("diag_part_k_pair_equal", L.diag_part, [x], dict(k=(1, 1)), ref_diag_part(x, 1),
             np.float32),
        Case("diag_part_band_batch", L.diag_part, [x], dict(k=(-1, 0), padding_value=9),
             np.stack([ref_diag_part(x, 0),                 # the subdiagonal, left-aligned
                       np.concatenate([ref_diag_part(x, -1), np.full((2, 1), 9.0)], -1)], -2),
             np.float32),
        *[Case(f"diag_part_band_{align.lower()}", L.diag_part, [X34],
               dict(k=(-1, 2), align=align), want, np.float32)
          for align, want in BAND_PARTS.items()],
        Case("diag_band", L.diag, [np.array([[1, 2, 3], [4, 5, 6]], np.float32)],
             dict(k=(-1, 0), padding_value=9), BAND_DIAG, np.float32),
        Case("diag_band_superdiagonals", L.diag, [np.array([[1, 2], [3, 4]], np.int32)],
             dict(k=(1, 2)), BAND_DIAG_RIGHT, np.int32),
        Case("band_part_1_0", L.band_part, [x, 1, 0], {}, ref_band(x, 1, 0), np.float32),
        Case("band_part_lower_triangle", L.band_part, [x, -1, 0], {}, ref_band(x, -1, 0),
            np.float32),
        Case("band_part_upper_triangle", L.band_part, [x, 0, -1], {}, ref_band(x, 0, -1),
            np.float32),
        Case("band_part_diagonal", L.band_part, [x, 0, 0], {}, ref_band(x, 0, 0), np.float32),
        Case("band_part_int64_bounds", L.band_part, [M, np.int64(2), np.int64(1)], {},
            ref_band(M, 2, 1), np.int32),
        Case("band_part_bool", L.band_part, [bools, 1, 1], {}, ref_band(bools, 1, 1), np.bool_),
        Case("tensor_diag", L.tensor_diag, [d], {},
            np.einsum("ij,ik,jl->ijkl", f64(d), np.eye(2), np.eye(3)), np.float32),
        Case("tensor_diag_part", L.tensor_diag_part, [t4], {},
            np.einsum("ijij->ij", f64(t4)), np.float32),
        Case("matrix_transpose", L.matrix_transpose, [x], {}, np.swapaxes(f64(x), -1, -2),
            np.float32),
        Case("adjoint", L.adjoint, [M], {}, np.swapaxes(f64(M), -1, -2), np.int32),
        Case("norm_ord2", tf.norm, [x], dict(ord=2, axis=[-2, -1]),
            ref_spectral_norm(x, (-2, -1)), np.float32),
        Case("norm_ord2_axes_0_2", tf.norm, [x], dict(ord=2, axis=[0, 2]),
            ref_spectral_norm(x, (0, 2)), np.float32),
        Case("norm_ord2_axes_reversed", tf.linalg.norm, [x], dict(ord=2, axis=[2, 1]),
            ref_spectral_norm(x, (2, 1)), np.float32),
        Case("norm_ord2_keepdims", tf.norm, [x], dict(ord=2, axis=[0, 2], keepdims=True),
            ref_spectral_norm(x, (0, 2))[None, :, None], np.float32),
        Case("norm_ord2_f64", tf.norm, [f64(A)], dict(ord=2, axis=[-2, -1]),
            ref_spectral_norm(A, (-2, -1)), np.float64, 1e-10),
    ]


RECORDS = _inverses_and_determinants() + _solves() + _products_and_parts()


@pytest.mark.parametrize("rec", RECORDS, ids=repr)
def test_eager(rec):
    check_eager(rec)


@pytest.mark.parametrize("rec", RECORDS, ids=repr)
def test_in_function(rec):
    check_in_function(rec)


def test_eye_in_linalg():
    got = L.eye(2, 3, batch_shape=[4], dtype=tf.int32)
    assert got.dtype == tf.int32 and got.shape == (4, 2, 3)
    np.testing.assert_array_equal(got.numpy(), np.broadcast_to(np.eye(2, 3), (4, 2, 3)))


# --- decompositions, by their properties ------------------------------------------------------

def _both_modes(fn, *args):
    """fn's result eagerly and in a tf.function, as numpy values."""
    eager = fn(*[tf.constant(a) for a in args])
    graph = tf.function(lambda *a: fn(*a))(*[tf.constant(a) for a in args])
    as_np = (lambda r: tuple(t.numpy() for t in r) if isinstance(r, tuple) else r.numpy())
    return as_np(eager), as_np(graph)


def _orthonormal_columns(q, atol):
    k = q.shape[-1]
    np.testing.assert_allclose(np.swapaxes(q, -1, -2) @ q, np.broadcast_to(np.eye(k), q.shape[:-2]
                                                                           + (k, k)), atol=atol)


@pytest.mark.parametrize("x", [A, TALL, WIDE, f64(TALL), EMPTY], ids=["square", "tall", "wide",
                                                                      "f64", "empty"])
@pytest.mark.parametrize("full", [False, True], ids=["reduced", "full"])
def test_qr_properties(x, full):
    m, n = x.shape[-2:]
    k = min(m, n)
    for q, r in _both_modes(lambda a: L.qr(a, full_matrices=full), x):
        assert q.dtype == x.dtype and r.dtype == x.dtype
        assert q.shape == x.shape[:-2] + (m, m if full else k)
        assert r.shape == x.shape[:-2] + (m if full else k, n)
        np.testing.assert_allclose(q @ r, x, atol=1e-5)
        _orthonormal_columns(q, 1e-5)
        np.testing.assert_array_equal(r, np.triu(r))


@pytest.mark.parametrize("x", [A, TALL, WIDE, f64(WIDE)], ids=["square", "tall", "wide", "f64"])
@pytest.mark.parametrize("full", [False, True], ids=["reduced", "full"])
def test_svd_properties(x, full):
    """TF's order (s, u, v) and v, not vh: x == u @ diag(s) @ v^T."""
    m, n = x.shape[-2:]
    k = min(m, n)
    for s, u, v in _both_modes(lambda a: L.svd(a, full_matrices=full), x):
        assert s.dtype == u.dtype == v.dtype == x.dtype
        assert s.shape == x.shape[:-2] + (k,)
        assert u.shape == x.shape[:-2] + (m, m if full else k)
        assert v.shape == x.shape[:-2] + (n, n if full else k)
        assert np.all(s >= 0) and np.all(np.diff(s, axis=-1) <= 0)      # descending
        np.testing.assert_allclose(s, np.linalg.svd(f64(x), compute_uv=False), rtol=1e-5)
        _orthonormal_columns(u, 1e-5)
        _orthonormal_columns(v, 1e-5)
        back = (u[..., :, :k] * s[..., None, :]) @ np.swapaxes(v[..., :, :k], -1, -2)
        np.testing.assert_allclose(back, x, atol=1e-5)


def test_svd_values_only():
    for s in _both_modes(lambda a: L.svd(a, compute_uv=False), TALL):
        assert s.shape == (2, 3)
        np.testing.assert_allclose(s, np.linalg.svd(f64(TALL), compute_uv=False), rtol=1e-5)


@pytest.mark.parametrize("x", [S, f64(S), A], ids=["spd", "f64", "nonsymmetric_lower_read"])
def test_eigh_properties(x):
    """Ascending eigenvalues, orthonormal eigenvectors of the matrix the lower
    triangle defines: v diag(e) v^T == sym(lower(x))."""
    low = np.tril(f64(x))
    sym = low + np.swapaxes(np.tril(low, -1), -1, -2)
    for e, v in _both_modes(L.eigh, x):
        assert e.dtype == v.dtype == x.dtype
        assert e.shape == x.shape[:-1] and v.shape == x.shape
        assert np.all(np.diff(e, axis=-1) >= 0)
        np.testing.assert_allclose(e, np.linalg.eigvalsh(sym), rtol=1e-4, atol=1e-5)
        _orthonormal_columns(v, 1e-5)
        np.testing.assert_allclose((v * e[..., None, :]) @ np.swapaxes(v, -1, -2), sym,
                                   atol=1e-4)
    for values in _both_modes(L.eigvalsh, x):
        np.testing.assert_allclose(values, np.linalg.eigvalsh(sym), rtol=1e-4, atol=1e-5)


def test_unknown_batch_dims_stay_unknown_while_tracing():
    shapes = []

    @tf.function(input_signature=[tf.TensorSpec([None, 4, 4], tf.float32),
                                  tf.TensorSpec([None, 6, 3], tf.float32)])
    def f(a, t):
        s, u, v = L.svd(t)
        q, r = L.qr(t, full_matrices=True)
        shapes.extend([L.inv(a).shape, L.det(a).shape, s.shape, u.shape, v.shape, q.shape,
                       r.shape, L.trace(a).shape])
        return L.det(a)
    f(tf.constant(A[0]), tf.constant(TALL))
    assert [tuple(s) for s in shapes] == [(None, 4, 4), (None,), (None, 3), (None, 6, 3),
                                          (None, 3, 3), (None, 6, 6), (None, 6, 3), (None,)]


# --- TF's behaviour at singular and invalid inputs ---------------------------------------------

SINGULAR = np.array([[1, 2], [2, 4]], np.float32)


def test_inverse_of_a_singular_matrix():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input is not invertible."):
        L.inv(SINGULAR)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input is not invertible."):
        tf.function(lambda a: L.inv(a))(tf.constant(SINGULAR))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input is not invertible."):
        L.inv(np.array([[np.nan, 0], [0, 1]], np.float32))


def test_solve_with_a_singular_matrix():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix is not invertible."):
        L.solve(SINGULAR, np.ones((2, 1), np.float32))


def test_singular_determinants():
    sign, logabs = L.slogdet(SINGULAR)
    assert sign.numpy() == 0 and logabs.numpy() == -np.inf


def test_named_results_as_tf_names_them():
    result = L.slogdet(A)
    assert type(result).__name__ == "LogMatrixDeterminant"
    np.testing.assert_array_equal(result.sign.numpy(), result[0].numpy())
    np.testing.assert_array_equal(result.log_abs_determinant.numpy(), result[1].numpy())
    qr = tf.function(lambda a: L.qr(a))(tf.constant(TALL))
    assert type(qr).__name__ == "Qr" and qr.q.shape == (2, 6, 3) and qr.r.shape == (2, 3, 3)


def test_cholesky_of_a_matrix_that_is_not_positive_definite_is_nan():
    """TF's CPU kernel fills the failed factor's lower triangle with NaN (no error);
    the other matrices of the batch are factored."""
    not_positive = SINGULAR + np.array([[0, 0], [0, -1]], np.float32)
    batch = np.stack([not_positive, np.eye(2, dtype=np.float32)])
    got = L.cholesky(batch).numpy()
    assert np.isnan(got[0][np.tril_indices(2)]).all()
    np.testing.assert_array_equal(got[1], np.eye(2))


def test_triangular_solve_with_a_zero_on_the_diagonal_gives_nan():
    got = L.triangular_solve(np.array([[1, 0], [1, 0]], np.float32), np.ones((2, 1), np.float32))
    assert got.numpy()[0, 0] == 1 and np.isnan(got.numpy()[1, 0])


@pytest.mark.parametrize("a, b", [(TALL, RHS6), (WIDE, RHS3)], ids=["tall", "wide"])
def test_lstsq_of_a_matrix_of_unknown_size(a, b):
    """Traced without the matrix's size, lstsq runs one kernel, with the same answers."""
    spec = [tf.TensorSpec([None, None, None], tf.float32)] * 2
    ridge = tf.function(lambda x, y: L.lstsq(x, y, l2_regularizer=0.5), input_signature=spec)
    np.testing.assert_allclose(ridge(a, b).numpy(), ref_ridge(a, b, 0.5), rtol=1e-3,
                               atol=1e-5)
    plain = tf.function(lambda x, y: L.lstsq(x, y), input_signature=spec)
    np.testing.assert_allclose(plain(a, b).numpy(), np.linalg.pinv(f64(a)) @ f64(b),
                               rtol=1e-3, atol=1e-5)
    rank_deficient = np.ones((3, 2), np.float32)[None]
    assert np.isnan(plain(rank_deficient, np.ones((1, 3, 1), np.float32)).numpy()).all()


def test_fast_lstsq_of_a_rank_deficient_matrix_is_nan():
    got = L.lstsq(np.ones((3, 2), np.float32), np.ones((3, 1), np.float32))
    assert np.isnan(got.numpy()).all()


SQUARE_ONLY = [("MatrixInverse", L.inv), ("MatrixDeterminant", L.det),
               ("LogMatrixDeterminant", L.slogdet), ("Cholesky", L.cholesky),
               ("SelfAdjointEigV2", L.eigh)]


@pytest.mark.parametrize("op, fn", SQUARE_ONLY, ids=[s[0] for s in SQUARE_ONLY])
def test_shape_errors(op, fn):
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"{op}: Input matrix must be "
                                                            r"square, got shape \[2,3\]"):
        fn(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match="must be square"):
        tf.function(lambda a: fn(a))(tf.constant(np.ones((2, 3), np.float32)))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"must have rank >= 2, got shape "
                                                            r"\[3\]"):
        fn(np.ones((3,), np.float32))


@pytest.mark.parametrize("op, fn", SQUARE_ONLY + [("Qr", L.qr), ("Svd", L.svd),
                                                  ("MatrixSolve", lambda a: L.solve(a, a))],
                         ids=[s[0] for s in SQUARE_ONLY] + ["Qr", "Svd", "MatrixSolve"])
def test_integer_matrices_are_a_type_error(op, fn):
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"{op}: expected"):
        fn(np.eye(2, dtype=np.int32))


def test_float16_only_where_tf_has_a_kernel():
    with pytest.raises(tf.errors.InvalidArgumentError, match="MatrixDeterminant: expected one of float32, float64"):
        L.det(np.eye(2, dtype=np.float16))
    q, r = L.qr(np.eye(2, dtype=np.float16))
    assert q.dtype == r.dtype == tf.float16


@pytest.mark.parametrize("call, error, match", [
    (lambda: L.solve(A, B[0]), tf.errors.InvalidArgumentError,
     "All input tensors must have the same rank"),
    (lambda: L.solve(np.ones((5, 3, 3), np.float32), np.ones((2, 3, 4), np.float32)),
     tf.errors.InvalidArgumentError, "same outer dimensions"),
    (lambda: L.solve(A[0, 0], np.ones((3, 1), np.float32)), tf.errors.InvalidArgumentError,
     "Input matrix and rhs are incompatible"),
    (lambda: L.solve(A, f64(B)), TypeError, "MatrixSolve: matrix and rhs must have the same"),
    (lambda: L.triangular_solve(A[0, 0], np.ones(4, np.float32)),
     tf.errors.InvalidArgumentError, "Right-hand side must have rank >= 2"),
    (lambda: L.matvec(A, np.ones(3, np.float32)), tf.errors.InvalidArgumentError,
     "Matrix size-incompatible"),
    (lambda: L.band_part(np.ones((3, 3)), 5, 0), tf.errors.InvalidArgumentError,
     r"num_lower must be negative or less or equal to number of rows \(3\) got: 5"),
    (lambda: L.band_part(np.ones((3, 3)), 0, 4), tf.errors.InvalidArgumentError,
     r"num_upper must be negative or less or equal to number of columns \(3\) got: 4"),
    (lambda: L.band_part(np.ones((3, 3)), 1.5, 0), TypeError, "num_lower must be an int"),
    (lambda: L.band_part(np.ones(3), 1, 0), tf.errors.InvalidArgumentError,
     "input must be at least 2-dim"),
    (lambda: L.diag_part(np.ones((2, 3)), k=3), tf.errors.InvalidArgumentError,
     "lower_diag_index is out of bound: 3. It must be between -2 and 3"),
    (lambda: L.diag_part(np.ones((2, 3)), k=(1, 0)), tf.errors.InvalidArgumentError,
     "lower_diag_index must not be larger than upper_diag_index: 1 > 0"),
    (lambda: L.diag(np.ones((2, 3)), k=(0, 2)), tf.errors.InvalidArgumentError,
     "The number of diagonals provided in the input does not match"),
    (lambda: L.diag(np.ones(2), num_cols=1), tf.errors.InvalidArgumentError,
     "The number of columns is too small."),
    (lambda: L.diag_part(np.ones((2, 3)), align="UP"), ValueError,
     "align must be one of RIGHT_LEFT"),
    (lambda: L.diag(np.float32(1)), tf.errors.InvalidArgumentError,
     "diagonal must be at least 1-dim"),
    (lambda: L.diag(np.ones(2), num_rows=3, num_cols=4), tf.errors.InvalidArgumentError,
     "The number of rows or columns is not consistent"),
    (lambda: L.trace(np.ones(3)), tf.errors.InvalidArgumentError,
     "input must be at least 2-dim"),
    (lambda: L.tensor_diag(np.float32(1)), tf.errors.InvalidArgumentError,
     "Input must be at least rank 1"),
    (lambda: L.tensor_diag_part(np.ones((2, 3, 3))), tf.errors.InvalidArgumentError,
     "The rank of the tensor should be even and positive"),
    (lambda: L.tensor_diag_part(np.ones((2, 3, 3, 2))), tf.errors.InvalidArgumentError,
     "dimensions 0 and 2 do not match"),
    (lambda: L.matrix_transpose(np.ones(3)), ValueError,
     "should be a \\(batch\\) matrix with rank >= 2"),
    (lambda: tf.norm(np.eye(2, dtype=np.int32), ord=2, axis=[0, 1]),
     tf.errors.InvalidArgumentError, "Svd: expected one of float32, float64"),
], ids=["solve_rank", "solve_batch", "solve_rows", "solve_dtype", "trisolve_vector",
        "matvec_size", "band_lower", "band_upper", "band_float", "band_rank1",
        "diag_part_k", "diag_part_reversed_pair", "diag_band_count", "diag_too_few_columns",
        "diag_part_align", "diag_scalar", "diag_rows_cols", "trace_rank1",
        "tensor_diag_scalar", "tensor_diag_part_odd", "tensor_diag_part_mismatch",
        "matrix_transpose_rank1", "norm2_int"])
def test_argument_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_shape_errors_while_tracing_are_value_errors():
    for fn, args in [(L.solve, (A, B[0])), (L.triangular_solve, (A[0, 0], np.ones((3, 1),
                                                                                   np.float32))),
                     (lambda x: L.band_part(x, 5, 0), (np.ones((3, 3), np.float32),)),
                     (lambda x: L.diag_part(x, k=3), (np.ones((2, 3), np.float32),))]:
        with pytest.raises(ValueError):
            tf.function(lambda *a: fn(*a))(*[tf.constant(a) for a in args])

