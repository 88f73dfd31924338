"""Arguments an op needs while tracing (axis, depth, num, perm, keepdims,
seed...) given as a symbolic tensor inside `tf.function`: a TypeError at trace
time naming the op and the argument. Arguments the graph can take at run time
(shapes of reshape/tile/zeros/fill, range limits) work, with unknown
dimensions in the static shape, and give the eager values."""

import numpy as np
import pytest

import runtime as tf

X = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
IDX = tf.constant([0, 2, 1])
SCALAR_INT = tf.TensorSpec([], tf.int32)

# (the op call given k, a scalar int32 that is 1 when called, op, argument)
NEEDS_STATIC = [
    (lambda k: tf.reduce_sum(X, axis=k), "Sum", "axis"),
    (lambda k: tf.reduce_mean(X, axis=[0, k]), "Mean", "axis"),
    (lambda k: tf.reduce_max(X, axis=0, keepdims=k > 0), "Max", "keepdims"),
    (lambda k: tf.reduce_all(X > 0, axis=k), "All", "axis"),
    (lambda k: tf.argmax(X, axis=k), "ArgMax", "axis"),
    (lambda k: tf.one_hot(IDX, k + 2), "OneHot", "depth"),
    (lambda k: tf.one_hot(IDX, 3, axis=k), "OneHot", "axis"),
    (lambda k: tf.one_hot(IDX, 3, on_value=tf.cast(k, tf.float32)), "OneHot", "on_value"),
    (lambda k: tf.concat([X, X], axis=k), "ConcatV2", "axis"),
    (lambda k: tf.stack([X, X], axis=k), "Pack", "axis"),
    (lambda k: tf.unstack(X, num=k + 1), "Unpack", "num"),
    (lambda k: tf.unstack(X, axis=k), "Unpack", "axis"),
    (lambda k: tf.gather(X, [0], axis=k), "GatherV2", "axis"),
    (lambda k: tf.gather(X, [[0], [1]], batch_dims=k), "GatherV2", "batch_dims"),
    (lambda k: tf.expand_dims(X, k), "ExpandDims", "axis"),
    (lambda k: tf.squeeze(tf.reshape(X, [1, 2, 3]), axis=k - 1), "Squeeze", "axis"),
    (lambda k: tf.transpose(X, perm=[k, 0]), "Transpose", "perm"),
    (lambda k: tf.transpose(X, perm=tf.stack([k, 0])), "Transpose", "perm"),
    (lambda k: tf.nn.softmax(X, axis=k), "Softmax", "axis"),
    (lambda k: tf.eye(2, batch_shape=[k]), "eye", "batch_shape"),
    (lambda k: tf.constant(1.0, shape=[k, 2]), "constant", "shape"),
    (lambda k: tf.matmul(X, X, transpose_a=k > 0), "MatMul", "transpose_a"),
    (lambda k: tf.random.uniform([2], seed=k), "random.uniform", "seed"),
    (lambda k: tf.random.normal([2], seed=k), "random.normal", "seed"),
    (lambda k: tf.nn.dropout(X, 0.5, noise_shape=[k + 1, 3]), "nn.dropout", "noise_shape"),
    (lambda k: tf.debugging.assert_rank(X, k + 1), "assert_rank", "rank"),
    (lambda k: tf.debugging.assert_equal(X, X, summarize=k), "assert x == y", "summarize"),
    (lambda k: tf.print(X, summarize=k), "print", "summarize"),
]


@pytest.mark.parametrize("call, op, arg", NEEDS_STATIC,
                         ids=[f"{op}-{arg}-{i}" for i, (_, op, arg) in enumerate(NEEDS_STATIC)])
def test_symbolic_value_is_a_trace_time_type_error(call, op, arg):
    call(tf.constant(1))                       # eagerly the value is known
    f = tf.function(call, autograph=False)
    with pytest.raises(TypeError) as info:
        f.get_concrete_function(SCALAR_INT)    # tracing alone raises
    message = str(info.value)
    assert message.startswith(f"{op}: {arg} must be known while tracing "
                              "(a Python value or a constant), got the symbolic tensor ")
    assert message.endswith("whose value is only known when the graph runs")


def _graph_and_eager(call, k):
    f = tf.function(call, autograph=False)
    return f(tf.constant(k)).numpy(), call(tf.constant(k)).numpy()


