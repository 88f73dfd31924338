"""Top-level names of TF 2.21 that were missing: the space/depth/batch
rearrangements, `reverse_sequence`, `unravel_index`, `shape_n`,
`parallel_stack`, `group`/`no_op`/`tuple`, `scalar_mul`/`realdiv`,
`fingerprint`, `hessians`, the `tf.*_initializer`s, `DeviceSpec`, the
variable synchronization enums and `get_current_name_scope`. Every expected
value below is TF 2.21's, recorded with the same calls."""

import numpy as np
import pytest

import runtime as tf


def _both(fn, *args):
    """fn's result eagerly and inside a tf.function, as numpy; they must agree."""
    eager = fn(*args)
    traced = tf.function(fn)(*args)
    np.testing.assert_array_equal(np.asarray(eager), np.asarray(traced))
    assert eager.dtype == traced.dtype
    return np.asarray(eager)


def _grad(fn, x, weights):
    """d sum(fn(x) * weights) / dx, as a flat list."""
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = fn(v)
        loss = tf.reduce_sum(y * tf.reshape(weights, y.shape))
    return tape.gradient(loss, v).numpy().ravel().tolist()


# --- space / depth / batch ------------------------------------------------------------

def test_space_to_depth_and_back():
    x = tf.reshape(tf.range(16), [1, 4, 4, 1])
    out = _both(lambda t: tf.nn.space_to_depth(t, 2), x)
    assert out.tolist() == [[[[0, 1, 4, 5], [2, 3, 6, 7]], [[8, 9, 12, 13], [10, 11, 14, 15]]]]
    d = _both(lambda t: tf.nn.depth_to_space(t, 2), tf.reshape(tf.range(16), [1, 1, 2, 8]))
    assert d.tolist() == [[[[0, 1], [2, 3], [8, 9], [10, 11]],
                           [[4, 5], [6, 7], [12, 13], [14, 15]]]]
    assert _both(lambda t: tf.nn.depth_to_space(tf.nn.space_to_depth(t, 2), 2),
                 x).tolist() == x.numpy().tolist()


def test_space_to_depth_gradients_are_the_inverse_moves():
    x = tf.reshape(tf.range(16.), [1, 4, 4, 1])
    assert _grad(lambda v: tf.nn.space_to_depth(v, 2), x, tf.range(16.)) == [
        0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15]
    x = tf.reshape(tf.range(16.), [1, 2, 2, 4])
    assert _grad(lambda v: tf.nn.depth_to_space(v, 2), x, tf.range(16.)) == [
        0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15]


def test_space_to_depth_errors_as_tf():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Image width 4 and height 4 should be divisible by block_size: 3"):
        tf.nn.space_to_depth(tf.zeros([1, 4, 4, 1]), 3)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Input depth dimension 6 should be divisible by: 4"):
        tf.nn.depth_to_space(tf.zeros([1, 1, 2, 6]), 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="must be at least minimum 2"):
        tf.nn.depth_to_space(tf.zeros([1, 1, 2, 6]), 1)


def test_space_to_depth_nchw():
    # TF runs NCHW on GPUs only; the values are those of NHWC transposed
    out = tf.nn.space_to_depth(tf.reshape(tf.range(32), [1, 2, 4, 4]), 2, data_format="NCHW")
    assert out.shape == (1, 8, 2, 2)
    assert out.numpy()[0, :3].tolist() == [[[0, 2], [8, 10]], [[16, 18], [24, 26]],
                                           [[1, 3], [9, 11]]]


def test_space_to_batch_and_batch_to_space():
    x = tf.reshape(tf.range(12), [1, 3, 4, 1])
    expected = [[[[0], [2]], [[8], [10]]], [[[1], [3]], [[9], [11]]],
                [[[4], [6]], [[0], [0]]], [[[5], [7]], [[0], [0]]]]
    for fn in (tf.space_to_batch, tf.space_to_batch_nd, tf.nn.space_to_batch):
        assert _both(lambda t: fn(t, [2, 2], [[0, 1], [0, 0]]), x).tolist() == expected
    b = _both(lambda t: tf.batch_to_space(t, [2, 2], [[0, 1], [0, 0]]),
              tf.reshape(tf.range(16), [4, 2, 2, 1]))
    assert b.tolist() == [[[[0], [4], [1], [5]], [[8], [12], [9], [13]],
                           [[2], [6], [3], [7]]]]
    assert tf.batch_to_space(tf.reshape(tf.range(8), [2, 4]), [2], [[1, 0]]).numpy().tolist() \
        == [[4, 1, 5, 2, 6, 3, 7]]


