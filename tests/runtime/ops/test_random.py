"""tf.random: uniform / normal / set_seed and nn.dropout, stateful in graphs;
truncated_normal, categorical, shuffle, the stateless ops, random.Generator
and TensorFlow's seeding rules: statistics with tolerant bounds, determinism,
shapes, dtypes and errors, eagerly and inside tf.function."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.exec import executor
from runtime._src.ops.random_ops import dropout
from runtime.errors import InvalidArgumentError

from tests.runtime.graphdata_helpers import trace_specs as trace


@pytest.mark.parametrize("make, dtype, shape", [
    (lambda: tf.random.uniform([2, 3]), tf.float32, (2, 3)),
    (lambda: tf.random.uniform((4,), dtype=tf.float64), tf.float64, (4,)),
    (lambda: tf.random.uniform([5], minval=-1, maxval=2, dtype=tf.int32), tf.int32, (5,)),
    (lambda: tf.random.uniform([], maxval=10, dtype=tf.int64), tf.int64, ()),
    (lambda: tf.random.uniform(tf.TensorShape([2]), dtype=tf.float16), tf.float16, (2,)),
    (lambda: tf.random.normal([3, 2]), tf.float32, (3, 2)),
    (lambda: tf.random.normal([3], dtype=tf.float64), tf.float64, (3,)),
])
def test_dtype_and_shape(make, dtype, shape):
    t = make()
    assert t.dtype == dtype and t.shape.as_list() == list(shape)
    assert t.numpy().dtype == dtype.np_dtype


def test_uniform_range():
    x = tf.random.uniform([1000], minval=2.0, maxval=3.0).numpy()
    assert x.min() >= 2.0 and x.max() < 3.0
    i = tf.random.uniform([1000], minval=-1, maxval=2, dtype=tf.int32).numpy()
    assert set(np.unique(i)) == {-1, 0, 1}


def test_normal_statistics():
    x = tf.random.normal([20000], mean=5.0, stddev=2.0).numpy()
    assert abs(x.mean() - 5.0) < 0.1 and abs(x.std() - 2.0) < 0.1


def test_set_seed_makes_sequences_reproducible():
    tf.random.set_seed(1234)
    a1, a2 = tf.random.uniform([3]).numpy(), tf.random.normal([3]).numpy()
    tf.random.set_seed(1234)
    b1, b2 = tf.random.uniform([3]).numpy(), tf.random.normal([3]).numpy()
    np.testing.assert_array_equal(a1, b1)
    np.testing.assert_array_equal(a2, b2)
    assert not np.array_equal(a1, tf.random.uniform([3]).numpy())


def test_op_seed_reproducible_after_set_seed():
    tf.random.set_seed(7)
    a = [tf.random.uniform([2], seed=3).numpy() for _ in range(2)]
    tf.random.set_seed(7)
    b = [tf.random.uniform([2], seed=3).numpy() for _ in range(2)]
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert not np.array_equal(a[0], a[1])


def test_graph_gives_new_values_every_run():
    g = trace(lambda: tf.random.uniform([4]))
    first, second = executor.run(g, [])[0], executor.run(g, [])[0]
    assert first.shape == (4,) and first.dtype == np.float32
    assert not np.array_equal(first, second)


def test_graph_with_seed_replays_after_set_seed():
    g = trace(lambda: (tf.random.normal([3]), tf.random.uniform([3], maxval=100, dtype=tf.int32)))
    tf.random.set_seed(5)
    a = executor.run(g, [])
    tf.random.set_seed(5)
    b = executor.run(g, [])
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


def test_random_in_graph_runs_even_if_unused():
    generator = tf.random.Generator.from_seed(3)
    g = trace(lambda: (generator.normal([2]), tf.constant(1))[1])
    before = generator.state.numpy().copy()
    executor.run(g, [])
    assert generator.state.numpy()[0] == before[0] + 2 * 256     # TF's advance, 2 values


def test_dynamic_shape_from_tensor():
    def body(n):
        return tf.random.uniform(n)
    g = trace(body, (tf.int32, [2]))
    assert g.outputs[0].shape.as_list() == [None, None]
    assert executor.run(g, [np.array([2, 5], np.int32)])[0].shape == (2, 5)


def test_seed_tutorial_np_random_vs_random_normal():
    """Seed 001: np.random while tracing is a constant; random.normal is not."""
    g_np = trace(lambda: tf.convert_to_tensor(np.eye(5, dtype=np.float32))
                 + np.random.randn(5, 5))
    g_tf = trace(lambda: tf.convert_to_tensor(np.eye(5, dtype=np.float32))
                 + tf.random.normal((5, 5)))
    np.testing.assert_array_equal(executor.run(g_np, [])[0], executor.run(g_np, [])[0])
    assert not np.array_equal(executor.run(g_tf, [])[0], executor.run(g_tf, [])[0])


@pytest.mark.parametrize("call, error, match", [
    (lambda: tf.random.uniform([2], dtype=tf.int32), ValueError, "Must specify maxval"),
    (lambda: tf.random.uniform([2], dtype=tf.string), ValueError,
     "Argument `dtype` got invalid value tf.string"),
    (lambda: tf.random.normal([2], dtype=tf.int32), TypeError, "floating type, got int32"),
    (lambda: tf.random.uniform([2.5]), TypeError, "not an integer"),
    (lambda: tf.random.uniform([[2]]), ValueError, "shape must be a vector"),
    (lambda: tf.random.uniform([2], minval=tf.convert_to_tensor(1), maxval=2.0),
     TypeError, "minval has dtype int32, expected float32"),
    (lambda: tf.random.uniform([2], minval=5, maxval=5, dtype=tf.int32),
     tf.errors.InvalidArgumentError, "Need minval < maxval, got 5 >= 5"),
])
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_dropout_keeps_and_scales():
    tf.random.set_seed(0)
    x = tf.convert_to_tensor(np.ones(10000, np.float32))
    y = dropout(x, 0.25).numpy()
    assert y.dtype == np.float32
    assert set(np.unique(y)) == {0.0, np.float32(1 / 0.75)}
    assert abs((y == 0).mean() - 0.25) < 0.02


def test_dropout_noise_shape_shares_decisions():
    x = tf.convert_to_tensor(np.ones((50, 4), np.float32))
    y = dropout(x, 0.5, noise_shape=[None, 1]).numpy()
    assert all(len(set(row)) == 1 for row in y)


def test_dropout_rate_zero_returns_input_and_errors():
    x = tf.convert_to_tensor([1.0, 2.0])
    assert dropout(x, 0) is x
    with pytest.raises(ValueError, match=r"range \[0, 1\). Received: rate=1"):
        dropout(x, 1)
    with pytest.raises(ValueError, match="floating point tensor.*int32"):
        dropout(tf.convert_to_tensor([1, 2]), 0.5)
    with pytest.raises(ValueError, match="noise_shape"):
        dropout(x, 0.5, noise_shape=[3])


def test_dropout_in_graph_changes_every_run():
    g = trace(lambda x: dropout(x, 0.5), (tf.float32, [64]))
    ones = np.ones(64, np.float32)
    a, b = executor.run(g, [ones])[0], executor.run(g, [ones])[0]
    assert set(np.unique(a)) <= {0.0, 2.0} and not np.array_equal(a, b)


def test_nn_dropout_is_exported():
    assert tf.nn.dropout is dropout


# --- truncated_normal, categorical, shuffle, the stateless ops, random.Generator and
# TF's seeding rules: statistics with tolerant bounds, determinism, shapes, dtypes, errors

@pytest.fixture(autouse=True)
def _no_global_seed():
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)


def _both(fn):
    return [fn, tf.function(fn)]


# --- distributions ----------------------------------------------------------------

@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64])
def test_truncated_normal_statistics(dtype):
    def draw():
        return tf.random.truncated_normal([20000], mean=3.0, stddev=2.0, dtype=dtype)

    for f in _both(draw):
        x = f()
        assert x.dtype == dtype and x.shape == (20000,)
        v = x.numpy().astype(np.float64)
        assert v.min() >= 3.0 - 4.0 - 1e-2 and v.max() <= 3.0 + 4.0 + 1e-2
        assert abs(v.mean() - 3.0) < 0.05
        # the std of a normal truncated at 2 std is 0.8796 of the original
        assert abs(v.std() - 2.0 * 0.8796) < 0.05


def test_categorical_frequencies_shapes_and_dtypes():
    probs = np.array([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0]])
    with np.errstate(divide="ignore"):
        logits = np.log(probs).astype(np.float32)       # log(0) = -inf: never drawn
    for f in _both(lambda lg: tf.random.categorical(lg, 6000)):
        s = f(tf.constant(logits))
        assert s.dtype == tf.int64 and s.shape == (2, 6000)
        for row, p in zip(s.numpy(), probs):
            freq = np.bincount(row, minlength=3) / 6000
            np.testing.assert_allclose(freq, p, atol=0.03)
    assert tf.random.categorical(logits, 3, dtype=tf.int32).dtype == tf.int32
    assert tf.random.categorical(tf.zeros([0, 3]), 2).shape == (0, 2)
    assert tf.random.categorical(logits, 0).shape == (2, 0)
    all_masked = tf.random.categorical([[-np.inf, -np.inf]], 3).numpy()
    np.testing.assert_array_equal(all_masked, [[2, 2, 2]])   # TF answers num_classes


def test_categorical_static_shape_in_graph():
    f = tf.function(lambda lg: tf.random.categorical(lg, 4))
    cf = f.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))
    assert cf.graph.outputs[0].shape.as_list() == [None, 4]


@pytest.mark.parametrize("call, error, match", [
    (lambda: tf.random.categorical([[0.0, 1.0]], 3, dtype=tf.float32), ValueError,
     "Argument `dtype` got invalid value tf.float32"),
    (lambda: tf.random.categorical([0.0, 1.0], 3), InvalidArgumentError,
     "logits should be a matrix"),
    (lambda: tf.random.categorical([[0.0, 1.0]], -1), InvalidArgumentError,
     "num_samples should be non-negative, got -1"),
    (lambda: tf.random.categorical(tf.zeros([2, 0]), 2), InvalidArgumentError,
     "num_classes should be positive, got 0"),
    (lambda: tf.random.truncated_normal([2], dtype=tf.int32), TypeError, "floating type"),
    (lambda: tf.random.uniform([2], dtype=tf.bool), ValueError, "invalid value tf.bool"),
])
def test_random_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_categorical_bad_logits_in_graph_fail_while_tracing():
    f = tf.function(lambda lg: tf.random.categorical(lg, 2))
    with pytest.raises(ValueError, match="logits should be a matrix"):
        f(tf.constant([0.0, 1.0]))


def test_shuffle_permutes_the_first_dimension():
    value = np.arange(12).reshape(6, 2)
    for f in _both(lambda v: tf.random.shuffle(v)):
        out = f(tf.constant(value)).numpy()
        assert out.shape == (6, 2)
        assert sorted(map(tuple, out)) == sorted(map(tuple, value))
        assert all(row[1] == row[0] + 1 for row in out)     # rows move whole
    seen = {tuple(tf.random.shuffle(tf.range(6)).numpy()) for _ in range(20)}
    assert len(seen) > 1
    assert tf.random.shuffle(tf.constant(3)).numpy() == 3
    assert tf.random.shuffle(tf.zeros([0, 2])).shape == (0, 2)
    assert sorted(tf.random.shuffle(tf.constant(["a", "b"])).numpy().tolist()) == [b"a", b"b"]


@pytest.mark.parametrize("dtype, minval, maxval", [
    (tf.int32, -3, 4), (tf.int64, 10, 12), (tf.int32, 0, 1),
])
def test_uniform_integers(dtype, minval, maxval):
    for f in _both(lambda: tf.random.uniform([3000], minval, maxval, dtype=dtype)):
        x = f()
        assert x.dtype == dtype
        values = x.numpy()
        assert set(np.unique(values)) == set(range(minval, maxval))
        freq = np.bincount(values - minval) / 3000
        np.testing.assert_allclose(freq, 1 / (maxval - minval), atol=0.05)


# --- seeding rules ------------------------------------------------------------------

def _u(**kw):
    return float(tf.random.uniform([], **kw))


def test_global_seed_only_gives_one_fixed_sequence():
    tf.random.set_seed(1)
    a = [_u(), _u(), float(tf.random.normal([]))]
    tf.random.set_seed(1)
    b = [_u(), _u(), float(tf.random.normal([]))]
    assert a == b and a[0] != a[1]


def test_op_seed_kernel_advances_and_set_seed_restarts_it():
    a = [_u(seed=5), _u(seed=5)]
    assert a[0] != a[1]
    tf.random.set_seed(None)
    assert [_u(seed=5), _u(seed=5)] == a          # op seed alone: fixed across programs
    tf.random.set_seed(87654321)
    assert [_u(seed=5), _u(seed=5)] == a          # that is the default global seed
    tf.random.set_seed(2)
    assert _u(seed=5) != a[0]


def test_op_types_have_independent_streams():
    tf.random.set_seed(1)
    x1, y1 = _u(seed=5), float(tf.random.normal([], seed=5))
    tf.random.set_seed(1)
    y2, x2 = float(tf.random.normal([], seed=5)), _u(seed=5)
    assert (x1, y1) == (x2, y2)


def test_functions_reproduce_after_set_seed_and_share_the_sequence():
    tf.random.set_seed(1)

    @tf.function
    def f():
        return tf.random.uniform([]), tf.random.uniform([])

    @tf.function
    def g():
        return tf.random.uniform([]), tf.random.uniform([])

    first = [float(v) for v in f()]
    second = [float(v) for v in f()]
    assert first[0] != first[1] and first != second          # new values every run
    assert [float(v) for v in g()] == first                  # same ops, same values
    tf.random.set_seed(1)
    assert [float(v) for v in f()] == first                  # re-run after set_seed
    tf.random.set_seed(2)
    assert [float(v) for v in f()] == first   # the graph keeps the seeds it was traced with


def test_same_op_seed_in_one_graph_gives_the_same_values():
    @tf.function
    def h():
        return tf.random.uniform([3], seed=1), tf.random.uniform([3], seed=1)

    tf.random.set_seed(2)
    a, b = h()
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    c, _ = h()
    assert not np.array_equal(a.numpy(), c.numpy())
    tf.random.set_seed(2)
    np.testing.assert_array_equal(h()[0].numpy(), a.numpy())


def test_random_in_a_loop_body_draws_every_iteration():
    tf.random.set_seed(4)
    f = tf.function(lambda: tf.map_fn(lambda _: tf.random.uniform([]), tf.zeros([5])))
    values = f().numpy()
    assert len(set(values.tolist())) == 5


# --- stateless ----------------------------------------------------------------------

STATELESS = [
    (lambda s: tf.random.stateless_uniform([4, 2], seed=s), tf.float32, (4, 2)),
    (lambda s: tf.random.stateless_uniform([3], seed=s, minval=-2, maxval=2, dtype=tf.int32),
     tf.int32, (3,)),
    (lambda s: tf.random.stateless_uniform([3], seed=s, minval=None, maxval=None,
                                           dtype=tf.int64), tf.int64, (3,)),
    (lambda s: tf.random.stateless_normal([5], seed=s, mean=1.0, stddev=2.0, dtype=tf.float64),
     tf.float64, (5,)),
    (lambda s: tf.random.stateless_truncated_normal([2, 2], seed=s, dtype=tf.float16),
     tf.float16, (2, 2)),
    (lambda s: tf.random.stateless_categorical([[0.0, 1.0, 2.0]], 7, seed=s), tf.int64, (1, 7)),
    (lambda s: tf.random.stateless_categorical([[0.0, 1.0]], 3, seed=s, dtype=tf.int32),
     tf.int32, (1, 3)),
]


@pytest.mark.parametrize("make, dtype, shape", STATELESS)
def test_stateless_is_a_function_of_the_seed(make, dtype, shape):
    seed = tf.constant([7, 11])
    eager = make(seed)
    assert eager.dtype == dtype and eager.shape == shape
    tf.random.set_seed(3)
    tf.random.uniform([10])                                    # global state moves
    graph = tf.function(make)(seed)
    np.testing.assert_array_equal(eager.numpy(), graph.numpy())
    np.testing.assert_array_equal(eager.numpy(), make(tf.constant([7, 11], tf.int64)).numpy())
    others = [make(tf.constant([7, k])).numpy() for k in range(12, 16)]
    assert any(not np.array_equal(eager.numpy(), o) for o in others)


def test_stateless_statistics():
    u = tf.random.stateless_uniform([20000], seed=[1, 2], minval=2.0, maxval=4.0).numpy()
    assert u.min() >= 2.0 and u.max() < 4.0 and abs(u.mean() - 3.0) < 0.03
    n = tf.random.stateless_normal([20000], seed=[1, 2], mean=-1.0, stddev=0.5).numpy()
    assert abs(n.mean() + 1.0) < 0.02 and abs(n.std() - 0.5) < 0.02
    t = tf.random.stateless_truncated_normal([20000], seed=[1, 2]).numpy()
    assert np.abs(t).max() <= 2.0 and abs(t.std() - 0.8796) < 0.03


@pytest.mark.parametrize("call, error, match", [
    (lambda: tf.random.stateless_uniform([2], seed=[1, 2, 3]), InvalidArgumentError,
     r"seed must have shape \[2\], not \[3\]"),
    (lambda: tf.random.stateless_uniform([2], seed=1), InvalidArgumentError,
     r"seed must have shape \[2\], not \[\]"),
    (lambda: tf.random.stateless_uniform([2], seed=[1.0, 2.0]), InvalidArgumentError,
     "int32 or int64"),
    (lambda: tf.random.stateless_uniform([2], seed=[1, 2], dtype=tf.int32), ValueError,
     "`minval` and `maxval` must be both None or not None"),
    (lambda: tf.random.stateless_uniform([2], seed=[1, 2], dtype=tf.bool), ValueError,
     "invalid value tf.bool"),
    (lambda: tf.random.stateless_normal([2], seed=[1, 2], dtype=tf.int32), TypeError,
     "floating type"),
])
def test_stateless_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_stateless_bad_seed_shape_in_graph_fails_while_tracing():
    f = tf.function(lambda s: tf.random.stateless_normal([2], seed=s))
    with pytest.raises(ValueError, match=r"seed must have shape \[2\]"):
        f(tf.constant([1, 2, 3]))


# --- Generator ----------------------------------------------------------------------

def test_generator_from_seed_is_deterministic_and_advances():
    g1, g2 = tf.random.Generator.from_seed(1), tf.random.Generator.from_seed(1)
    a, b = g1.normal([3]), g2.normal([3])
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert not np.array_equal(a.numpy(), g1.normal([3]).numpy())
    other = tf.random.Generator.from_seed(2).normal([3])
    assert not np.array_equal(a.numpy(), other.numpy())
    tf.random.set_seed(5)                                     # no effect on generators
    np.testing.assert_array_equal(tf.random.Generator.from_seed(1).normal([3]).numpy(),
                                  a.numpy())


def test_generator_draws_shapes_dtypes_and_statistics():
    g = tf.random.Generator.from_seed(3)
    u = g.uniform([10000], minval=1.0, maxval=2.0)
    assert u.dtype == tf.float32 and 1.0 <= u.numpy().min() and u.numpy().max() < 2.0
    i = g.uniform([3000], minval=0, maxval=3, dtype=tf.int64).numpy()
    assert set(np.unique(i)) == {0, 1, 2}
    n = g.normal([10000], mean=2.0, stddev=3.0, dtype=tf.float64)
    assert n.dtype == tf.float64 and abs(n.numpy().mean() - 2.0) < 0.1
    t = g.truncated_normal([10000]).numpy()
    assert np.abs(t).max() <= 2.0
    assert g.uniform_full_int([4], dtype=tf.int32).dtype == tf.int32
    seeds = g.make_seeds(3)
    assert seeds.dtype == tf.int64 and seeds.shape == (2, 3)
    s = tf.random.stateless_uniform([2], seed=seeds[:, 0])
    assert s.shape == (2,)


def test_generator_in_tf_function_advances_across_calls():
    g = tf.random.Generator.from_seed(7)
    reference = tf.random.Generator.from_seed(7)

    @tf.function
    def f():
        return g.normal([2]), g.uniform([2])

    first, second = f(), f()
    assert not np.array_equal(first[0].numpy(), second[0].numpy())
    np.testing.assert_array_equal(first[0].numpy(), reference.normal([2]).numpy())
    np.testing.assert_array_equal(first[1].numpy(), reference.uniform([2]).numpy())
    np.testing.assert_array_equal(second[0].numpy(), reference.normal([2]).numpy())
    # TF's counter: from_seed(7) is [7, 0, 0], +256 per value drawn (8 values)
    assert g.state.numpy()[0] == 7 + 256 * 8 and g.state.dtype == tf.int64


def test_generator_split_reset_and_nondeterministic_state():
    g = tf.random.Generator.from_seed(9)
    children = g.split(3)
    assert len(children) == 3 and all(isinstance(c, tf.random.Generator) for c in children)
    draws = [c.normal([2]).numpy() for c in children]
    assert not np.array_equal(draws[0], draws[1])
    again = tf.random.Generator.from_seed(9).split(3)
    np.testing.assert_array_equal(again[0].normal([2]).numpy(), draws[0])
    first = g.normal([2]).numpy()
    g.reset_from_seed(9)
    g.split(3)
    np.testing.assert_array_equal(g.normal([2]).numpy(), first)
    a = tf.random.Generator.from_non_deterministic_state().normal([4]).numpy()
    b = tf.random.Generator.from_non_deterministic_state().normal([4]).numpy()
    assert not np.array_equal(a, b)
    assert isinstance(tf.random.get_global_generator(), tf.random.Generator)


def test_generator_errors():
    g = tf.random.Generator.from_seed(1)
    with pytest.raises(ValueError, match="minval and maxval must be both `None` or both"):
        g.uniform([2], dtype=tf.int32)
    with pytest.raises(ValueError, match="state must be 3 integers"):
        tf.random.Generator(state=[1, 2])


# --- dropout keeps TF's semantics under the new seeds --------------------------------

def test_dropout_with_op_seed_is_reproducible_after_set_seed():
    x = tf.ones([1000])
    tf.random.set_seed(3)
    a = tf.nn.dropout(x, 0.3, seed=1).numpy()
    tf.random.set_seed(3)
    b = tf.nn.dropout(x, 0.3, seed=1).numpy()
    np.testing.assert_array_equal(a, b)
    assert set(np.unique(a)) == {0.0, np.float32(1 / 0.7)}
    assert abs((a == 0).mean() - 0.3) < 0.06


def test_split_and_fold_in_make_new_seeds():
    for dtype in (tf.int32, tf.int64):
        seed = tf.constant([1, 2], dtype)
        seeds = tf.random.split(seed, num=3)
        assert seeds.dtype == dtype and seeds.shape == (3, 2)
        np.testing.assert_array_equal(seeds.numpy(), tf.random.split(seed, 3).numpy())
        assert len({tuple(r) for r in seeds.numpy().tolist()}) == 3
        assert tf.random.split(seed, 0).shape == (0, 2)
    folded = tf.random.fold_in([1, 2], 5)
    assert folded.dtype == tf.int32 and folded.numpy()[1] == 5
    assert folded.numpy()[0] != tf.random.fold_in([1, 3], 5).numpy()[0]
    graph = tf.function(lambda s: tf.random.split(s))(tf.constant([1, 2]))
    np.testing.assert_array_equal(graph.numpy(), tf.random.split([1, 2]).numpy())
    with pytest.raises(InvalidArgumentError, match=r"seed must have shape \[2\]"):
        tf.random.split([1, 2, 3])
