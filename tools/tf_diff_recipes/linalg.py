"""tools/tf_diff.py's recipes for contractions (matmul, einsum, tensordot) and linear
algebra: decompositions, matrix views, diagonals, band parts, matvec and the solves.
Importing the module registers them (base.py: the registry)."""

import numpy as np

from tf_diff_recipes.base import Case, F32, F64, _i, _u, recipe


# ---------------------------------------------------------------- contractions

@recipe("linalg", "matmul")
def _matmul(rng):
    yield Case("2-d", _u(rng, (2, 3)), _u(rng, (3, 4)))
    yield Case("batch broadcast", _u(rng, (2, 2, 3)), _u(rng, (3, 4)))
    yield Case("transpose_a", _u(rng, (3, 2)), _u(rng, (3, 4)), transpose_a=True)
    yield Case("adjoint_b", _u(rng, (2, 3)), _u(rng, (4, 3)), adjoint_b=True)
    yield Case("i32", _i(rng, (2, 2)), _i(rng, (2, 2)))
    yield Case("shape clash", _u(rng, (2, 3)), _u(rng, (2, 3)))
    yield Case("1-d", _u(rng, (3,)), _u(rng, (3, 2)))


@recipe("einsum", "einsum")
def _einsum(rng):
    yield Case("matmul", "ij,jk->ik", _u(rng, (2, 3)), _u(rng, (3, 4)))
    yield Case("trace", "ii", _u(rng, (3, 3)))
    yield Case("implicit", "ij,jk", _u(rng, (2, 3)), _u(rng, (3, 4)))
    yield Case("ellipsis", "...ij,...jk->...ik", _u(rng, (2, 2, 3)), _u(rng, (2, 3, 2)))
    yield Case("outer", "i,j->ij", _u(rng, (2,)), _u(rng, (3,)))
    yield Case("sum", "ij->", _u(rng, (2, 3)))
    yield Case("bad", "ij,jk->ik", _u(rng, (2, 3)), _u(rng, (2, 4)))


@recipe("einsum", "tensordot")
def _tensordot(rng):
    yield Case("axes=1", _u(rng, (2, 3)), _u(rng, (3, 4)), 1)
    yield Case("axes=0", _u(rng, (2,)), _u(rng, (3,)), 0)
    yield Case("axes lists", _u(rng, (2, 3, 4)), _u(rng, (4, 3)), [[1, 2], [1, 0]])


# ---------------------------------------------------------------- linalg

def _spd(rng, n, batch=()):
    a = _u(rng, batch + (n, n), F64)
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


@recipe("linalg", "inv det slogdet logdet cholesky eigvalsh")
def _square(rng, name):
    yield Case("f64 spd", _spd(rng, 3))
    yield Case("f32 batch spd", _spd(rng, 3, (2,)).astype(F32))
    yield Case("not square", _u(rng, (2, 3), F64))


@recipe("linalg", "eigh qr svd", up_to_sign=True)
def _decompositions(rng, name):
    yield Case("f64 spd", _spd(rng, 3))
    yield Case("f32 batch spd", _spd(rng, 3, (2,)).astype(F32))
    yield Case("not square", _u(rng, (2, 3), F64))


@recipe("linalg", "trace diag_part matrix_transpose adjoint")
def _matrix_views(rng, name):
    yield Case("square", _u(rng, (3, 3)))
    yield Case("batch rect", _u(rng, (2, 3, 4)))


@recipe("linalg", "linalg.diag")
def _diag(rng):
    yield Case("vector", _u(rng, (3,)))
    yield Case("batch", _u(rng, (2, 3)))


@recipe("linalg", "band_part")
def _band_part(rng):
    yield Case("lower", _u(rng, (4, 4)), -1, 0)
    yield Case("band", _u(rng, (3, 5)), 1, 2)


@recipe("linalg", "matvec")
def _matvec(rng):
    yield Case("2-d", _u(rng, (2, 3)), _u(rng, (3,)))
    yield Case("transpose_a", _u(rng, (3, 2)), _u(rng, (3,)), transpose_a=True)


@recipe("linalg", "solve cholesky_solve triangular_solve lstsq")
def _solve(rng, name):
    a = _spd(rng, 3)
    if name == "cholesky_solve":
        a = np.linalg.cholesky(a)
    if name == "triangular_solve":
        a = np.tril(a)
    yield Case("f64", a, _u(rng, (3, 2), F64))
