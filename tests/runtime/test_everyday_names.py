"""Everyday names that are not numeric ops: sliced Variable
assignment and scatter updates, `control_dependencies`, `identity_n`,
`get_static_value`, type specs, loggers, `autograph.trace`, and
`experimental.numpy` (expected values from TensorFlow 2.21)."""

import logging

import numpy as np
import pytest

import runtime as tf
import runtime.experimental.numpy as tnp


def _variable():
    return tf.Variable([[1., 2.], [3., 4.], [5., 6.]])


def test_sliced_assignment_eagerly():
    v = _variable()
    out = v[0].assign([9., 9.])
    np.testing.assert_array_equal(out.numpy(), [[9, 9], [3, 4], [5, 6]])
    v[1:3, 1].assign([7., 8.])
    np.testing.assert_array_equal(v.numpy(), [[9, 9], [3, 7], [5, 8]])
    v[:, 0].assign(0.)                                # broadcast, as TF
    np.testing.assert_array_equal(v.numpy(), [[0, 9], [0, 7], [0, 8]])
    assert isinstance(v[0], tf.Tensor) and v[0].numpy().tolist() == [0, 9]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Cannot broadcast input shape \[3\] into final shape \[2\]"):
        v[0].assign([1., 2., 3.])


def test_sliced_assignment_in_a_function_runs_in_order():
    v = _variable()

    @tf.function
    def step():
        v[0, 0].assign(-1.)
        return v[0].assign(v[1] * 2)
    # TF 2.21 gives [[6, 8], [3, 4], [5, 6]]
    np.testing.assert_array_equal(step().numpy(), [[6, 8], [3, 4], [5, 6]])
    np.testing.assert_array_equal(v.numpy(), [[6, 8], [3, 4], [5, 6]])


def test_sliced_assignment_of_the_whole_variable_in_a_function():
    v = tf.Variable([[1., 2.], [3., 4.]])

    @tf.function
    def g():
        v[:].assign(v * 2)
        return v[1].assign([0., 0.])
    assert g().numpy().tolist() == [[2.0, 4.0], [0.0, 0.0]]            # TF 2.21


def test_scatter_updates():
    v = _variable()
    v.scatter_nd_update([[0, 0]], [100.])
    v.scatter_add(tf.IndexedSlices(tf.constant([[1., 1.]]), tf.constant([2])))
    out = tf.function(lambda: v.scatter_nd_add([[0, 1]], [1.]))()
    # TF 2.21: [[100, 3], [3, 4], [6, 7]]
    np.testing.assert_array_equal(out.numpy(), [[100, 3], [3, 4], [6, 7]])
    v.scatter_nd_sub([[1, 1]], [4.])
    v.scatter_update(tf.IndexedSlices(tf.constant([[0., 0.]]), tf.constant([0])))
    np.testing.assert_array_equal(v.numpy(), [[0, 0], [3, 0], [6, 7]])


def test_control_dependencies_run_their_inputs_first():
    w = tf.Variable(0)
    log = []

    @tf.function
    def f(x):
        check = tf.debugging.assert_positive(x)
        with tf.control_dependencies([w.assign_add(1), check, None]):
            return x + w
    assert int(f(tf.constant(1))) == 2 and int(f(tf.constant(1))) == 3
    with pytest.raises(tf.errors.InvalidArgumentError):
        f(tf.constant(-1))
    with tf.control_dependencies([tf.constant(1)]):        # eagerly: nothing to order
        log.append(1)
    assert log == [1]


def test_identity_n_and_get_static_value():
    a, b = tf.identity_n([tf.constant(1), tf.constant([2.])])
    assert int(a) == 1 and b.numpy().tolist() == [2.0]
    assert tf.get_static_value(3) == 3
    np.testing.assert_array_equal(tf.get_static_value(tf.constant([1., 2.])), [1., 2.])

    @tf.function(input_signature=[tf.TensorSpec([None, 2])])
    def g(x):
        assert tf.get_static_value(x) is None
        np.testing.assert_array_equal(tf.get_static_value(tf.constant([4, 5])), [4, 5])
        assert tf.get_static_value(tf.shape(x)) is None       # a dimension is unknown
        return tf.identity_n([x, x])
    assert [t.shape for t in g(tf.zeros([3, 2]))] == [(3, 2), (3, 2)]


