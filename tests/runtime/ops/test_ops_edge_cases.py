"""Op edge cases users hit first: Variables where tensors go, bitwise operators
on integers, reductions over empty tensors, Python ints out of range, gather
with batch_dims, and raw numpy errors turned into TensorFlow's.

Each behaviour is checked eagerly and in a traced graph (`tf.function`), and
where Python has an answer (`~5`, `5 & 3`), against plain Python too.
"""

import numpy as np
import pytest

import runtime as tf


def both_modes(fn, *args):
    """fn(*args) eagerly and as a traced graph; both results as numpy values."""
    eager = fn(*args)
    graph = tf.function(fn, autograph=False)(*args)
    return eager, graph


def assert_same(actual, expected_value, expected_dtype):
    assert actual.dtype == expected_dtype, (actual.dtype, expected_dtype)
    np.testing.assert_array_equal(actual.numpy(), expected_value)


def check_both(fn, expected_value, expected_dtype, *args):
    for out in both_modes(fn, *args):
        assert_same(out, expected_value, expected_dtype)


# --- Variables wherever tensors go -------------------------------------------------

@pytest.mark.parametrize("fn, value, dtype", [
    (lambda v: tf.range(v), [0, 1, 2], tf.int32),
    (lambda v: tf.range(1, v), [1, 2], tf.int32),
    (lambda v: tf.range(v, 10, v), [3, 6, 9], tf.int32),
    (lambda v: tf.constant(v), 3, tf.int32),
    (lambda v: tf.constant(v, tf.float32), 3.0, tf.float32),
    (lambda v: tf.constant([v, v]), [3, 3], tf.int32),
    (lambda v: tf.convert_to_tensor([v, 1]), [3, 1], tf.int32),
    (lambda v: v + 1, 4, tf.int32),
    (lambda v: 2 ** v, 8, tf.int32),
    (lambda v: tf.constant(10) - v, 7, tf.int32),
    (lambda v: tf.maximum(v, [1, 5]), [3, 5], tf.int32),
    (lambda v: tf.range(10)[v], 3, tf.int32),
    (lambda v: tf.range(10)[:v], [0, 1, 2], tf.int32),
    (lambda v: tf.stack([1, v]), [1, 3], tf.int32),
    (lambda v: tf.cast(v, tf.float32), 3.0, tf.float32),
    (lambda v: tf.fill([2], v), [3, 3], tf.int32),
    (lambda v: tf.zeros([v]), [0, 0, 0], tf.float32),
], ids=lambda x: "" if not callable(x) else None)
def test_scalar_variable_is_accepted_like_a_tensor(fn, value, dtype):
    v = tf.Variable(3)
    check_both(fn, value, dtype, v)


def test_variable_shape_axis_and_stack_arguments():
    shape = tf.Variable([2, 3])
    check_both(lambda s: tf.zeros(s, tf.int32), np.zeros((2, 3)), tf.int32, shape)
    check_both(lambda s: tf.reshape(tf.range(6), s), np.arange(6).reshape(2, 3),
               tf.int32, shape)
    check_both(lambda s: tf.tile(tf.constant([1]), s[:1]), [1, 1], tf.int32, shape)
    vf = tf.Variable(2.5)
    check_both(lambda v: tf.stack([1.0, v]), [1.0, 2.5], tf.float32, vf)
    check_both(lambda v: tf.range(v), [0.0, 1.0, 2.0], tf.float32, vf)
    axis = tf.Variable(1)
    eager = tf.reduce_sum(tf.ones([2, 3]), axis=axis)
    np.testing.assert_array_equal(eager.numpy(), [3.0, 3.0])


def test_graph_reads_the_variable_when_it_runs():
    v = tf.Variable(2)
    f = tf.function(lambda: tf.range(v), autograph=False)
    assert f().numpy().tolist() == [0, 1]
    v.assign(4)
    assert f().numpy().tolist() == [0, 1, 2, 3]
    g = tf.function(lambda: tf.constant(v) * 10, autograph=False)
    assert int(g()) == 40
    v.assign(5)
    assert int(g()) == 50


