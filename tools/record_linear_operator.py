"""Record TensorFlow 2.21's values for tests/data/linear_operator_tf221.npz.

    /tmp/tfvenv/bin/python tools/record_linear_operator.py

`cases(tf, wrap)` is written once for both libraries: each case builds a
`tf.linalg.LinearOperator*` from fixed inputs (inside `wrap`: the identity,
or `tf.function` in the test's traced mode), runs the methods its letters
name on fixed right-hand sides, and returns their values, the gradient of
the listed methods' summed real parts with respect to the float inputs, and
the operator's facts (shape, hints, the classes `adjoint()`, `inverse()`,
`cholesky()` and `op @ op` return). tests/runtime/test_linear_operator.py
replays them.
"""

import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "linear_operator_tf221.npz"

F32, F64, C64, C128 = "float32", "float64", "complex64", "complex128"
SPD = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]]
GEN = [[1.0, 2.0, 0.5], [3.0, -4.0, 1.0], [0.2, 1.0, 2.0]]
TRIL = [[2.0, 9.0, 9.0], [1.0, -3.0, 9.0], [0.5, 0.7, 1.5]]

# The methods a letter runs (each on the operator `op`, right-hand sides
# made from its shape by _rhs).
METHODS = {
    "m": lambda op, r: op.matmul(r["x"]),
    "M": lambda op, r: op.matmul(_t(r["xr"]), adjoint=True, adjoint_arg=True),
    "v": lambda op, r: op.matvec(r["v"]),
    "V": lambda op, r: op.matvec(r["vr"], adjoint=True),
    "s": lambda op, r: op.solve(r["x"]),
    "S": lambda op, r: op.solve(_t(r["x"]), adjoint=True, adjoint_arg=True),
    "w": lambda op, r: op.solvevec(r["v"]),
    "d": lambda op, r: op.determinant(),
    "l": lambda op, r: op.log_abs_determinant(),
    "D": lambda op, r: op.to_dense(),
    "g": lambda op, r: op.diag_part(),
    "t": lambda op, r: op.trace(),
    "a": lambda op, r: op.add_to_tensor(_square_like(op)),
    "e": lambda op, r: op.eigvals(),
    "i": lambda op, r: op.inverse().to_dense(),
    "h": lambda op, r: op.adjoint().to_dense(),
    "c": lambda op, r: op.cholesky().to_dense(),
    "k": lambda op, r: op.cond(),
}
_TF = {}


def _t(x):
    return _TF["tf"].linalg.adjoint(x)


def _values(shape, dtype, seed):
    """Fixed values of `shape` (complex ones with an imaginary part)."""
    n = int(np.prod(shape))
    base = np.cos(np.arange(n) * 1.7 + seed) * 1.5 + 0.25
    if dtype.startswith("complex"):
        base = base + 1j * np.sin(np.arange(n) * 0.9 + seed)
    return base.reshape(shape).astype(dtype)


def _rhs(op):
    """Right-hand sides for the operator [..., M, N]: x [..., N, 2], v [..., N],
    and xr [..., M, 2], vr [..., M] for its adjoint."""
    tf = _TF["tf"]
    batch = op.shape.as_list()[:-2]
    rows, cols = op.shape.as_list()[-2:]
    dt = op.dtype.name
    x = tf.constant(_values(batch + [max(rows, cols), 2], dt, 1))
    v = tf.constant(_values(batch + [max(rows, cols)], dt, 2))
    return {"x": x[..., :cols, :], "v": v[..., :cols], "xr": x[..., :rows, :],
            "vr": v[..., :rows]}


def _square_like(op):
    return _TF["tf"].constant(_values(op.shape.as_list(), op.dtype.name, 3))


