"""`keras.random`: Keras 3's seeding rules (an int seed repeats, a
SeedGenerator advances, None draws fresh values), shapes, dtypes, ranges and
distributions. The values are numpy's, not TensorFlow's, so the tests check
properties; shapes, dtypes, the generator's state and the messages are TF
2.21's Keras 3.15 recorded values. With `runtime` aliased to TF (and
`tf.keras` to Keras 3.15) every test here passes too."""

import numpy as np
import pytest

import runtime as tf

keras = tf.keras
R = keras.random
N = 100_000


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def test_public_names_match_keras():
    assert sorted(n for n in dir(R) if not n.startswith("_")) == ["SeedGenerator", "beta", "binomial", "categorical", "dropout",
                                 "gamma", "normal", "randint", "shuffle", "truncated_normal",
                                 "uniform"]


@pytest.mark.parametrize("draw", [
    lambda seed: R.normal((2, 3), seed=seed),
    lambda seed: R.uniform((2, 3), seed=seed),
    lambda seed: R.truncated_normal((2, 3), seed=seed),
    lambda seed: R.randint((2, 3), 0, 100, seed=seed),
    lambda seed: R.gamma((2, 3), 2.0, seed=seed),
    lambda seed: R.beta((2, 3), 2.0, 3.0, seed=seed),
    lambda seed: R.binomial((2, 3), 10, 0.5, seed=seed),
    lambda seed: R.categorical(np.zeros((2, 5), "float32"), 3, seed=seed),
    lambda seed: R.shuffle(np.arange(10), seed=seed),
    lambda seed: R.dropout(np.ones((4, 5), "float32"), 0.5, seed=seed),
])
def test_int_seed_repeats_and_generator_advances(draw):
    a, b = _np(draw(7)), _np(draw(7))
    np.testing.assert_array_equal(a, b)                     # an int seed: stateless
    assert not np.array_equal(a, _np(draw(8)))
    traced = tf.function(lambda: draw(7))
    np.testing.assert_array_equal(_np(traced()), _np(traced()))
    gen = R.SeedGenerator(7)
    first, second = _np(draw(gen)), _np(draw(gen))
    assert not np.array_equal(first, second)                # a generator: stateful
    again = R.SeedGenerator(7)
    np.testing.assert_array_equal(_np(draw(again)), first)  # reproducible from its seed
    np.testing.assert_array_equal(_np(draw(again)), second)
    assert not np.array_equal(_np(draw(None)), _np(draw(None)))


def test_seed_generator_state_and_next():
    gen = R.SeedGenerator(42, name="gen_a")
    # TF 2.21's Keras 3: <Variable path=seed_generator/seed_generator_state, shape=(2,),
    # dtype=int64, value=[42  0]>, not trainable; each draw adds 1 to the second entry.
    assert repr(gen.state) == ("<Variable path=gen_a/seed_generator_state, shape=(2,), "
                               "dtype=int64, value=[42  0]>")
    assert gen.state.name == "seed_generator_state" and gen.state.dtype == tf.int64
    assert gen.state.trainable is False and gen.name == "gen_a"
    R.normal((2,), seed=gen)
    R.normal((2,), seed=gen)
    assert gen.state.numpy().tolist() == [42, 2]
    current = gen.next()
    assert current.dtype == tf.int64 and current.numpy().tolist() == [42, 2]
    assert gen.state.numpy().tolist() == [42, 3]
    assert gen.next(ordered=False).numpy().tolist() == [42, 3]
    assert gen.state.numpy().tolist() == [(43 * 5387) % 933199, (4 * 5387) % 933199]
    assert gen.get_config() == {"seed": 42, "name": "gen_a"}
    clone = R.SeedGenerator.from_config(gen.get_config())
    assert clone.state.numpy().tolist() == [42, 0]


def test_seed_generator_names_and_unseeded_config():
    keras.backend.clear_session()
    first, second = R.SeedGenerator(1), R.SeedGenerator()
    assert (first.name, second.name) == ("seed_generator", "seed_generator_1")
    assert second.state.path == "seed_generator_1/seed_generator_state"
    assert second.get_config() == {"seed": None, "name": "seed_generator_1"}
    assert 1 <= second.state.numpy()[0] <= 10**9
    with keras.name_scope("block"):
        assert R.SeedGenerator(3, name="g").state.path == "block/g/seed_generator_state"