def test_variable_static_arguments_in_graph_must_be_known_while_tracing():
    v = tf.Variable(0)
    for fn, text in [(lambda: tf.expand_dims(tf.constant([1]), v), "ExpandDims: axis"),
                     (lambda: tf.one_hot([0], v), "OneHot: depth"),
                     (lambda: tf.reduce_sum(tf.ones([2]), axis=v), "Sum: axis")]:
        assert fn() is not None                              # eagerly the value is known
        with pytest.raises(TypeError, match=f"{text} must be known while tracing"):
            tf.function(fn, autograph=False)()


# --- Python ints out of range ------------------------------------------------------

def test_python_int_beyond_int32_infers_int64():
    check_both(lambda: tf.constant(2**40), 2**40, tf.int64)
    check_both(lambda: tf.constant([1, -2**40]), [1, -2**40], tf.int64)
    check_both(lambda: tf.constant(2**31 - 1), 2**31 - 1, tf.int32)
    check_both(lambda: tf.constant(-2**31), -2**31, tf.int32)
    check_both(lambda: tf.constant(1, tf.int64) + 2**40, 2**40 + 1, tf.int64)


@pytest.mark.parametrize("fn, text", [
    (lambda: tf.constant(2**70), "Python int 1180591620717411303424 to a tensor: it is out "
                                 "of range for int64"),
    (lambda: tf.constant([1, -2**64]), "out of range for int64"),
    (lambda: tf.constant(1) + 2**40, "Python int 1099511627776 to a int32 tensor: it is out "
                                     r"of range \[-2147483648, 2147483647\]"),
    (lambda: tf.constant(1) + 2**70, "to a int32 tensor"),
    (lambda: 2**70 * tf.constant(1, tf.int64), "to a int64 tensor"),
    (lambda: tf.constant(300, tf.uint8), r"300 to a uint8 tensor: it is out of range \[0, 255\]"),
    (lambda: tf.constant(-1, tf.uint8), "-1 to a uint8 tensor"),
    (lambda: tf.constant([1, 2**31], tf.int32), "2147483648 to a int32 tensor"),
])
def test_python_int_out_of_range_is_a_value_error_naming_value_and_dtype(fn, text):
    with pytest.raises(ValueError, match=text):
        fn()
    with pytest.raises(ValueError, match=text):
        tf.function(fn, autograph=False)()


# --- bitwise operators: integer tensors behave like Python ints ---------------------

BIT_OPS = [
    ("~x", lambda x, y: ~x),
    ("x & y", lambda x, y: x & y),
    ("x | y", lambda x, y: x | y),
    ("x ^ y", lambda x, y: x ^ y),
    ("x << 3", lambda x, y: x << 3),
    ("x >> 2", lambda x, y: x >> 2),
    ("y & x", lambda x, y: y & x),
    ("5 & x", lambda x, y: 5 & x),
    ("7 | x", lambda x, y: 7 | x),
    ("9 ^ x", lambda x, y: 9 ^ x),
    ("1 << y", lambda x, y: 1 << y),
    ("-100 >> y", lambda x, y: -100 >> y),
    ("~(x & y) | (x ^ 3)", lambda x, y: ~(x & y) | (x ^ 3)),
]


@pytest.mark.parametrize("x, y", [(5, 3), (-6, 4), (0, 1), (123456, 7), (-1, 0)])
@pytest.mark.parametrize("text, op", BIT_OPS, ids=[t for t, _ in BIT_OPS])
def test_integer_tensor_bit_operators_match_python_ints(text, op, x, y):
    expected = op(x, y)
    eager = op(tf.constant(x), tf.constant(y))
    graph = tf.function(op)(tf.constant(x), tf.constant(y))
    for out in (eager, graph):
        assert out.dtype == tf.int32
        assert int(out) == expected, (text, x, y)


def test_bit_operators_in_converted_control_flow_match_python():
    def popcount_parity(n):
        count = 0
        while n != 0:
            if n & 1:
                count += 1
            n = n >> 1
        return count ^ (~count & 1)

    converted = tf.function(popcount_parity)
    for n in (0, 1, 7, 255, 1000, 2**30 - 1):
        assert int(converted(tf.constant(n))) == popcount_parity(n)


def test_bool_tensor_operators_stay_logical():
    t, f = tf.constant([True, False]), tf.constant([True, True])
    check_both(lambda a, b: ~a, [False, True], tf.bool, t, f)
    check_both(lambda a, b: a & b, [True, False], tf.bool, t, f)
    check_both(lambda a, b: a | False, [True, False], tf.bool, t, f)
    check_both(lambda a, b: a ^ b, [False, True], tf.bool, t, f)
    check_both(lambda a, b: True ^ a, [False, True], tf.bool, t, f)
    check_both(lambda a, b: tf.math.logical_xor(a, b), [False, True], tf.bool, t, f)


