"""TensorFlow's dtype rules, shape inference on partial shapes, and the errors
ops raise (eagerly and while tracing or running a graph)."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.exec import executor
from runtime._src.graph.graph import Graph


def traced(specs, fn):
    """Trace fn on placeholders [(dtype, shape)...]; return (graph, outputs list)."""
    g = Graph("f")
    with g.as_default():
        args = [g.add_placeholder(d, s, f"x{i}") for i, (d, s) in enumerate(specs)]
        out = fn(*args)
    g.outputs = list(out) if isinstance(out, (list, tuple)) else [out]
    return g, g.outputs


# --- dtype rules ---------------------------------------------------------------------

def test_python_and_numpy_values_take_the_tensor_dtype():
    i = tf.constant([1, 2])
    assert (i + np.int64(3)).dtype == tf.int32
    assert (np.int64(3) + i).dtype == tf.int32
    assert (i * 2).dtype == tf.int32
    e = tf.eye(5) + np.random.randn(5, 5)
    assert e.dtype == tf.float32 and e.shape == (5, 5)
    f = tf.constant([1.5]) + 1
    assert f.dtype == tf.float32
    np.testing.assert_array_equal(f.numpy(), np.array([2.5], np.float32))
    assert (np.ones(2) + i).dtype == tf.int32      # numpy defers to the tensor


def test_mixed_tensor_dtypes_raise():
    with pytest.raises(tf.errors.InvalidArgumentError, match="AddV2.*int32.*float32.*tf.cast"):
        tf.constant([1]) + tf.constant([1.0])
    with pytest.raises(TypeError, match="AddV2: inputs must have the same dtype, got int32 "
                       "and float32"):
        traced([(tf.int32, []), (tf.float32, [])], lambda x, y: x + y)


def test_float_scalar_into_int_tensor_raises_type_error():
    with pytest.raises(TypeError, match="2.5"):
        tf.constant([1, 2]) + 2.5


@pytest.mark.parametrize("fn, name", [(tf.sqrt, "Sqrt"), (tf.exp, "Exp"), (tf.math.log, "Log"),
                                      (tf.tanh, "Tanh"), (tf.nn.sigmoid, "Sigmoid"),
                                      (tf.nn.softmax, "Softmax")])
def test_float_only_ops_reject_integers(fn, name):
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"{name}: expected a floating-point tensor .*got a int32"):
        fn(tf.constant([4]))
    with pytest.raises(TypeError, match=f"{name}: expected a floating-point tensor"):
        traced([(tf.int32, [2])], fn)


def test_logical_ops_need_bools_and_arithmetic_rejects_bools():
    with pytest.raises(tf.errors.InvalidArgumentError, match="LogicalAnd: expected a bool tensor, got a int32"):
        tf.logical_and(tf.constant(1), tf.constant(0))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Sub: expected a numeric tensor.*got a bool"):
        tf.constant(True) - tf.constant(False)
    with pytest.raises(TypeError, match="where: condition must be a bool tensor, got int32"):
        tf.where(tf.constant([1]), 1, 2)


def test_integer_division_rules():
    q = tf.constant([7, -7]) / 2
    assert q.dtype == tf.float64
    np.testing.assert_array_equal(q.numpy(), [3.5, -3.5])
    np.testing.assert_array_equal((tf.constant([7, -7]) // 2).numpy(), [3, -4])
    np.testing.assert_array_equal((tf.constant([7, -7]) % 3).numpy(), [1, 2])
    with np.errstate(divide="ignore"):
        assert (tf.constant(1) / 0).numpy() == np.inf
    for op in (lambda x: x // 0, lambda x: x % tf.constant([1, 0])):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
            op(tf.constant([1, 2]))
        g, _ = traced([(tf.int32, [2])], op)
        with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
            executor.run(g, [np.array([1, 2], np.int32)])


def test_integer_negative_power_raises():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Pow.*negative integer powers"):
        tf.constant(2) ** -1


def test_cast_truncates_and_rejects_strings():
    np.testing.assert_array_equal(tf.cast([1.7, -1.7], tf.int32).numpy(), [1, -1])
    np.testing.assert_array_equal(tf.cast([0.0, 0.5], tf.bool).numpy(), [False, True])
    x = tf.constant([1, 2])
    assert tf.cast(x, tf.int32) is x
    with pytest.raises(TypeError, match="Cast: casting string to int32 is not supported"):
        tf.cast(tf.constant("a"), tf.int32)


def test_argmax_output_type_and_bad_output_type():
    assert tf.argmax([1, 3, 2]).dtype == tf.int64
    assert int(tf.argmax([1, 3, 2])) == 1
    with pytest.raises(TypeError, match="ArgMax: output_type must be int32 or int64"):
        tf.argmax([1, 2], output_type=tf.float32)


# --- shape errors --------------------------------------------------------------------

def test_matmul_shape_mismatch_names_op_and_shapes():
    with pytest.raises(ValueError, match=r"MatMul: Dimensions must be equal, but are 3 and 4 "
                       r"for matmul of shapes \[2,3\] and \[4,5\]"):
        traced([(tf.float32, [2, 3]), (tf.float32, [4, 5])], tf.matmul)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Matrix size-incompatible: In\[0\]: \[2, 3\], In\[1\]: \[4, 5\]"):
        tf.matmul(tf.zeros([2, 3]), tf.zeros([4, 5]))
    with pytest.raises(ValueError, match="rank >= 2"):
        traced([(tf.float32, [3]), (tf.float32, [3, 2])], tf.matmul)
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank >= 2"):
        tf.matmul(tf.zeros([3]), tf.zeros([3, 2]))


def test_broadcast_mismatch_names_op_and_shapes():
    with pytest.raises(ValueError, match=r"AddV2: Incompatible shapes: \[2\] vs. \[3\]"):
        traced([(tf.int32, [2]), (tf.int32, [3])], tf.add)
    with pytest.raises(tf.errors.InvalidArgumentError, match="AddV2"):
        tf.constant([1, 2]) + tf.constant([1, 2, 3])


def test_run_time_shape_error_in_graph_names_op():
    g, _ = traced([(tf.int32, [None]), (tf.int32, [None])], tf.add)
    with pytest.raises(tf.errors.InvalidArgumentError, match="AddV2"):
        executor.run(g, [np.zeros(2, np.int32), np.zeros(3, np.int32)])


@pytest.mark.parametrize("fn, pattern", [
    (lambda x: tf.reshape(x, [4]), r"Reshape: Cannot reshape a tensor with 6 elements to shape \[4\]"),
    (lambda x: tf.reshape(x, [4, -1]), "Reshape: Cannot reshape a tensor with 6 elements"),
    (lambda x: tf.reshape(x, [-1, -1]), "can only infer one dimension"),
    (lambda x: tf.reduce_sum(x, axis=2), "Sum: axis 2 is out of range for a tensor of rank 2"),
    (lambda x: tf.concat([x, tf.zeros([2, 4], tf.int32)], 0), "ConcatV2: dimensions other than"),
    (lambda x: tf.concat([x, x[0]], 0), "ConcatV2: all inputs must have the same rank"),
    (lambda x: tf.stack([x, x[0]]), "Pack: all inputs must have the same shape"),
    (lambda x: tf.squeeze(x, [0]), r"Squeeze: Can not squeeze dim\[0\]"),
    (lambda x: tf.transpose(x, [0, 2]), "Transpose: perm must be a permutation"),
    (lambda x: tf.tile(x, [2]), "Tile: multiples must have one entry per dimension"),
    (lambda x: tf.expand_dims(x, 5), "ExpandDims: axis 5 is out of range"),
    (lambda x: tf.gather(x, [0], axis=3), "GatherV2: axis 3 is out of range"),
    (lambda x: tf.unstack(x, num=3), "Unpack: num=3 does not match dimension 0"),
])
def test_shape_errors_while_tracing(fn, pattern):
    with pytest.raises(ValueError, match=pattern):
        traced([(tf.int32, [2, 3])], fn)


@pytest.mark.parametrize("fn, pattern", [
    (lambda x: tf.reshape(x, [4]), "Reshape"),
    (lambda x: tf.reduce_sum(x, axis=2), "Sum"),
    (lambda x: tf.concat([x, tf.zeros([2, 4], tf.int32)], 0), "ConcatV2"),
    (lambda x: tf.squeeze(x, [0]), "Squeeze"),
    (lambda x: tf.tile(x, [2]), "Tile: Expected multiples argument to be a vector of length 2"),
    (lambda x: tf.gather(x, [0, 5]), r"GatherV2: indices\[1\] = 5 is not in \[0, 2\)"),
    (lambda x: tf.gather(x, [[0], [-1]]), r"GatherV2: indices\[1,0\] = -1 is not in \[0, 2\)"),
])
def test_shape_errors_eagerly(fn, pattern):
    with pytest.raises(tf.errors.InvalidArgumentError, match=pattern):
        fn(tf.constant(np.zeros((2, 3), np.int32)))


def test_gather_out_of_range_at_graph_run_time():
    g, _ = traced([(tf.float32, [3]), (tf.int32, [None])], tf.gather)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 3 is not in \[0, 3\)"):
        executor.run(g, [np.zeros(3, np.float32), np.array([3], np.int32)])


def test_range_and_constant_argument_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires delta != 0"):
        tf.range(0, 5, 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires start <= limit"):
        tf.range(5, 2)
    with pytest.raises(TypeError, match=r"constant: cannot reshape or broadcast a value with 3 "
                       r"elements to shape \[2, 2\]"):
        tf.constant([1, 2, 3], shape=[2, 2])
    with pytest.raises(ValueError, match="unstack: cannot infer argument `num`"):
        traced([(tf.int32, None)], tf.unstack)


# --- shape inference on partial shapes -------------------------------------------------

def test_shape_of_partially_known_input():
    g, (s, n, r) = traced([(tf.float32, [None, 3])], lambda x: (tf.shape(x), tf.size(x), tf.rank(x)))
    assert s.dtype == tf.int32 and s.shape == (2,)
    assert n.shape == () and r.shape == ()
    out = executor.run(g, [np.zeros((5, 3), np.float32)])
    np.testing.assert_array_equal(out[0], np.array([5, 3], np.int32))
    assert out[0].dtype == np.int32 and out[1] == 15 and out[2] == 2


def test_static_shapes_flow_through_shape_tensors():
    _, (a, b, c, d) = traced([(tf.float32, [2, 3]), (tf.float32, [None, 4]), (tf.int32, [])],
                             lambda x, y, k: (tf.reshape(y, tf.shape(x)), tf.zeros(tf.shape(x)),
                                              tf.reshape(x, [k, -1]), tf.fill([k, 2], 1.0)))
    assert a.shape == (2, 3)
    assert b.shape == (2, 3)
    assert c.shape == (None, None)
    assert d.shape == (None, 2)


@pytest.mark.parametrize("fn, expected", [
    (lambda x: x + 1, None),
    (lambda x: tf.matmul(x, x), None),
    (lambda x: tf.reduce_sum(x, 0), None),
    (lambda x: tf.reduce_sum(x), ()),
    (lambda x: tf.shape(x), (None,)),
    (lambda x: tf.expand_dims(x, 0), None),
    (lambda x: tf.squeeze(x), None),
    (lambda x: tf.transpose(x, [1, 0]), (None, None)),
    (lambda x: x[0], None),
])
def test_unknown_rank_inputs(fn, expected):
    _, (y,) = traced([(tf.float32, None)], fn)
    assert y.shape.dims == expected


def test_unknown_dims_propagate():
    _, (m, s, cc, st) = traced(
        [(tf.float32, [None, 3]), (tf.float32, [3, None])],
        lambda x, y: (tf.matmul(x, y), x + tf.zeros([1, 3]), tf.concat([x, x], 0),
                      tf.stack([x, x], axis=1)))
    assert m.shape == (None, None)
    assert s.shape == (None, 3)
    assert cc.shape == (None, 3)
    assert st.shape == (None, 2, 3)


# --- operators, conversion and namespaces -----------------------------------------------

OPERATORS = [
    (lambda x, y: x + y, np.add), (lambda x, y: x - y, np.subtract),
    (lambda x, y: x * y, np.multiply), (lambda x, y: x // y, np.floor_divide),
    (lambda x, y: x % y, np.mod), (lambda x, y: x ** y, np.power),
    (lambda x, y: x < y, np.less), (lambda x, y: x <= y, np.less_equal),
    (lambda x, y: x > y, np.greater), (lambda x, y: x >= y, np.greater_equal),
    (lambda x, y: x == y, np.equal), (lambda x, y: x != y, np.not_equal),
    (lambda x, y: -x, lambda x, y: -x), (lambda x, y: abs(x), lambda x, y: np.abs(x)),
    (lambda x, y: 10 - x, lambda x, y: 10 - x), (lambda x, y: 3 % y, lambda x, y: 3 % y),
]


@pytest.mark.parametrize("op, ref", OPERATORS)
def test_tensor_operators_eager_and_graph(op, ref):
    x = np.array([5, -3, 4], np.int32)
    y = np.array([2, 2, 3], np.int32)
    expected = ref(x, y)
    eager = op(tf.constant(x), tf.constant(y))
    np.testing.assert_array_equal(eager.numpy(), expected)
    assert eager.dtype.np_dtype == expected.dtype
    g, (out,) = traced([(tf.int32, [3]), (tf.int32, [3])], op)
    np.testing.assert_array_equal(executor.run(g, [x, y])[0], expected)


def test_bool_and_matmul_operators():
    a, b = tf.constant([True, False]), tf.constant([True, True])
    np.testing.assert_array_equal((a & b).numpy(), [True, False])
    np.testing.assert_array_equal((a | b).numpy(), [True, True])
    np.testing.assert_array_equal((~a).numpy(), [False, True])
    m = tf.constant([[1, 2], [3, 4]])
    np.testing.assert_array_equal((m @ m).numpy(), [[7, 10], [15, 22]])
    assert (tf.constant(1) == None) is False  # noqa: E711 - the operator under test
    assert (tf.constant(1) != None) is True  # noqa: E711 - the operator under test


def test_convert_nested_lists_with_tensors():
    t = tf.convert_to_tensor([tf.constant(1.5), 2, 3])
    assert t.dtype == tf.float32
    np.testing.assert_array_equal(t.numpy(), np.array([1.5, 2, 3], np.float32))
    nested = tf.convert_to_tensor([[tf.constant(1), 2], [3, 4]])
    assert nested.shape == (2, 2) and nested.dtype == tf.int32
    g, (y,) = traced([(tf.int32, [])], lambda k: tf.convert_to_tensor([[k, 1], [2, k]]))
    assert y.shape == (2, 2)
    np.testing.assert_array_equal(executor.run(g, [np.int32(7)])[0], [[7, 1], [2, 7]])
    with pytest.raises(ValueError, match="requested dtype int32"):
        tf.convert_to_tensor([tf.constant(1), tf.constant(1.0)])


def test_constant_in_graph_is_a_const_node():
    g, (c,) = traced([], lambda: tf.constant([1, 2]) * 2)
    assert [n.op for n in g.nodes] == ["Const", "Const", "Mul"]
    np.testing.assert_array_equal(executor.run(g, [])[0], [2, 4])
    with pytest.raises(TypeError, match="constant: value must be a Python or numpy value"):
        traced([(tf.int32, [])], tf.constant)


def test_unstack_returns_a_list_of_tensors():
    parts = tf.unstack(tf.constant([[1, 2], [3, 4]]), axis=1)
    assert isinstance(parts, list) and len(parts) == 2
    np.testing.assert_array_equal(parts[1].numpy(), [2, 4])
    g, outs = traced([(tf.int32, [None, 3])], lambda x: tf.unstack(x, axis=1))
    assert len(outs) == 3 and all(o.shape == (None,) for o in outs)


def test_shape_arithmetic_keeps_static_shapes():
    _, outs = traced([(tf.float32, [4, 3]), (tf.float32, [None, 3])], lambda x, y: (
        tf.zeros([tf.shape(x)[0] * 2, tf.size(x)]),
        tf.reshape(x, [tf.shape(x)[1], -1]),
        tf.range(tf.rank(x) + 1),
        tf.zeros([tf.shape(y)[0], tf.shape(y)[1]])))
    assert [o.shape.dims for o in outs] == [(8, 12), (3, 4), (3,), (None, 3)]