def test_seed_errors_as_keras():
    with pytest.raises(ValueError, match=r"Argument `seed` must be an integer. "
                                         r"Received: seed=1.5"):
        R.SeedGenerator(1.5)
    with pytest.raises(ValueError, match="Unrecognized keyword arguments"):
        R.SeedGenerator(1, foo=2)
    for bad in ("a", np.int64(3), 2.0):
        with pytest.raises(ValueError, match="Argument `seed` must be either an integer or an "
                                             "instance of `SeedGenerator`. Received: seed="):
            R.normal((2,), seed=bad)


def test_generator_advances_once_per_traced_call():
    gen = R.SeedGenerator(3)

    @tf.function
    def draw():
        return R.uniform((4,), seed=gen)

    values = [draw().numpy() for _ in range(3)]
    assert gen.state.numpy().tolist() == [3, 3]     # TF's Keras: [3, 2] after two calls
    assert not np.array_equal(values[0], values[1])
    eager = R.SeedGenerator(3)
    for value in values:                           # the graph draws what eager draws
        np.testing.assert_array_equal(R.uniform((4,), seed=eager).numpy(), value)


def test_unseeded_draws_follow_set_random_seed():
    keras.utils.set_random_seed(11)
    a, b = R.normal((3,)).numpy(), R.normal((3,)).numpy()
    keras.utils.set_random_seed(11)
    np.testing.assert_array_equal(R.normal((3,)).numpy(), a)
    assert not np.array_equal(a, b)

    @tf.function
    def draw():
        return R.uniform((3,))

    assert not np.array_equal(draw().numpy(), draw().numpy())


def test_dtypes_as_keras():
    # TF 2.21's Keras 3: floatx (float32) by default, randint and categorical int32.
    assert R.normal((2,), seed=1).dtype == tf.float32
    assert R.normal((2,), dtype="float64", seed=1).dtype == tf.float64
    assert R.uniform((2,), dtype="float16", seed=1).dtype == tf.float16
    assert R.truncated_normal((2,), seed=1).dtype == tf.float32
    assert R.gamma((2,), 1.0, seed=1).dtype == tf.float32
    assert R.beta((2,), 1.0, 1.0, seed=1).dtype == tf.float32
    assert R.binomial((2,), 5, 0.5, seed=1).dtype == tf.float32
    assert R.randint((2,), 0, 5, seed=1).dtype == tf.int32
    assert R.randint((2,), 0, 5, dtype="int8", seed=1).dtype == tf.int8
    assert R.randint((2,), 0, 5, dtype="uint8", seed=1).dtype == tf.uint8
    assert R.categorical(np.zeros((1, 3)), 2, seed=1).dtype == tf.int32
    assert R.categorical(np.zeros((1, 3)), 2, dtype="int64", seed=1).dtype == tf.int64
    with pytest.raises(ValueError, match="`keras.random.uniform` requires a floating point "
                                         "`dtype`. Received: dtype=int32"):
        R.uniform((2,), dtype="int32")
    with pytest.raises(ValueError, match="`keras.random.randint` requires an integer `dtype`. "
                                         "Received: dtype=float32"):
        R.randint((2,), 0, 3, dtype="float32")


def test_shapes_and_ranges():
    u = R.uniform((N,), minval=-2.0, maxval=3.0, seed=1).numpy()
    assert u.shape == (N,) and u.min() >= -2.0 and u.max() < 3.0
    assert abs(u.mean() - 0.5) < 0.03 and abs(u.var() - 25 / 12) < 0.05
    r = R.randint((N,), 3, 9, seed=1).numpy()
    assert sorted(set(r.tolist())) == [3, 4, 5, 6, 7, 8]
    n = R.normal((N,), mean=1.0, stddev=2.0, seed=1).numpy()
    assert abs(n.mean() - 1.0) < 0.03 and abs(n.std() - 2.0) < 0.03
    t = R.truncated_normal((N,), mean=1.0, stddev=2.0, seed=1).numpy()
    assert np.all(np.abs(t - 1.0) <= 4.0) and abs(t.mean() - 1.0) < 0.03
    assert abs(t.std() - 2.0 * 0.87962566) < 0.03       # a truncated normal's stddev
    assert R.normal([2, 3, 4], seed=1).shape == (2, 3, 4)