def test_bitwise_namespace_and_variables():
    v = tf.Variable(12)
    check_both(lambda a: tf.bitwise.bitwise_and(a, 10), 8, tf.int32, v)
    check_both(lambda a: tf.bitwise.bitwise_or(a, 3), 15, tf.int32, v)
    check_both(lambda a: tf.bitwise.bitwise_xor(a, 5), 9, tf.int32, v)
    check_both(lambda a: tf.bitwise.invert(a), -13, tf.int32, v)
    check_both(lambda a: tf.bitwise.left_shift(a, 2), 48, tf.int32, v)
    check_both(lambda a: tf.bitwise.right_shift(a, 2), 3, tf.int32, v)
    check_both(lambda a: (a ^ 1) + (a << 1) + (a >> 1) + (1 << a), 13 + 24 + 6 + 4096,
               tf.int32, v)
    check_both(lambda: ~tf.constant(5, tf.uint8), 250, tf.uint8)


@pytest.mark.parametrize("fn, text", [
    (lambda: ~tf.constant(1.5), "Invert: expected an integer tensor"),
    (lambda: tf.constant(1.5) & 1, "BitwiseAnd: expected an integer tensor"),
    (lambda: tf.constant([1.0]) ^ 2.0, "BitwiseXor: expected an integer tensor"),
    (lambda: tf.constant(True) << 1, "LeftShift: expected an integer tensor .*, got a bool"),
    (lambda: tf.math.logical_xor(tf.constant(1), tf.constant(2)), "LogicalXor: expected a bool"),
])
def test_bit_operators_reject_floats_and_bools_clearly(fn, text):
    with pytest.raises(tf.errors.InvalidArgumentError, match=text):
        fn()
    with pytest.raises(TypeError, match=text):
        tf.function(fn, autograph=False)()


# --- reductions over nothing give the identity --------------------------------------

I32, I64 = np.iinfo(np.int32), np.iinfo(np.int64)
EMPTY_REDUCTIONS = [
    (tf.reduce_sum, np.float32, 0.0), (tf.reduce_sum, np.int32, 0),
    (tf.reduce_prod, np.float32, 1.0), (tf.reduce_prod, np.int64, 1),
    (tf.reduce_max, np.float32, -np.inf), (tf.reduce_max, np.float64, -np.inf),
    (tf.reduce_max, np.int32, I32.min), (tf.reduce_max, np.int64, I64.min),
    (tf.reduce_max, np.uint8, 0), (tf.reduce_min, np.uint8, 255),
    (tf.reduce_min, np.float32, np.inf), (tf.reduce_min, np.int32, I32.max),
    (tf.reduce_min, np.int64, I64.max),
    (tf.reduce_mean, np.float32, np.nan), (tf.reduce_mean, np.int32, 0),
    (tf.reduce_all, np.bool_, True), (tf.reduce_any, np.bool_, False),
]


@pytest.mark.parametrize("fn, np_dtype, identity", EMPTY_REDUCTIONS,
                         ids=[f"{f.__name__}-{np.dtype(d).name}" for f, d, _ in EMPTY_REDUCTIONS])
def test_reduction_of_empty_tensor_is_the_identity(fn, np_dtype, identity, recwarn):
    dtype = tf.dtypes.as_dtype(np_dtype)
    empty = np.zeros([0], np_dtype)
    check_both(fn, np.asarray(identity, np_dtype), dtype, empty)
    # over a zero-size axis: one identity per remaining element
    rows = np.zeros([0, 3], np_dtype)
    check_both(lambda x: fn(x, axis=0), np.full(3, identity, np_dtype), dtype, rows)
    check_both(lambda x: fn(x, axis=-1, keepdims=True), np.zeros([0, 1], np_dtype), dtype,
               rows)
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_reduction_over_nonempty_values_unchanged_by_identities():
    x = np.array([[3, -7], [2, 5]], np.int32)
    check_both(lambda t: tf.reduce_max(t, 0), [3, 5], tf.int32, x)
    check_both(lambda t: tf.reduce_min(t), -7, tf.int32, x)


