"""tf.linalg's LinearOperator family against TensorFlow 2.21's values.

The table is tools/record_linear_operator.py's `cases` (written once for
both libraries), TF's results recorded in tests/data/linear_operator_tf221.npz:
each operator runs its methods (matmul, matvec, solve, determinant,
to_dense, diag_part, trace, add_to_tensor, eigvals, inverse, adjoint,
cholesky, cond: the letters of its row) eagerly and inside tf.function, with
the gradient of some of them, and its static facts (shape, hints, the class
each derived operator has) match TF's text. float64 agrees to 1e-10
relative, float32 to 2e-5 (TF's Toeplitz and Kronecker compute through
other factorizations than ours: rounding differs).
"""


import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import MODES, load, results_fixture

table, DATA, NAMES = load("record_linear_operator")
results = results_fixture(table)


@pytest.mark.parametrize("name", NAMES)
def test_linear_operator_methods_are_tfs(results, name):
    got = results[name]
    keys = [k for k in DATA.files if k.split("/")[0] == name]
    assert sorted(k.split("/")[1] for k in keys) == sorted(got)
    for key in keys:
        want, value = DATA[key], got[key.split("/")[1]]
        if key.endswith("/facts"):
            assert value == str(want), key
            continue
        assert value.shape == want.shape and value.dtype == want.dtype, (key, value, want)
        single = want.dtype in (np.float32, np.complex64)
        np.testing.assert_allclose(value, want, rtol=2e-5 if single else 1e-10,
                                   atol=2e-5 if single else 1e-10, err_msg=key)


# --- hints, errors and special points ---------------------------------------------------------

@pytest.mark.parametrize("make, message", [
    (lambda: tf.linalg.LinearOperatorDiag([1.0], is_self_adjoint=False),
     "A real diagonal operator is always self adjoint."),
    (lambda: tf.linalg.LinearOperatorFullMatrix([[1.0]], is_positive_definite=True,
                                                is_non_singular=False),
     "A positive definite matrix is always non-singular."),
    (lambda: tf.linalg.LinearOperatorIdentity(2, is_square=False),
     "An identity operator is always square."),
    (lambda: tf.linalg.LinearOperatorZeros(2, is_non_singular=True),
     "A zero operator is always singular."),
    (lambda: tf.linalg.LinearOperatorHouseholder([1.0, 0.0], is_positive_definite=True),
     "A Householder operator is always non-positive definite."),
    (lambda: tf.linalg.LinearOperatorPermutation([0, 0, 1]),
     "must be a vector of unique integers from 0 to 2"),
    (lambda: tf.linalg.LinearOperatorTridiag([[1.0]], diagonals_format="banded"),
     "must be one of compact, matrix, or sequence"),
    (lambda: tf.linalg.LinearOperatorKronecker([tf.linalg.LinearOperatorIdentity(2)],
                                               is_non_singular=False),
     "The Kronecker product of non-singular operators is always non-singular."),
    (lambda: tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0]]).cholesky(),
     "Cannot take the Cholesky decomposition"),
    (lambda: tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0]]).inverse(),
     "Cannot take the Inverse: This operator represents a non square matrix."),
    (lambda: tf.linalg.LinearOperatorDiag([1.0, 2.0]).matmul(
        tf.linalg.LinearOperatorIdentity(3)), "Operators are incompatible"),
])
def test_bad_hints_and_arguments_raise_tfs_messages(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_methods_refused_as_tf_refuses_them():
    rect = tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0]])
    with pytest.raises(NotImplementedError, match="not be square"):
        rect.determinant()
    with pytest.raises(NotImplementedError, match="Only self-adjoint"):
        tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [0.0, 1.0]]).eigvals()
    with pytest.raises(NotImplementedError, match="expected to be singular"):
        tf.linalg.LinearOperatorZeros(2).solve(tf.ones([2, 1]))
    with pytest.raises(TypeError, match="Expected argument to have dtype float32"):
        tf.linalg.LinearOperatorDiag([1.0, 2.0]).matvec(tf.constant([1.0, 2.0], tf.float64))


def test_special_points_zeros_singular_empty_and_variables():
    # TF 2.21: a zero diagonal gives det 0, log|det| -inf, and an inf solve
    d = tf.linalg.LinearOperatorDiag([0.0, 2.0])
    assert d.determinant().numpy() == 0.0
    assert d.log_abs_determinant().numpy() == -np.inf
    np.testing.assert_array_equal(d.solvevec([1.0, 1.0]).numpy(), [np.inf, 0.5])
    # an empty operator: shape (0, 0), det 1, trace 0
    e = tf.linalg.LinearOperatorDiag(tf.zeros([0]))
    assert e.shape.as_list() == [0, 0] and e.determinant().numpy() == 1.0
    assert e.trace().numpy() == 0.0 and e.to_dense().shape == (0, 0)
    # a variable's current value is read at each call, and its gradient flows
    v = tf.Variable([1.0, 2.0])
    op = tf.linalg.LinearOperatorDiag(v)
    v.assign([3.0, 4.0])
    np.testing.assert_array_equal(op.diag_part().numpy(), [3.0, 4.0])
    with tf.GradientTape() as tape:
        y = op.log_abs_determinant()
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [1 / 3, 1 / 4])
    assert op.trainable_variables == (v,)