def test_space_to_batch_gradients():
    x = tf.reshape(tf.range(12.), [1, 3, 4, 1])
    assert _grad(lambda v: tf.space_to_batch(v, [2, 2], [[0, 1], [1, 1]]), x,
                 tf.range(24.)) == [6, 1, 7, 2, 18, 13, 19, 14, 9, 4, 10, 5]
    x = tf.reshape(tf.range(16.), [4, 2, 2, 1])
    assert _grad(lambda v: tf.batch_to_space(v, [2, 2], [[0, 1], [1, 0]]), x,
                 tf.range(9.)) == [0, 1, 0, 7, 0, 2, 6, 8, 0, 4, 0, 0, 3, 5, 0, 0]


def test_space_to_batch_errors_and_required_paddings():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"padded_shape\[0\]=3 is not divisible by block_shape\[0\]=2"):
        tf.space_to_batch(tf.zeros([1, 3, 4, 1]), [2, 2], [[0, 0], [0, 0]])
    pads, crops = tf.required_space_to_batch_paddings([3, 5], [2, 2])
    assert pads.numpy().tolist() == [[0, 1], [0, 1]] and crops.numpy().tolist() == [[0, 1],
                                                                                    [0, 1]]
    pads, crops = tf.required_space_to_batch_paddings([3, 5], [2, 4], [[1, 0], [0, 1]])
    assert pads.numpy().tolist() == [[1, 0], [0, 3]] and crops.numpy().tolist() == [[0, 0],
                                                                                    [0, 2]]


# --- sequences and indices ------------------------------------------------------------

def test_reverse_sequence():
    x = tf.reshape(tf.range(12), [3, 4])
    out = _both(lambda t: tf.reverse_sequence(t, [1, 3, 4], seq_axis=1, batch_axis=0), x)
    assert out.tolist() == [[0, 1, 2, 3], [6, 5, 4, 7], [11, 10, 9, 8]]
    out = _both(lambda t: tf.reverse_sequence(t, tf.constant([2, 4, 0]), seq_axis=0,
                                              batch_axis=1), tf.reshape(tf.range(12), [4, 3]))
    assert out.tolist() == [[3, 10, 2], [0, 7, 5], [6, 4, 8], [9, 1, 11]]
    assert _grad(lambda v: tf.reverse_sequence(v, [1, 3, 4], seq_axis=1, batch_axis=0),
                 tf.reshape(tf.range(12.), [3, 4]), tf.range(12.)) == [
        0, 1, 2, 3, 6, 5, 4, 7, 11, 10, 9, 8]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"seq_lens\(1\) > input.dims\(1\)"):
        tf.reverse_sequence(x, [1, 5, 4], seq_axis=1, batch_axis=0)
    with pytest.raises(TypeError, match="Expected int for argument 'seq_dim' not None"):
        tf.reverse_sequence(x, [1, 3, 4])


def test_unravel_index_and_shape_n():
    assert _both(lambda i: tf.unravel_index(i, [3, 2]), tf.constant([1, 5, 4])).tolist() == [
        [0, 2, 2], [1, 1, 0]]
    assert tf.unravel_index(5, [3, 2]).numpy().tolist() == [2, 1]
    wide = tf.unravel_index(tf.constant([1], tf.int64), tf.constant([3, 2], tf.int64))
    assert wide.dtype == tf.int64 and wide.numpy().tolist() == [[0], [1]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="index is out of bound as with dims"):
        tf.unravel_index([7], [3, 2])
    shapes = tf.shape_n([tf.zeros([2, 3]), tf.zeros([4])])
    assert [s.numpy().tolist() for s in shapes] == [[2, 3], [4]]
    assert tf.shape_n([tf.zeros([2, 3])], out_type=tf.int64)[0].dtype == tf.int64


def test_parallel_stack_is_for_graphs():
    with pytest.raises(RuntimeError, match="not compatible with eager execution"):
        tf.parallel_stack([tf.constant(1), tf.constant(2)])
    out = tf.function(lambda a, b: tf.parallel_stack([a, b]))(tf.constant([1, 2]),
                                                              tf.constant([3, 4]))
    assert out.numpy().tolist() == [[1, 2], [3, 4]]


