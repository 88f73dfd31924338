"""tf.edit_distance against TF 2.21's values (printed by
tools/record_edit_distance.py under TF 2.21, kept as literals): strings and
ints, normalized and not, an empty truth (inf) and two empty sequences (0),
dense shapes of different sizes (the larger wins), eagerly and in tf.function."""

import numpy as np
import pytest

import runtime as tf

H = tf.SparseTensor([[0, 0, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]], [b"a", b"b", b"c", b"a"],
                    [2, 2, 2])
T = tf.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1]],
                    [b"a", b"b", b"d", b"x", b"y"], [2, 2, 3])
H2 = tf.SparseTensor([[0, 0], [0, 1]], [1, 2], [2, 2])
T2 = tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.constant([], tf.int32), [2, 2])
H3 = tf.SparseTensor([[0, 0], [0, 1], [0, 2], [1, 0]], [3, 1, 4, 1], [3, 4])
T3 = tf.SparseTensor([[0, 0], [0, 1], [0, 2], [0, 3], [2, 0]], [1, 3, 4, 5, 9], [2, 5])

TF_221 = [
    (H, T, True, [[np.inf, 1.0], [0.5, 1.0]]),
    (H, T, False, [[1.0, 1.0], [1.0, 2.0]]),
    (H2, T2, True, [np.inf, 0.0]),
    (H2, T2, False, [2.0, 0.0]),
    (H3, T3, True, [0.75, np.inf, 1.0]),
]


@pytest.mark.parametrize("mode", ["eager", "function"])
@pytest.mark.parametrize("case", range(len(TF_221)))
def test_edit_distance_is_tfs(case, mode):
    h, t, normalize, want = TF_221[case]
    fn = lambda a, b: tf.edit_distance(a, b, normalize=normalize)  # noqa: E731
    if mode == "function":
        fn = tf.function(fn, autograph=False)
    got = fn(h, t)
    assert got.dtype == tf.float32
    np.testing.assert_array_equal(got.numpy(), np.array(want, np.float32))


def test_edit_distance_refuses_what_tf_refuses():
    with pytest.raises(TypeError, match="same dtype"):
        tf.edit_distance(H2, tf.SparseTensor([[0, 0]], [1.0], [2, 2]))
    with pytest.raises(TypeError, match="must be a SparseTensor"):
        tf.edit_distance(tf.constant([1, 2]), T2)