def test_operator_algebra_returns_tfs_classes():
    diag = tf.linalg.LinearOperatorDiag([1.0, 2.0])
    ident = tf.linalg.LinearOperatorIdentity(2)
    assert (diag @ ident) is diag and (ident @ diag) is diag
    assert type(diag @ diag).__name__ == "LinearOperatorDiag"
    full = tf.linalg.LinearOperatorFullMatrix([[1.0, 2.0], [3.0, 4.0]])
    assert type(full.H).__name__ == "LinearOperatorAdjoint" and full.H.H is full
    assert type(full.inverse()).__name__ == "LinearOperatorInversion"
    assert full.inverse().inverse() is full
    comp = full @ full
    np.testing.assert_allclose(comp.to_dense().numpy(), [[7.0, 10.0], [15.0, 22.0]])
    np.testing.assert_allclose(full.solve(full).to_dense().numpy(), np.eye(2), atol=1e-6)
    assert diag.parameters["diag"] == [1.0, 2.0] and diag.name == "LinearOperatorDiag"
    assert diag.shape_tensor().numpy().tolist() == [2, 2]
    assert diag.domain_dimension == 2 and diag.batch_shape.as_list() == []


# --- the ops the family runs on, where they were wrong before (TF 2.21's values) --------------

@pytest.mark.parametrize("mode", ["eager", "function"])
def test_ops_under_the_family_are_tfs(mode):
    def run(v, a, z):
        idx = tf.constant([[2, 1, 0], [3, 2, 1], [4, 3, 2]])
        w = tf.reshape(tf.range(9.0), [3, 3])
        with tf.GradientTape() as tape:
            tape.watch([v, z])
            gathered = tf.reduce_sum(tf.gather(v, idx, axis=-1) * w)
            prod = tf.math.reduce_prod(z)
            loss = tf.cast(gathered, tf.float64) + tf.math.real(prod)
        gv, gz = tape.gradient(loss, [v, z])
        return gv, tf.linalg.matmul(a, a, adjoint_a=True), tf.linalg.adjoint(a), prod, gz
    run = MODES[mode](run)
    gv, aha, adj, prod, gz = run(tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]),
                                 tf.constant([[1 + 1j, 2 + 0j], [3 + 0j, 4j]]),
                                 tf.constant([1 + 2j, 3j, 2 - 1j]))
    np.testing.assert_array_equal(gv.numpy(), [2.0, 6.0, 12.0, 10.0, 6.0])
    np.testing.assert_array_equal(aha.numpy(), [[11, 2 + 10j], [2 - 10j, 20]])
    np.testing.assert_array_equal(adj.numpy(), [[1 - 1j, 3], [2, -4j]])
    assert prod.numpy() == -9 + 12j
    np.testing.assert_array_equal(gz.numpy(), [3 - 6j, 4 - 3j, -6 - 3j])


def test_top_level_linalg_aliases_are_tfs():
    # TF 2.21: tf.eig is tf.linalg.eig, tf.eigvals is tf.linalg.eigvals,
    # tf.matrix_square_root is tf.linalg.sqrtm
    assert tf.eig is tf.linalg.eig and tf.eigvals is tf.linalg.eigvals
    assert tf.matrix_square_root is tf.linalg.sqrtm
    np.testing.assert_array_equal(tf.matrix_square_root([[4.0, 0.0], [0.0, 9.0]]).numpy(),
                                  [[2.0, 0.0], [0.0, 3.0]])


def test_operators_are_composites_traced_once_per_spec():
    traces = []

    @tf.function
    def apply(op, x):
        traces.append(1)
        return op.matvec(x), op.inverse()

    x = tf.constant([1.0, 1.0])
    y1, inv = apply(tf.linalg.LinearOperatorDiag([1.0, 2.0]), x)
    y2, _ = apply(tf.linalg.LinearOperatorDiag([3.0, 4.0]), x)
    assert len(traces) == 1                      # TF 2.21: one trace for one spec
    np.testing.assert_array_equal(y1.numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(y2.numpy(), [3.0, 4.0])
    assert type(inv).__name__ == "LinearOperatorDiag"      # returned through the graph
    np.testing.assert_array_equal(inv.diag_part().numpy(), [1.0, 0.5])
    kron = tf.linalg.LinearOperatorKronecker([tf.linalg.LinearOperatorDiag([1.0, 2.0]),
                                              tf.linalg.LinearOperatorFullMatrix(
                                                  [[1.0, 2.0], [3.0, 4.0]])])
    parts = tf.nest.flatten(kron, expand_composites=True)     # TF: [diag, matrix]
    assert [p.shape.as_list() for p in parts] == [[2], [2, 2]]
    np.testing.assert_array_equal(apply(kron, tf.ones([4]))[0].numpy(), [3.0, 7.0, 6.0, 14.0])