@pytest.mark.parametrize("call, expected", [
    (lambda k: tf.reduce_sum(X, axis=tf.rank(X) - 1), [6.0, 15.0]),
    (lambda k: tf.one_hot(IDX, tf.shape(X)[1]), np.eye(3, dtype=np.float32)[[0, 2, 1]]),
    (lambda k: tf.transpose(X, perm=tf.constant([1, 0])), [[1, 4], [2, 5], [3, 6]]),
    (lambda k: tf.transpose(X, tf.range(tf.rank(X) - 1, -1, -1)), [[1, 4], [2, 5], [3, 6]]),
    (lambda k: tf.reverse(X, [-tf.rank(X) % 2 + 1]), [[3, 2, 1], [6, 5, 4]]),
    (lambda k: tf.stack([X, X], axis=tf.constant(1))[0], [[1, 2, 3], [1, 2, 3]]),
    (lambda k: tf.reduce_max(X, axis=[tf.constant(0)], keepdims=tf.constant(True)),
     [[4, 5, 6]]),
])
def test_values_known_while_tracing_are_used(call, expected):
    graph, eager = _graph_and_eager(call, 1)
    np.testing.assert_array_equal(graph, eager)
    np.testing.assert_allclose(graph, expected)


# (the op call given k, the static shape of its result while tracing)
AT_RUN_TIME = [
    (lambda k: tf.reshape(X, [k + 1, -1]), [None, None]),
    (lambda k: tf.reshape(tf.tile(X, [k, 1]), tf.stack([k, 6])), [None, 6]),
    (lambda k: tf.tile(X, [k, k + 1]), [None, None]),
    (lambda k: tf.zeros([k, 2]), [None, 2]),
    (lambda k: tf.ones(tf.stack([2, k])), [2, None]),
    (lambda k: tf.fill([k, 3], 7), [None, 3]),
    (lambda k: tf.range(k + 2), [None]),
    (lambda k: tf.shape(tf.random.uniform([k, 2])), [2]),
    (lambda k: X[k - 1], [3]),
    (lambda k: X[:, k:], [2, None]),
    (lambda k: tf.eye(k + 1), [None, None]),                   # TF: tf.eye(tf.shape(x)[0])
    (lambda k: tf.eye(2, num_columns=k, dtype=tf.int32), [2, None]),
    (lambda k: tf.eye(k, batch_shape=[2]), [2, None, None]),
]


@pytest.mark.parametrize("k", [1, 2])
@pytest.mark.parametrize("call, static", AT_RUN_TIME)
def test_shape_arguments_work_at_run_time(call, static, k):
    f = tf.function(call, autograph=False)
    traced = f.get_concrete_function(SCALAR_INT).structured_outputs
    assert traced.shape.as_list() == static
    graph, eager = _graph_and_eager(call, k)
    assert graph.dtype == eager.dtype
    np.testing.assert_array_equal(graph, eager)


@pytest.mark.parametrize("call, message", [
    (lambda k: tf.reshape(X, k * 6), "Reshape: shape must be a 1-D tensor, got shape []"),
    (lambda k: tf.tile(X, k), "Tile: multiples must be a 1-D tensor, got shape []"),
])
def test_scalar_shape_tensors_are_refused_while_tracing(call, message):
    f = tf.function(call, autograph=False)
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        f.get_concrete_function(SCALAR_INT)


MATRIX_SHAPE = tf.TensorSpec([2, 2], tf.int32)


@pytest.mark.parametrize("call, op, arg", [
    (lambda s: tf.zeros(s), "zeros", "shape"),
    (lambda s: tf.fill(s, 1.0), "Fill", "shape"),
    (lambda s: tf.reshape(X, s), "Reshape", "shape"),
    (lambda s: tf.tile(X, s), "Tile", "multiples"),
])
def test_shape_tensors_with_two_dimensions_are_refused(call, op, arg):
    f = tf.function(call, autograph=False)
    with pytest.raises(ValueError, match=rf"{op}: {arg} must be a 1-D tensor, got shape \[2,2\]"):
        f.get_concrete_function(MATRIX_SHAPE)
    with pytest.raises(ValueError, match=r"must be a 1-D tensor, got shape \[2,2\]"):
        call(tf.constant([[1, 2], [1, 2]]))          # eagerly too, not a reshaped value