@pytest.mark.parametrize("fn, text", [
    (lambda: tf.argmax(tf.constant([], tf.float32)), r"ArgMax: Reduction axis 0 is empty in "
                                                      r"shape \[0\]"),
    (lambda: tf.argmin(tf.zeros([2, 0]), axis=1), r"ArgMin: Reduction axis 1 is empty"),
    (lambda: tf.reduce_sum(tf.ones([2]), axis=1), r"Sum: Invalid reduction dimension \(1 for "
                                                   r"input with 1 dimension\(s\)"),
    (lambda: tf.reduce_max(tf.constant(1.0), axis=0), "Max: Invalid reduction dimension"),
    (lambda: tf.argmax(tf.ones([2]), axis=3), r"ArgMax: Expected dimension in the range "
                                               r"\[-1, 1\), but got 3"),
])
def test_reduction_errors_eagerly_are_invalid_argument(fn, text):
    with pytest.raises(tf.errors.InvalidArgumentError, match=text):
        fn()


def test_argmax_of_empty_axis_in_graph_fails_when_it_runs():
    f = tf.function(lambda x: tf.argmax(x), autograph=False,
                    input_signature=[tf.TensorSpec([None], tf.float32)])
    assert int(f(tf.constant([1.0, 3.0, 2.0]))) == 1
    with pytest.raises(tf.errors.InvalidArgumentError, match="Reduction axis 0 is empty"):
        f(tf.constant([], tf.float32))


# --- gather with batch_dims -------------------------------------------------------

def _gather_reference(params, indices, axis, batch_dims):
    """TensorFlow's definition: np.take per batch element, recursively."""
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    return np.stack([_gather_reference(p, i, axis - 1, batch_dims - 1)
                     for p, i in zip(params, indices)])


GATHER_CASES = [  # (axis, batch_dims, indices shape), params shape [2, 3, 4, 5]
    (None, 1, (2, 6)), (1, 1, (2, 3, 2)), (2, 1, (2, 3, 2)), (-1, 2, (2, 3, 7)),
    (2, 2, (2, 3)), (3, 1, (2,)), (1, 1, (2, 0)), (-2, -1, (2, 3, 4)), (None, -2, (2, 3, 2)),
]


@pytest.mark.parametrize("axis, batch_dims, ishape", GATHER_CASES)
def test_gather_batch_dims_matches_tensorflow_definition(axis, batch_dims, ishape):
    rng = np.random.RandomState(1)
    params = rng.randn(2, 3, 4, 5).astype(np.float32)
    b = batch_dims + len(ishape) if batch_dims < 0 else batch_dims
    a = batch_dims if axis is None else axis          # TF: axis defaults to batch_dims as given
    a = a + 4 if a < 0 else a                         # ... and counts from params' end
    indices = rng.randint(0, params.shape[a], size=ishape).astype(np.int32)
    expected = _gather_reference(params, indices, a, b)

    def fn(p, i):
        return tf.gather(p, i, axis=axis, batch_dims=batch_dims)
    check_both(fn, expected, tf.float32, params, indices)
    relaxed = tf.function(fn, autograph=False, input_signature=[
        tf.TensorSpec([None] * 4, tf.float32), tf.TensorSpec([None] * len(ishape), tf.int32)])
    assert_same(relaxed(params, indices), expected, tf.float32)
    static = tf.function(fn, autograph=False).get_concrete_function(
        tf.TensorSpec(params.shape, tf.float32), tf.TensorSpec(ishape, tf.int32))
    assert static.structured_outputs.shape.as_list() == list(expected.shape)


def test_gather_batch_dims_errors():
    params, indices = tf.zeros([2, 3]), tf.constant([[0], [1]])
    with pytest.raises(ValueError, match=r"batch_dims \(1\) must be less than or equal to "
                                         r"axis \(0\)"):
        tf.gather(params, indices, axis=0, batch_dims=1)
    with pytest.raises(ValueError, match="batch_dims 3 is out of range for indices of rank 2"):
        tf.gather(params, indices, batch_dims=3)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1,0\] = 3 is not in "
                                                             r"\[0, 3\)"):
        tf.gather(params, tf.constant([[0], [3]]), batch_dims=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="must equal"):
        tf.gather(params, tf.constant([[0], [1], [2]]), batch_dims=1)
    with pytest.raises(ValueError, match=r"params.shape\[0\] \(2\) must equal indices.shape"):
        tf.function(lambda: tf.gather(params, tf.constant([[0], [1], [2]]), batch_dims=1),
                    autograph=False)()


