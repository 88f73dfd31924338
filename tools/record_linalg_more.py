"""Record TensorFlow 2.21's values for tests/data/linalg_more.npz.

    $BENCH_TF_PYTHON tools/record_linalg_more.py

`cases(tf, wrap)` is written once for both libraries: each case runs a
`tf.linalg` function at fixed inputs under a GradientTape (through `wrap`:
the identity, or `tf.function` in the test's traced mode) and returns its
outputs and the gradients of their sum with respect to the float inputs
(None where TF has none). tests/runtime/ops/math/test_linalg_more.py replays them.
"""

import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "linalg_more.npz"

SYM = [[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]]
GEN = [[1.0, 2.0, 0.5], [3.0, -4.0, 1.0], [0.2, 1.0, 2.0]]
SPD = [[5.2, -4.1, 2.7], [-4.1, 27.0, -1.4], [2.7, -1.4, 6.2]]   # GEN @ GEN^T + I, rounded
B3 = [[1.0], [2.0], [3.0]]
TRI = [[1.0, 1.0, 0.0], [2.0, 3.0, 4.0], [0.0, 1.0, 1.0]]
TRI_PIVOT = [[5.0, 1.0, 0.0], [0.1, 3.0, 4.0], [0.0, 7.0, 1.0]]


def _case_table(tf):
    """name -> (function, inputs as (values, dtype)); the function's float
    inputs are watched."""
    f32, f64 = "float32", "float64"
    lin = tf.linalg
    return {
        "expm": (lin.expm, [(SYM, f32)]),
        "expm_large": (lin.expm, [(np.multiply(GEN, 3).tolist(), f64)]),
        "expm_batch": (lin.expm, [([[[0.0, 1.0], [-1.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]], f32)]),
        "sqrtm": (lin.sqrtm, [(SYM, f32)]),
        "sqrtm_general": (lin.sqrtm, [(SPD, f64)]),
        "sqrtm_nonsymmetric": (lin.sqrtm, [([[4.0, 1.0], [0.5, 9.0]], f64)]),
        "pinv": (lin.pinv, [([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], f32)]),
        "pinv_rank_deficient": (lin.pinv, [([[1.0, 2.0], [2.0, 4.0]], f64)]),
        "tridiagonal_solve": (lambda d, r: lin.tridiagonal_solve(d, r), [(TRI, f32), (B3, f32)]),
        "tridiagonal_solve_pivoting": (lambda d, r: lin.tridiagonal_solve(d, r),
                                       [(TRI_PIVOT, f64), (B3, f64)]),
        "tridiagonal_solve_sequence": (
            lambda u, m, lo, r: lin.tridiagonal_solve([u, m, lo], r, diagonals_format="sequence",
                                                      transpose_rhs=True),
            [([1.0, 1.0, 0.0], f64), ([2.0, 3.0, 4.0], f64), ([0.0, 1.0, 1.0], f64),
             ([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]], f64)]),
        "tridiagonal_solve_matrix": (
            lambda m, r: lin.tridiagonal_solve(m, r, diagonals_format="matrix"),
            [([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]], f32), (B3, f32)]),
        "tridiagonal_matmul": (lambda d, r: lin.tridiagonal_matmul(d, r), [(TRI, f32), (B3, f32)]),
        "banded_lower": (lambda d, r: lin.banded_triangular_solve(d, r),
                         [([[2.0, 3.0, 4.0], [0.0, 1.0, 1.0]], f32), (B3, f32)]),
        "banded_upper": (lambda d, r: lin.banded_triangular_solve(d, r, lower=False),
                         [([[2.0, 3.0, 4.0], [1.0, 1.0, 5.0]], f64), (B3, f64)]),
        "banded_adjoint": (lambda d, r: lin.banded_triangular_solve(d, r, adjoint=True),
                           [([[2.0, 3.0, 4.0], [0.0, 1.0, 1.0]], f64), (B3, f64)]),
        "cross": (lin.cross, [([1.0, 2.0, 3.0], f32), ([4.0, 5.0, 6.0], f32)]),
        "cross_batch": (lin.cross, [([[1.0, 0.0, 0.0], [1.0, 2.0, 3.0]], f64),
                                    ([[0.0, 1.0, 0.0], [1.0, 2.0, 3.0]], f64)]),
        "lu_solve": (lambda r: lin.lu_solve(*lin.lu(tf.constant(GEN, tf.float64)), r),
                     [(B3, f64)]),
        "lu": (lambda x: lin.lu(x), [(GEN, f64)]),
        "lu_batch": (lambda x: lin.lu(x), [([GEN, SYM], f32)]),
        "lu_matrix_inverse": (lambda x: lin.lu_matrix_inverse(*lin.lu(x)), [(GEN, f64)]),
        "lu_reconstruct": (lambda x: lin.lu_reconstruct(*lin.lu(x)), [([GEN, SPD], f64)]),
        "matrix_rank": (lambda x: lin.matrix_rank(x), [([[1.0, 2.0], [2.0, 4.0]], f32)]),
        "matrix_rank_tol": (lambda x: lin.matrix_rank(x, tol=0.5),
                            [([[1.0, 0.0], [0.0, 0.4]], f64)]),
        "normalize": (lambda x: lin.normalize(x, axis=1), [([[3.0, 4.0], [1.0, 0.0]], f32)]),
        "normalize_l1": (lambda x: lin.normalize(x, ord=1), [([[3.0, -4.0], [1.0, 0.0]], f64)]),
        "set_diag": (lambda x, d: lin.set_diag(x, d), [(SYM, f32), ([7.0, 8.0, 9.0], f32)]),
        "set_diag_band": (lambda x, d: lin.set_diag(x, d, align="LEFT_RIGHT", k=(-1, 0)),
                          [(SYM, f64), ([[2.0, 3.0, 4.0], [1.0, 2.0, 3.0]], f64)]),
        "eigvals": (lambda x: tf.math.real(lin.eigvals(x)), [(SYM, f64)]),
        "eigh_tridiagonal_values": (lambda a, b: lin.eigh_tridiagonal(a, b),
                                    [([2.0, 3.0, 4.0], f64), ([1.0, 1.0], f64)]),
        "eigh_tridiagonal_select_i": (
            lambda a, b: lin.eigh_tridiagonal(a, b, select="i", select_range=[1, 2]),
            [([2.0, 3.0, 4.0, -1.0], f64), ([1.0, 0.5, 2.0], f64)]),
        "eigh_tridiagonal_select_v": (
            lambda a, b: lin.eigh_tridiagonal(a, b, select="v", select_range=[0.0, 4.0]),
            [([2.0, 3.0, 4.0, -1.0], f64), ([1.0, 0.5, 2.0], f64)]),
    }


