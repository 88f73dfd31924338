"""tf.truncatediv / tf.truncatemod (C's division and remainder) and clipping
by norm (tf.clip_by_norm, tf.clip_by_global_norm, tf.linalg.global_norm):
table-driven against numpy, eagerly and inside tf.function, plus TF 2.21's
edge cases (values recorded from TensorFlow) and gradients against finite
differences."""

import numpy as np
import pytest

import runtime as tf
from tests.runtime.gradient_check import check_gradients
from tests.runtime.op_records import Rec, check_eager, check_in_function

rng = np.random.default_rng(16)


def _ints(shape, dtype, low=-50, high=50, nonzero=False):
    v = rng.integers(low, high, shape).astype(dtype)
    if nonzero:
        v[v == 0] = 3
    return v


def _c_div(x, y):
    return np.trunc(x.astype(np.float64) / y)


def _clip_ref(t, c, axes=None):
    norm = np.sqrt((t.astype(np.float64) ** 2).sum(axis=axes, keepdims=True))
    return t * c / np.maximum(norm, c)


RECORDS = []
for dt in (np.int32, np.int64):
    for shapes in [((5,), (5,)), ((3, 4), (4,)), ((), (6,)), ((0,), (0,))]:
        x, y = _ints(shapes[0], dt), _ints(shapes[1], dt, nonzero=True)
        RECORDS.append(Rec(f"truncatediv {np.dtype(dt).name} {shapes}", tf.truncatediv,
                           (x, y), {}, _c_div(x, y), dt, rtol=0))
        RECORDS.append(Rec(f"truncatemod {np.dtype(dt).name} {shapes}", tf.truncatemod,
                           (x, y), {}, x - _c_div(x, y) * y, dt, rtol=0))
for dt in (np.float32, np.float64):
    x = rng.normal(size=(4, 3)).astype(dt) * 10
    y = rng.normal(size=(3,)).astype(dt) + 3
    RECORDS += [Rec(f"truncatediv {np.dtype(dt).name}", tf.truncatediv, (x, y), {},
                    np.trunc(x / y), dt),
                Rec(f"truncatemod {np.dtype(dt).name}", tf.truncatemod, (x, y), {},
                    np.fmod(x.astype(np.float64), y), dt, rtol=1e-4)]
    for axes in (None, [1], [0, 1], 0):
        t = rng.normal(size=(3, 4)).astype(dt) * 3
        RECORDS.append(Rec(f"clip_by_norm {np.dtype(dt).name} axes={axes}",
                           lambda t, axes=axes: tf.clip_by_norm(t, 1.5, axes=axes), (t,), {},
                           _clip_ref(t, 1.5, None if axes is None else tuple(np.atleast_1d(axes))),
                           dt))
    small = np.array([0.1, -0.2], dt)            # norm below clip_norm: unchanged
    RECORDS.append(Rec(f"clip_by_norm small {np.dtype(dt).name}",
                       lambda t: tf.clip_by_norm(t, 5.0), (small,), {}, small, dt))
    RECORDS.append(Rec(f"clip_by_norm scalar {np.dtype(dt).name}",
                       lambda t: tf.clip_by_norm(t, 2.0), (np.array(-7.0, dt),), {},
                       np.array(-2.0), dt))


@pytest.mark.parametrize("rec", RECORDS, ids=repr)
def test_against_numpy_eagerly(rec):
    check_eager(rec)


@pytest.mark.parametrize("rec", RECORDS, ids=repr)
def test_against_numpy_in_tf_function(rec):
    check_in_function(rec)


def test_tf_edge_cases():
    # recorded from TF 2.21: 1/0 stays inf, fmod by 0 is nan, signs follow C
    assert tf.truncatediv(tf.constant([1.0, -3.5]), tf.constant([0.0, 2.0])).numpy().tolist() \
        == [np.inf, -1.0]
    assert np.isnan(tf.truncatemod(tf.constant([1.0, -1.0]), tf.constant([0.0, 0.0])).numpy()).all()
    np.testing.assert_allclose(
        tf.clip_by_norm(tf.constant([[3.0, 4.0], [0.0, 0.0]]), 1.0, axes=[1]).numpy(),
        [[0.6, 0.8], [0.0, 0.0]])


def test_integer_division_by_zero_and_small_ints_are_refused():
    with pytest.raises(tf.errors.InvalidArgumentError, match="TruncateDiv: Integer division by zero"):
        tf.truncatediv(tf.constant([1]), tf.constant([0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="TruncateMod: Integer division by zero"):
        tf.truncatemod(tf.constant([1]), tf.constant([0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="TruncateDiv"):
        tf.truncatediv(tf.constant([1], tf.uint8), tf.constant([2], tf.uint8))


def test_clip_by_global_norm_as_tensorflow():
    for run in (lambda f: f(), lambda f: tf.function(f)()):
        clipped, norm = run(lambda: tf.clip_by_global_norm(
            [tf.constant([3.0, 4.0]), None, tf.constant([12.0])], 6.5))
        assert float(norm) == 13.0 and clipped[1] is None
        np.testing.assert_allclose(clipped[0].numpy(), [1.5, 2.0])
        np.testing.assert_allclose(clipped[2].numpy(), [6.0])
    clipped, norm = tf.clip_by_global_norm([tf.constant([np.inf, 4.0])], 1.0)
    assert np.isinf(norm.numpy()) and np.isnan(clipped[0].numpy()).all()
    unchanged, _ = tf.clip_by_global_norm([tf.constant([0.3, 0.4])], 1.0)
    np.testing.assert_allclose(unchanged[0].numpy(), [0.3, 0.4])
    assert float(tf.linalg.global_norm([tf.constant([3.0, 4.0]), tf.constant([12.0])])) == 13.0
    _, given = tf.clip_by_global_norm([tf.constant([3.0, 4.0])], 1.0, use_norm=tf.constant(10.0))
    assert float(given) == 10.0


def test_clip_by_global_norm_wants_a_sequence():
    with pytest.raises(TypeError, match="`t_list` should be a sequence of tensors. Received"):
        tf.clip_by_global_norm(tf.constant([1.0]), 1.0)


def test_gradients_against_finite_differences():
    t = rng.normal(size=(3, 4)) * 3
    check_gradients(lambda t: tf.clip_by_norm(t, 1.5, axes=[1]), [t])
    check_gradients(lambda a, b: tf.clip_by_global_norm([a, b], 2.0)[0][0], [t, t[0] * 2])
    x, y = rng.normal(size=(5,)) * 9, rng.normal(size=(5,)) + 4
    check_gradients(tf.truncatemod, [x, y])