# --- no raw numpy errors: each names the op, eagerly and in a graph --------------------

F23 = np.ones([2, 3], np.float32)
EMPTY_ROWS = np.zeros([0, 3], np.float32)

# (fn, args, exception eagerly, exception while tracing, message both share)
RAW_ERROR_CASES = [
    (lambda a: tf.concat([a, a], -3), (F23,), "ConcatV2: axis -3 is out of range for a "
                                               "tensor of rank 2"),
    (lambda a: tf.transpose(a, [0, 2]), (F23,), "Transpose: perm must be a permutation"),
    (lambda a: tf.squeeze(a, 0), (F23,), r"Squeeze: Can not squeeze dim\[0\]"),
    (lambda a: tf.expand_dims(a, 5), (F23,), "ExpandDims: axis 5 is out of range"),
    (lambda a: tf.gather(a, [0], axis=5), (F23,), "GatherV2: axis 5 is out of range"),
    (lambda: tf.gather(3, [0]), (), "GatherV2: params must have rank >= 1"),
    (lambda a: tf.where(a > 0, a, [1.0, 2.0]), (F23,), "SelectV2: Incompatible shapes"),
    (lambda a: a + [1.0, 2.0], (F23,), r"AddV2: Incompatible shapes: \[2,3\] vs. \[2\]"),
    (lambda a: a * np.ones(2, np.float32), (F23,), "Mul: Incompatible shapes"),
    (lambda: tf.one_hot([1], 3, axis=5), (), "OneHot: axis 5 is out of range"),
    (lambda a, b: tf.stack([a, b]), (F23, EMPTY_ROWS), "Pack: all inputs must have the same "
                                                       "shape"),
    (lambda a, b: tf.concat([a, b], 0), (F23, np.zeros([0], np.float32)),
     "ConcatV2: all inputs must have the same rank"),
    (lambda a: tf.reduce_sum(a, [0, 0]), (F23,), "Sum: Invalid reduction arguments: axis "
                                                 r"\[0, 0\] contains a duplicate dimension"),
    (lambda a: tf.reduce_mean(a, [1, -1]), (F23,), "Mean: .*duplicate dimension"),
    (lambda: tf.fill([2], [1, 2]), (), "Fill: value must be a scalar"),
    (lambda: tf.fill([-1], 1), (), r"Fill: dimensions must be >= 0, got \[-1\]"),
]


@pytest.mark.parametrize("fn, args, text", RAW_ERROR_CASES,
                         ids=[c[2].split(":")[0] + str(i) for i, c in enumerate(RAW_ERROR_CASES)])
def test_shape_errors_name_the_op_eagerly_and_while_tracing(fn, args, text):
    with pytest.raises(tf.errors.InvalidArgumentError, match=text):
        fn(*[tf.constant(a) for a in args])
    with pytest.raises(ValueError, match=text):
        tf.function(fn, autograph=False)(*[tf.constant(a) for a in args])


@pytest.mark.parametrize("fn, exc, text", [
    (lambda: tf.constant([[1], [1, 2]]), ValueError, "^Can't convert non-rectangular Python "
                                                     "sequence to Tensor\\.$"),
    (lambda: tf.constant(1.0) + [[1.0], [2.0, 3.0]], ValueError, "non-rectangular"),
    (lambda: tf.constant("a") + 1, TypeError, "Cannot convert 1 to a tensor of dtype string: "
                                              "expected str or bytes, got 1 of type int"),
    (lambda: tf.add("a", 1), TypeError, "dtype string"),
    (lambda: tf.constant(1, shape=[-1]), ValueError, r"constant: dimensions of shape must be "
                                                     r">= 0, got \[-1\]"),
    (lambda: tf.constant([1, 2]) // 0, tf.errors.InvalidArgumentError,
     "FloorDiv: Integer division by zero"),
    (lambda: tf.constant(7) % 0, tf.errors.InvalidArgumentError,
     "FloorMod: Integer division by zero"),
])
def test_conversion_and_run_time_errors_are_tensorflows(fn, exc, text):
    with pytest.raises(exc, match=text):
        fn()
    with pytest.raises(exc, match=text):
        tf.function(fn, autograph=False)()