def _case_table(tf):
    """name -> (builder(*inputs) -> operator, inputs as (values, dtype),
    method letters, letters whose outputs the gradient sums)."""
    lin = tf.linalg
    perm_batch = [[2, 0, 1], [0, 1, 2]]
    return {
        "full_general": (lambda m: lin.LinearOperatorFullMatrix(m), [(GEN, F64)],
                         "mMvVsSwdlDgtaihk", "msdl"),
        "full_spd": (lambda m: lin.LinearOperatorFullMatrix(
            m, is_self_adjoint=True, is_positive_definite=True),
            [(SPD, F32)], "mvswdlDgtaeihck", "sdlc"),
        "full_rect": (lambda m: lin.LinearOperatorFullMatrix(m),
                      [([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], F32)], "mMvVDhk", "m"),
        "full_complex": (lambda m: lin.LinearOperatorFullMatrix(m),
                         [((np.array(GEN) + 1j * np.array(SPD)).tolist(), C128)],
                         "mMvVDgth", ""),
        "diag": (lambda d: lin.LinearOperatorDiag(d), [([1.0, -2.0, 3.0], F32)],
                 "mMvVsSwdlDgtaeihk", "msdlt"),
        "diag_batch_pd": (lambda d: lin.LinearOperatorDiag(d, is_positive_definite=True),
                          [([[1.0, 2.0], [3.0, 0.5]], F64)], "mvsdlDgtaeic", "sdlc"),
        "diag_complex": (lambda d: lin.LinearOperatorDiag(d),
                         [([1 + 1j, 2 - 1j], C64)], "mMsSdlDgtih", ""),
        "identity": (lambda: lin.LinearOperatorIdentity(3), [], "mMvsdlDgtaeihck", ""),
        "identity_batch": (lambda: lin.LinearOperatorIdentity(2, batch_shape=[2],
                                                              dtype=tf.float64),
                           [], "mvsdlDgtaeic", ""),
        "scaled_identity": (lambda m: lin.LinearOperatorScaledIdentity(3, m),
                            [(-2.5, F32)], "mMvsSdlDgtaeihk", "msdlt"),
        "scaled_identity_batch": (lambda m: lin.LinearOperatorScaledIdentity(
            2, m, is_positive_definite=True), [([2.0, 0.5], F64)], "msdlDgtaec", "sdc"),
        "lower_triangular": (lambda t: lin.LinearOperatorLowerTriangular(t), [(TRIL, F64)],
                             "mMvVsSwdlDgtaihk", "msdl"),
        "zeros": (lambda: lin.LinearOperatorZeros(3), [], "mMvdlDgtaeh", ""),
        "zeros_rect": (lambda: lin.LinearOperatorZeros(2, 3, batch_shape=[2],
                                                       is_self_adjoint=False, is_square=False),
                       [], "mMvVDg", ""),
        "circulant": (lambda s: lin.LinearOperatorCirculant(s),
                      [([6.0 + 0j, 1 - 2j, -1 + 0j, 1 + 2j], C64)], "mMvVsSdlDgtihk", ""),
        "circulant_real_io": (lambda s: lin.LinearOperatorCirculant(
            s, input_output_dtype=tf.float32), [([4.0, 1.0, 2.0, 1.0], F32)],
            "mvsdlDgtaeik", "msdlt"),
        "circulant2d": (lambda s: lin.LinearOperatorCirculant2D(
            s, input_output_dtype=tf.complex128),
                        [([[5.0, 1.0, 0.5], [2.0, 3.0, 1.5]], F64)], "mMvsSdlDgtek", ""),
        "circulant3d": (lambda s: lin.LinearOperatorCirculant3D(
            s, input_output_dtype=tf.complex128),
            [([[[4.0, 1.0], [2.0, 3.0]], [[1.5, 2.5], [0.5, 1.0]]], C128)], "mvsdlDgt", ""),
        "toeplitz": (lambda c, r: lin.LinearOperatorToeplitz(c, r),
                     [([3.0, 1.0, 0.5], F64), ([9.0, -1.0, 2.0], F64)],
                     "mMvVsSdlDgtaihk", "msdlt"),
        "householder": (lambda v: lin.LinearOperatorHouseholder(v), [([1.0, 2.0, -2.0], F32)],
                        "mMvVsSdlDgteihk", "mD"),
        "householder_batch": (lambda v: lin.LinearOperatorHouseholder(v),
                              [([[1.0, 0.0], [3.0, 4.0]], F64)], "msdlDgte", "m"),
        "permutation": (lambda p: lin.LinearOperatorPermutation(p),
                        [([2, 0, 1], "int32")], "mMvVsSdlDgtihk", ""),
        "permutation_batch": (lambda p: lin.LinearOperatorPermutation(p, dtype=tf.float64),
                              [(perm_batch, "int32")], "mvsdlDgt", ""),
        "tridiag_compact": (lambda d: lin.LinearOperatorTridiag(d),
                            [([[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, 1.0, 3.0]], F64)],
                            "mMvVsSdlDgtaihk", "msdl"),
        "tridiag_matrix": (lambda m: lin.LinearOperatorTridiag(m, diagonals_format="matrix"),
                           [([[4.0, 1.0, 0.0], [2.0, 5.0, 1.0], [0.0, 3.0, 6.0]], F32)],
                           "mvsdlDgt", "ms"),
        "tridiag_sequence": (lambda a, b, c: lin.LinearOperatorTridiag(
            [a, b, c], diagonals_format="sequence", is_self_adjoint=True),
            [([1.0, 1.0, 0.0], F64), ([4.0, 5.0, 6.0], F64), ([0.0, 1.0, 1.0], F64)],
            "mvsdlDgte", "msd"),
        "kronecker": (lambda a, b: lin.LinearOperatorKronecker(
            [lin.LinearOperatorFullMatrix(a), lin.LinearOperatorFullMatrix(b)]),
            [([[1.0, 2.0], [3.0, 4.0]], F64), (GEN, F64)], "mMvsSdlDgtih", "msdl"),
        "kronecker_spd": (lambda a, b: lin.LinearOperatorKronecker(
            [lin.LinearOperatorDiag(a, is_positive_definite=True),
             lin.LinearOperatorFullMatrix(b, is_self_adjoint=True,
                                          is_positive_definite=True)]),
            [([1.0, 2.0], F32), (SPD, F32)], "msdlDgteic", "sdlc"),
        "block_diag": (lambda a, b: lin.LinearOperatorBlockDiag(
            [lin.LinearOperatorFullMatrix(a), lin.LinearOperatorDiag(b)]),
            [([[1.0, 2.0], [3.0, 4.0]], F64), ([5.0, -6.0, 7.0], F64)],
            "mMvVsSwdlDgtaih", "msdl"),
        "block_lower_triangular": (lambda a, b, c: lin.LinearOperatorBlockLowerTriangular(
            [[lin.LinearOperatorFullMatrix(a)],
             [lin.LinearOperatorFullMatrix(b), lin.LinearOperatorLowerTriangular(c)]]),
            [([[2.0, 1.0], [1.0, 3.0]], F64), ([[1.0, 2.0], [0.5, -1.0], [3.0, 1.0]], F64),
             (TRIL, F64)], "mMvVsSdlDgti", "msdl"),
        "composition": (lambda a, b: lin.LinearOperatorComposition(
            [lin.LinearOperatorFullMatrix(a), lin.LinearOperatorLowerTriangular(b)]),
            [(GEN, F64), (TRIL, F64)], "mMvVsSdlDgtih", "msdl"),
        "composition_rect": (lambda a, b: lin.LinearOperatorComposition(
            [lin.LinearOperatorFullMatrix(a), lin.LinearOperatorFullMatrix(b)]),
            [([[1.0, 2.0, 3.0], [0.0, 1.0, 1.0]], F32), (GEN, F32)], "mMvVD", "m"),
        "adjoint": (lambda m: lin.LinearOperatorAdjoint(lin.LinearOperatorFullMatrix(m)),
                    [(GEN, F64)], "mMvVsSdlDgtih", "msdl"),
        "inversion": (lambda m: lin.LinearOperatorInversion(lin.LinearOperatorFullMatrix(m)),
                      [(GEN, F64)], "mMvVsSdlDgtih", "msdl"),
        "low_rank_update": (lambda d, u: lin.LinearOperatorLowRankUpdate(
            lin.LinearOperatorDiag(d, is_positive_definite=True), u),
            [([1.0, 2.0, 3.0], F64), ([[1.0], [0.5], [-1.0]], F64)],
            "mMvsSdlDgtaeic", "msdl"),
        "low_rank_update_uv": (lambda m, u, dd, v: lin.LinearOperatorLowRankUpdate(
            lin.LinearOperatorFullMatrix(m), u, diag_update=dd, v=v),
            [(GEN, F64), ([[1.0, 0.0], [0.5, 1.0], [-1.0, 2.0]], F64), ([2.0, -0.5], F64),
             ([[0.3, 1.0], [1.0, -1.0], [0.5, 0.2]], F64)], "mMvVsSdlDgtih", "msdl"),
    }