# --- group, no_op, tuple ----------------------------------------------------------------

def test_group_no_op_and_tuple():
    assert tf.group(tf.constant(1)) is None and tf.no_op() is None
    first, second = tf.tuple([tf.constant(1), tf.constant(2.)])
    assert (first.numpy(), second.numpy(), second.dtype) == (1, 2.0, tf.float32)
    seen = []

    @tf.function
    def f(a):
        g, n = tf.group(a * 2), tf.no_op()
        seen.append((g.type, n.type))
        with tf.control_dependencies([g]):
            b = a + 5
        return tf.tuple([a, a + 1]), b

    (x, y), b = f(tf.constant(1))
    assert (x.numpy(), y.numpy(), b.numpy()) == (1, 2, 6)
    assert seen == [("NoOp", "NoOp")]
    assert tf.guarantee_const(tf.constant(3.)).numpy() == 3.0


# --- arithmetic ---------------------------------------------------------------------------

def test_scalar_mul_and_realdiv():
    assert tf.scalar_mul(2, tf.constant([1, 2])).numpy().tolist() == [2, 4]
    assert tf.scalar_mul(2, tf.constant([1., 2.])).dtype == tf.float32
    with pytest.raises(ValueError, match=r"The input scalar must be a 0-D value. Received "
                                         r"shape \(2,\)"):
        tf.scalar_mul(tf.constant([2., 3.]), tf.constant([1., 2.]))
    with pytest.raises(TypeError):
        tf.scalar_mul(2.5, tf.constant([1, 2]))
    out = _both(tf.realdiv, tf.constant([1., 2.]), tf.constant([2., 0.]))
    assert out.tolist() == [0.5, np.inf]
    with pytest.raises(tf.errors.InvalidArgumentError, match="RealDiv"):
        tf.realdiv(tf.constant([7, 2]), tf.constant([2, 3]))     # TF has no integer kernel


def test_fingerprint_is_tfs_farmhash():
    assert _both(tf.fingerprint, tf.constant(["hello", "x"])).tolist() == [
        [232, 12, 56, 49, 169, 229, 139, 180], [2, 104, 255, 236, 186, 253, 126, 193]]
    assert tf.fingerprint(tf.constant([[1, 2], [3, 4]])).numpy().tolist() == [
        [76, 18, 253, 133, 168, 204, 240, 10], [254, 162, 60, 240, 103, 244, 53, 255]]
    assert tf.fingerprint(tf.constant([1.5, 2.0])).numpy().tolist() == [
        [64, 181, 56, 72, 223, 224, 189, 72], [156, 206, 45, 21, 1, 1, 236, 37]]
    assert tf.fingerprint(tf.constant([["a", "b"], ["c", "d"]])).numpy().tolist() == [
        [122, 64, 59, 169, 136, 60, 55, 83], [52, 252, 224, 38, 64, 226, 155, 60]]
    assert tf.fingerprint(tf.zeros([0, 3])).shape == (0, 8)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="should have at least one dimension"):
        tf.fingerprint(tf.constant(3))


def test_hessians_in_a_graph():
    @tf.function
    def h(x, y):
        z = x[0] ** 2 * x[1] + tf.reduce_sum(x) * y[0] ** 3
        return tf.hessians(z, [x, y])

    hx, hy = h(tf.constant([1., 2.]), tf.constant([3.]))
    assert hx.numpy().tolist() == [[4.0, 2.0], [2.0, 0.0]] and hy.numpy().tolist() == [[54.0]]
    with pytest.raises(RuntimeError, match="not supported when eager execution is enabled"):
        tf.hessians(tf.constant(1.), [tf.constant(1.)])
    assert tf.AggregationMethod.DEFAULT == tf.AggregationMethod.ADD_N == 0


# --- initializers, variables, devices, scopes ---------------------------------------------

