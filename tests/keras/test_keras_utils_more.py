"""keras.utils.pad_sequences / normalize and keras.backend.epsilon / floatx.
Expected values come from TF 2.21's Keras 3 for the same inputs."""

import numpy as np
import pytest

import runtime as tf

U = tf.keras.utils
SEQS = [[1, 2, 3], [4, 5], [6, 7, 8, 9, 10]]


def test_pad_sequences_defaults_pad_and_truncate_at_the_front():
    out = U.pad_sequences(SEQS)
    assert isinstance(out, np.ndarray) and out.dtype == np.int32       # TF 2.21: int32
    assert out.tolist() == [[0, 0, 1, 2, 3], [0, 0, 0, 4, 5], [6, 7, 8, 9, 10]]
    assert U.pad_sequences(SEQS, maxlen=4).tolist() == [[0, 1, 2, 3], [0, 0, 4, 5],
                                                        [7, 8, 9, 10]]


def test_pad_sequences_post_value_dtype_and_strings():
    out = U.pad_sequences(SEQS, maxlen=4, padding="post", truncating="post", value=-1)
    assert out.tolist() == [[1, 2, 3, -1], [4, 5, -1, -1], [6, 7, 8, 9]]
    assert U.pad_sequences([[1.5, 2.5], [3.5]], dtype="float32").tolist() == [[1.5, 2.5],
                                                                             [0.0, 3.5]]
    assert U.pad_sequences([[], [1]]).tolist() == [[0], [1]]
    out = U.pad_sequences([["a", "b"], ["c"]], dtype=object, value="x")
    assert out.tolist() == [["a", "b"], ["x", "c"]]


def test_pad_sequences_bad_arguments():
    with pytest.raises(ValueError, match='Padding type "mid" not understood'):
        U.pad_sequences(SEQS, padding="mid")
    with pytest.raises(ValueError, match='Truncating type "mid" not understood'):
        U.pad_sequences(SEQS, truncating="mid")
    with pytest.raises(ValueError, match="dtype=object"):
        U.pad_sequences([["a"]], value="x")
    with pytest.raises(ValueError, match="list of iterables"):
        U.pad_sequences([1, 2])


X = np.array([[3., 4.], [1., 0.], [0., 0.]], "float32")


def test_normalize_numpy_in_numpy_out():
    out = U.normalize(X)
    assert isinstance(out, np.ndarray) and out.dtype == np.float32
    np.testing.assert_allclose(out, [[0.6, 0.8], [1.0, 0.0], [0.0, 0.0]], rtol=1e-6)
    np.testing.assert_allclose(U.normalize(X, order=1),
                               [[0.4285714328289032, 0.5714285969734192], [1, 0], [0, 0]])
    np.testing.assert_allclose(U.normalize(np.array([[1., 2.]]), order=3),
                               [[0.4807498567691361, 0.9614997135382722]], rtol=1e-12)
    # Keras 3 raises for a numpy x with axis=0 (a broadcast bug); we normalize the columns
    np.testing.assert_allclose(U.normalize(X, axis=0),
                               [[0.9486832618713379, 1.0], [0.3162277638912201, 0], [0, 0]],
                               rtol=1e-6)


@pytest.mark.parametrize("traced", [False, True])
def test_normalize_tensor_eager_and_in_tf_function(traced):
    run = tf.function(U.normalize) if traced else U.normalize
    out = run(tf.constant(X))
    assert isinstance(out, tf.Tensor)
    np.testing.assert_allclose(out.numpy(), [[0.6000000238418579, 0.800000011920929],
                                             [1.0, 0.0], [0.0, 0.0]], rtol=1e-6)
    np.testing.assert_allclose(run(tf.constant(X), axis=0).numpy(),
                               [[0.9486832618713379, 1.0], [0.3162277638912201, 0.0],
                                [0.0, 0.0]], rtol=1e-6)
    np.testing.assert_allclose(run(tf.constant(X), order=1).numpy(),
                               [[0.4285714328289032, 0.5714285969734192], [1, 0], [0, 0]],
                               rtol=1e-6)
    # a tiny norm is clamped at epsilon (TF 2.21: 9.9999998245167e-14 for both orders)
    np.testing.assert_allclose(run(tf.constant([1e-20, 0.])).numpy(), [9.9999998245167e-14, 0],
                               rtol=1e-5)
    np.testing.assert_allclose(run(tf.constant([1e-20, 0.]), order=1).numpy(),
                               [9.9999998245167e-14, 0], rtol=1e-5)


def test_normalize_rejects_int_tensors_and_bad_order():
    with pytest.raises(tf.errors.InvalidArgumentError, match="float"):
        U.normalize(tf.constant([[1, 2]]))
    with pytest.raises(ValueError, match="order"):
        U.normalize(tf.constant([[1.0, 2.0]]), order=0)


def test_backend_epsilon_and_floatx():
    B = tf.keras.backend
    assert B.epsilon() == 1e-07 and B.floatx() == "float32"      # TF 2.21's defaults
    try:
        B.set_epsilon(1e-3)
        assert B.epsilon() == 1e-3
        np.testing.assert_allclose(U.normalize(tf.constant([1e-20, 0.])).numpy(), [1e-17, 0],
                                   rtol=1e-5)
    finally:
        B.set_epsilon(1e-7)
    with pytest.raises(ValueError, match="floatx"):
        B.set_floatx("int8")
    B.set_floatx("float64")        # Keras 3.15 accepts the float types
    assert B.floatx() == "float64"
    B.set_floatx("float32")
    assert B.floatx() == "float32"