# No gradient: TF has none for lu (so none for what is computed from its
# output) or matrix_rank; ours of eig is not defined (complex gradients).
NO_TAPE = {"lu", "lu_batch", "lu_matrix_inverse", "lu_reconstruct", "matrix_rank",
           "matrix_rank_tol", "eigvals"}
# TF's gradient of eigh_tridiagonal flows through its bisection loop and is not
# the derivative (the sum of the eigenvalues is the trace: d/dalpha = 1): not
# recorded, checked against the derivative in the test.
NO_GRADIENT_CHECK = {"eigh_tridiagonal_values", "eigh_tridiagonal_select_i",
                     "eigh_tridiagonal_select_v"}


def cases(tf, wrap=lambda f: f, names=None):
    """name -> [outputs..., gradients...] as numpy arrays (None: no gradient)."""
    out = {}
    for name, (fn, inputs) in _case_table(tf).items():
        if names is not None and name not in names:
            continue
        args = [tf.constant(np.asarray(v, dtype)) for v, dtype in inputs]

        def run(*args, fn=fn, name=name):
            with tf.GradientTape() as tape:
                tape.watch(args)
                y = fn(*args)
            ys = list(y) if isinstance(y, (tuple, list)) else [y]
            floats = [t for t in ys if t.dtype.is_floating]
            if not floats or name in NO_TAPE:
                return ys, []
            grads = tape.gradient(floats, args)
            return ys, grads
        ys, grads = wrap(run)(*args)
        out[name] = [np.asarray(t.numpy()) for t in ys] + [
            None if g is None else np.asarray(g.numpy()) for g in grads]
    return out


def main():
    import tensorflow as tf
    flat = {}
    for name, values in cases(tf).items():
        for i, v in enumerate(values):
            if name in NO_GRADIENT_CHECK and i >= 1:
                continue
            flat[f"{name}/{i}"] = np.array("none") if v is None else v
    np.savez_compressed(OUT, **flat)
    print(f"wrote {len(flat)} arrays to {OUT}")


if __name__ == "__main__":
    main()