def test_reshape_error_eagerly_names_sizes_not_numpy():
    # TF 2.21's words (its Reshape kernel's), eagerly and in a graph
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Reshape: Input to reshape is a tensor with 30 values, but the "
                             r"requested shape requires a multiple of 7$"):
        tf.reshape(tf.ones([3, 2, 5]), [7, -1])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Reshape: Input to reshape is a tensor with 30 values, but the "
                             r"requested shape has 35$"):
        tf.reshape(tf.ones([3, 2, 5]), [7, 5])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"requested shape has 35\n"):
        tf.function(lambda x, s: tf.reshape(x, s))(tf.ones([3, 2, 5]), tf.constant([7, 5]))


def test_float_too_large_for_float32_is_inf_without_warning(recwarn):
    check_both(lambda: tf.constant(1e300, tf.float32), np.float32(np.inf), tf.float32)
    check_both(lambda: tf.constant([-1e300], tf.float32), [-np.inf], tf.float32)
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


@pytest.mark.parametrize("fn, expected, dtype", [
    (lambda: tf.add(tf.zeros([0, 3]), 1.0), np.ones([0, 3]), tf.float32),
    (lambda: tf.matmul(tf.zeros([0, 3]), tf.zeros([3, 0])), np.zeros([0, 0]), tf.float32),
    (lambda: tf.concat([tf.zeros([0, 3]), tf.ones([1, 3])], 0), np.ones([1, 3]), tf.float32),
    (lambda: tf.nn.softmax(tf.zeros([0, 3])), np.zeros([0, 3]), tf.float32),
    (lambda: tf.gather(tf.ones([2, 3]), tf.zeros([0], tf.int32)), np.zeros([0, 3]), tf.float32),
    (lambda: tf.size(tf.zeros([0, 3])), 0, tf.int32),
    (lambda: tf.unstack(tf.zeros([0, 3]), axis=1)[0], np.zeros([0]), tf.float32),
    (lambda: tf.one_hot([1], 0), np.zeros([1, 0]), tf.float32),
    (lambda: tf.squeeze(tf.zeros([0, 1])), np.zeros([0]), tf.float32),
    (lambda: tf.reshape(tf.zeros([0, 3]), [-1, 3]), np.zeros([0, 3]), tf.float32),
    (lambda: tf.tile(tf.ones([2]), [0]), np.zeros([0]), tf.float32),
    (lambda: tf.range(0), np.zeros([0]), tf.int32),
    (lambda: tf.constant(2, tf.int64) * 3 - tf.constant(-1, tf.int64), 7, tf.int64),
])
def test_zero_size_and_mixed_scalar_ops_work_in_both_modes(fn, expected, dtype):
    check_both(fn, np.asarray(expected, dtype.np_dtype), dtype)


def test_range_of_a_non_number_names_the_argument():
    with pytest.raises(TypeError, match="Range: limit must be a number or a scalar tensor, "
                                        "got None"):
        tf.range(None)
    with pytest.raises(TypeError, match="Range: delta must be a number"):
        tf.range(0, 5, [1])


def test_scatter_indices_and_updates_pack_lists_of_tensors():
    # TF 2.21 packs a nested list holding tensors, as convert_to_tensor does:
    # tensor_scatter_nd_update(steps, [[i]], [x[i] * 2]) in a tf.range loop gives [2 4 6]
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def doubled(x):
        steps = tf.zeros_like(x)
        for i in tf.range(tf.size(x)):
            steps = tf.tensor_scatter_nd_update(steps, [[i]], [x[i] * 2])
        return steps

    assert doubled(tf.constant([1, 2, 3])).numpy().tolist() == [2, 4, 6]
    eager = tf.tensor_scatter_nd_add(tf.zeros([3], tf.int32), [[tf.constant(1)]], [tf.constant(5)])
    assert eager.numpy().tolist() == [0, 5, 0]


def test_float_floordiv_by_a_constant_in_a_graph_keeps_infinities():
    # TF 2.21: inf // 2.0 is inf and -inf // 2.0 is -inf, eagerly and in tf.function
    # (numpy's float // gives nan there; the graph once inlined it)
    x = tf.constant([np.inf, -np.inf, 5.0, -7.5], tf.float32)
    want = [np.inf, -np.inf, 2.0, -4.0]
    assert (x // 2.0).numpy().tolist() == want
    assert tf.function(lambda v: v // 2.0)(x).numpy().tolist() == want