def test_gamma_beta_binomial_distributions():
    g = R.gamma((N,), 3.0, seed=2).numpy()
    assert g.min() > 0 and abs(g.mean() - 3.0) < 0.05 and abs(g.var() - 3.0) < 0.1
    per_column = R.gamma((N // 10, 3), np.array([1.0, 2.0, 5.0]), seed=2).numpy()
    np.testing.assert_allclose(per_column.mean(axis=0), [1.0, 2.0, 5.0], rtol=0.05)
    b = R.beta((N,), 2.0, 6.0, seed=2).numpy()
    assert 0 < b.min() and b.max() < 1 and abs(b.mean() - 0.25) < 0.01
    assert abs(b.var() - 2 * 6 / (8 ** 2 * 9)) < 0.002
    assert R.beta((2, 3), np.array([1.0, 2.0, 3.0]), 1.0, seed=1).shape == (2, 3)
    k = R.binomial((N,), 20, 0.25, seed=2).numpy()
    assert set(np.unique(k)) <= set(range(21)) and np.all(k == np.round(k))
    assert abs(k.mean() - 5.0) < 0.05 and abs(k.var() - 3.75) < 0.1
    counts = R.binomial((2, 3), np.array([1.0, 2.0, 3.0]), 0.5, seed=1).numpy()
    assert np.all(counts <= [1.0, 2.0, 3.0])


def test_gamma_alpha_must_end_the_shape():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Shape passed in must end with broadcasted shape"):
        R.gamma((4, 3), np.array([[1.0], [2.0]]), seed=1)


def test_categorical_from_logits():
    logits = np.log(np.array([[0.1, 0.9], [0.7, 0.3]], "float32"))
    draws = R.categorical(logits, 20_000, seed=3).numpy()
    assert draws.shape == (2, 20_000)
    assert abs(draws[0].mean() - 0.9) < 0.02 and abs(draws[1].mean() - 0.3) < 0.02
    with pytest.raises(ValueError, match=r"`logits` should be a 2-D tensor with shape "
                                         r"\[batch_size, num_classes\]. Received: logits="):
        R.categorical(np.zeros((5,)), 3, seed=1)


def test_dropout_scaling_and_noise_shape():
    x = np.ones((200, 300), "float32")
    out = R.dropout(x, 0.25, seed=4).numpy()
    assert set(np.unique(out).tolist()) == {0.0, np.float32(1 / 0.75)}
    assert abs((out == 0).mean() - 0.25) < 0.01
    shared = R.dropout(np.ones((3, 400)), 0.5, noise_shape=(1, 400), seed=2).numpy()
    assert shared.dtype == np.float64                   # as TF's: the input's dtype
    assert np.all(shared == shared[0]) and set(np.unique(shared)) == {0.0, 2.0}
    per_row = R.dropout(np.ones((3, 400)), 0.5, noise_shape=(None, 400), seed=2).numpy()
    assert not np.all(per_row == per_row[0])
    np.testing.assert_array_equal(R.dropout(x, 1.0).numpy(), np.zeros_like(x))
    assert R.dropout(x, 0.0) is x                       # Keras returns the input itself
    traced = tf.function(lambda v: R.dropout(v, 0.25, seed=4))
    np.testing.assert_array_equal(traced(tf.constant(x)).numpy(), out)


def test_shuffle_permutes_along_axis():
    x = np.arange(60, dtype="float32").reshape(3, 4, 5)
    for axis in (0, 1, 2):
        out = R.shuffle(x, axis=axis, seed=5).numpy()
        assert out.shape == x.shape and out.dtype == np.float32
        moved, orig = np.moveaxis(out, axis, 0), np.moveaxis(x, axis, 0)
        order = [int(np.where((orig == s).all(axis=tuple(range(1, s.ndim + 1))))[0][0])
                 for s in moved]
        assert sorted(order) == list(range(x.shape[axis]))  # whole slices, permuted
    long = R.shuffle(np.arange(1000), seed=5).numpy()
    assert sorted(long.tolist()) == list(range(1000)) and long.tolist() != list(range(1000))


def test_layer_with_a_seed_generator_in_fit():
    class Noise(keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.seed_generator = R.SeedGenerator(1337)

        def call(self, x, training=False):
            return R.dropout(x, 0.5, seed=self.seed_generator) if training else x

    layer = Noise()
    layer(np.ones((2, 3)))
    # TF 2.21's Keras 3: the state is in `variables` and `non_trainable_variables`,
    # not in `weights`.
    assert layer.weights == [] and layer.non_trainable_weights == []
    assert layer.variables == [layer.seed_generator.state]
    assert layer.non_trainable_variables == [layer.seed_generator.state]
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3), Noise()])
    assert len(model.variables) == 3 and len(model.weights) == 2
    model.compile("sgd", "mse")
    model.fit(np.ones((8, 3)), np.ones((8, 3)), epochs=3, batch_size=4, verbose=0)
    assert model.layers[1].seed_generator.state.numpy().tolist() == [1337, 6]