def test_type_specs():
    assert tf.type_spec_from_value(tf.constant([1, 2])) == tf.TensorSpec([2], tf.int32)
    assert tf.type_spec_from_value(np.array([1., 2.])) == tf.TensorSpec([2], tf.float64)
    with pytest.raises(TypeError, match="Could not build a TypeSpec"):
        tf.type_spec_from_value(object())
    spec = tf.TensorArraySpec([2], tf.float32)
    # TF 2.21's repr
    assert repr(spec) == "TensorArraySpec(TensorShape([2]), tf.float32, False, True)"
    assert repr(tf.TensorArraySpec(None, tf.int32, dynamic_size=True)) == \
        "TensorArraySpec(TensorShape(None), tf.int32, True, True)"
    assert spec == tf.TensorArraySpec([2], tf.float32) and spec.is_compatible_with(
        tf.TensorArraySpec([2], tf.float32))


def test_nest_functions():
    nested = {"b": (1, [2, 3]), "a": 4}
    assert tf.nest.flatten(nested) == [4, 1, 2, 3]
    assert tf.nest.map_structure(lambda x: x * 10, nested) == {"b": (10, [20, 30]), "a": 40}
    assert tf.nest.pack_sequence_as(nested, [5, 6, 7, 8]) == {"b": (6, [7, 8]), "a": 5}
    assert tf.nest.is_nested([1]) and not tf.nest.is_nested(1)
    with pytest.raises((ValueError, TypeError)):
        tf.nest.assert_same_structure([1, 2], [1])


def test_logger_verbosity_and_trace(capsys):
    assert tf.get_logger() is logging.getLogger("tensorflow")
    tf.autograph.set_verbosity(3)
    assert tf.autograph.get_verbosity() == 3
    assert logging.getLogger("autograph").level == logging.DEBUG
    tf.autograph.set_verbosity(0)

    @tf.function
    def f(x):
        tf.autograph.trace("tracing", x)
        return x + 1
    f(tf.constant(1))
    f(tf.constant(2))
    out = capsys.readouterr().out
    assert out.count("tracing") == 1 and 'Tensor("x:0", shape=(), dtype=int32)' in out


# TF 2.21 (tf.experimental.numpy): dtypes as NumPy infers and promotes them.
TNP_CASES = [
    (lambda: tnp.asarray([1, 2, 3]), [1, 2, 3], "int64"),
    (lambda: tnp.mean(tnp.asarray([1, 2, 3])), 2.0, "float64"),
    (lambda: tnp.sum(tnp.asarray([1, 2, 3])), 6, "int64"),
    (lambda: tnp.arange(3), [0, 1, 2], "int64"),
    (lambda: tnp.zeros(2), [0.0, 0.0], "float64"),
    (lambda: tnp.ones([2], dtype=tnp.int32), [1, 1], "int32"),
    (lambda: tnp.dot(tnp.asarray([1., 2.]), tnp.asarray([3., 4.])), 11.0, "float64"),
    (lambda: tnp.linspace(0, 1, 3), [0.0, 0.5, 1.0], "float64"),
    (lambda: tnp.asarray([1, 2], dtype=tnp.float32) + 1, [2.0, 3.0], "float32"),
    (lambda: tnp.std(tnp.asarray([1., 2.])), 0.5, "float64"),
    (lambda: tnp.clip(tnp.asarray([1, 2, 3]), 1, 2), [1, 2, 2], "int64"),
    (lambda: tnp.add(tnp.asarray([1, 2]), tnp.asarray([1., 2.], dtype=tnp.float32)),
     [2.0, 4.0], "float64"),
    (lambda: tnp.exp(tnp.asarray([0, 1])), [1.0, np.e], "float64"),
    (lambda: tnp.argmax(tnp.asarray([[1, 5], [7, 2]])), 2, "int64"),
]


@pytest.mark.parametrize("make, value, dtype", TNP_CASES, ids=[str(i) for i in range(14)])
def test_experimental_numpy(make, value, dtype):
    for out in (make(), tf.function(make)()):
        assert out.dtype.name == dtype
        np.testing.assert_allclose(out.numpy(), value, rtol=1e-12)