def test_tf_initializers():
    c = tf.constant_initializer([1, 2, 3, 4])
    out = c([2, 2])
    assert out.dtype == tf.int32 and out.numpy().tolist() == [[1, 2], [3, 4]]
    assert c.get_config() == {"value": [1, 2, 3, 4]}
    assert tf.constant_initializer(3)([2], tf.int64).numpy().tolist() == [3, 3]
    assert tf.constant_initializer()([2]).numpy().tolist() == [0, 0]
    assert tf.zeros_initializer()([2], tf.int32).dtype == tf.int32
    assert tf.ones_initializer()([2], dtype="float64").dtype == tf.float64
    with pytest.raises(ValueError, match="expected to be numeric or boolean"):
        tf.ones_initializer()([2], dtype=tf.string)
    r = tf.random_normal_initializer(mean=1.0, stddev=0.5, seed=3)
    assert r.get_config() == {"mean": 1.0, "stddev": 0.5, "seed": 3}
    np.testing.assert_array_equal(r([2]).numpy(), r([2]).numpy())       # seeded: repeatable
    with pytest.raises(ValueError, match="expected to be floating point"):
        r([2], tf.int32)
    u = tf.random_uniform_initializer(-1, 1, seed=3)
    ints = u([50], tf.int32).numpy()
    assert ints.dtype == np.int32 and set(ints.tolist()) <= {-1, 0}
    again = tf.random_uniform_initializer.from_config(u.get_config())
    assert again.get_config() == {"minval": -1, "maxval": 1, "seed": 3}
    assert tf.Variable(tf.ones_initializer()([2])).numpy().tolist() == [1.0, 1.0]


def test_variable_synchronization_and_aggregation():
    v = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ,
                    aggregation=tf.VariableAggregation.SUM)
    assert v.trainable is False          # ON_READ: not trainable unless asked
    assert repr(v.aggregation) == "<VariableAggregationV2.SUM: 1>"
    assert str(v.synchronization) == "VariableSynchronization.ON_READ"
    plain = tf.Variable(1.0)
    assert plain.trainable and plain.aggregation is tf.VariableAggregation.NONE
    with pytest.raises(ValueError, match="Invalid variable aggregation mode: sum"):
        tf.Variable(1.0, aggregation="sum")
    with pytest.raises(ValueError, match="Argument `constraint` must be None or a callable"):
        tf.Variable(1.0, constraint=3)
    clipped = tf.Variable([1.0, -2.0], constraint=lambda x: tf.maximum(x, 0.))
    clipped.assign([-1., 3.])               # as TF, assign does not apply the constraint
    assert clipped.numpy().tolist() == [-1.0, 3.0] and callable(clipped.constraint)
    assert [m.value for m in tf.VariableSynchronization] == [0, 1, 2, 3]


def test_device_spec():
    d = tf.DeviceSpec(job="ps", replica=0, task=1, device_type="GPU", device_index=0)
    assert repr(d) == "<DeviceSpec(job=ps, replica=0, task=1, device_type=GPU, device_index=0)>"
    assert d.to_string() == "/job:ps/replica:0/task:1/device:GPU:0"
    w = tf.DeviceSpec.from_string("/job:worker/task:3/device:cpu:1")
    assert (w.job, w.replica, w.task, w.device_type, w.device_index) == (
        "worker", None, 3, "CPU", 1)
    assert tf.DeviceSpec.from_string("/gpu:2").to_string() == "/device:GPU:2"
    merged = tf.DeviceSpec.from_string("/job:a").make_merged_spec(
        tf.DeviceSpec(device_type="GPU", device_index=1))
    assert merged.to_string() == "/job:a/device:GPU:1"
    assert d.replace(job="x").to_string() == "/job:x/replica:0/task:1/device:GPU:0"
    assert d == tf.DeviceSpec.from_string(d.to_string()) and len({d, d.replace()}) == 1
    assert tf.DeviceSpec.from_string("/device:GPU:*").device_index is None
    with pytest.raises(ValueError, match="Unknown attribute 'foo'"):
        tf.DeviceSpec.from_string("/foo:1")


def test_name_scope_and_symbolic_tensors():
    assert tf.get_current_name_scope() == ""
    with tf.name_scope("a"):
        with tf.name_scope("b"):
            assert tf.get_current_name_scope() == "a/b"
    assert not tf.is_symbolic_tensor(tf.constant(1))
    assert not tf.is_symbolic_tensor(tf.Variable(1))
    seen = []
    tf.function(lambda a: seen.append(tf.is_symbolic_tensor(a)) or a)(tf.constant(1))
    assert seen == [True]
    assert tf.as_string(tf.constant([1.5])).numpy().tolist() == [b"1.500000"]