def _facts(tf, op):
    """The operator's static facts, one string (compared as text)."""
    def kind(f):
        try:
            return type(f()).__name__
        except (ValueError, NotImplementedError) as e:
            return type(e).__name__
    hints = [op.is_non_singular, op.is_self_adjoint, op.is_positive_definite, op.is_square]
    return (f"shape={op.shape.as_list()} dtype={op.dtype.name} hints={hints} "
            f"adjoint={kind(op.adjoint)} inverse={kind(op.inverse)} "
            f"cholesky={kind(op.cholesky)} matmul={kind(lambda: op @ op)}")


def _scalar_sum(tf, ys):
    total = tf.constant(0.0, tf.float64)
    for y in ys:
        y = tf.math.real(y) if y.dtype.is_complex else y
        total = total + tf.cast(tf.reduce_sum(y), tf.float64)
    return total


def cases(tf, wrap=lambda f: f, names=None):
    """name -> {"facts": str, "<letter>": value, "grad<i>": gradient}."""
    _TF["tf"] = tf
    out = {}
    for name, (build, inputs, letters, graded) in _case_table(tf).items():
        if names is not None and name not in names:
            continue
        args = [tf.constant(np.asarray(v, dtype)) for v, dtype in inputs]
        facts = _facts(tf, build(*args))

        def run(*args, build=build, letters=letters, graded=graded):
            floats = [a for a in args if a.dtype.is_floating]
            with tf.GradientTape() as tape:
                tape.watch(floats)
                op = build(*args)
                r = _rhs(op)
                ys = {k: METHODS[k](op, r) for k in letters}
                loss = _scalar_sum(tf, [ys[k] for k in graded]) if graded else None
            grads = tape.gradient(loss, floats) if graded and floats else []
            return ys, grads
        ys, grads = wrap(run)(*args)
        record = {"facts": facts}
        record.update({k: np.asarray(y.numpy()) for k, y in ys.items()})
        record.update({f"grad{i}": np.asarray(g.numpy()) for i, g in enumerate(grads)
                       if g is not None})
        out[name] = record
    return out


def main():
    import tensorflow as tf
    flat = {}
    for name, record in cases(tf).items():
        for key, value in record.items():
            flat[f"{name}/{key}"] = np.array(value) if key == "facts" else value
    np.savez_compressed(OUT, **flat)
    print(f"wrote {len(flat)} arrays to {OUT}")


if __name__ == "__main__":
    main()
