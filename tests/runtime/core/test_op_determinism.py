"""`tf.config.experimental.enable_op_determinism()` as TensorFlow 2.21
documents it: the same inputs give the same bits on every run, and random
ops without a seed raise.

The messages and which calls raise were recorded from TensorFlow 2.21
(tensorflow-cpu, Keras 3) with the same calls."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.core import blas, determinism
from runtime._src.ops import random_ops

SEED_REQUIRED = ("Random ops require a seed to be set when determinism is enabled. Please set "
                 "a seed before running the op, e.g. by calling tf.random.set_seed(1).")


@pytest.fixture
def deterministic():
    saved_seed = random_ops.global_seed()
    tf.random.set_seed(None)
    tf.config.experimental.enable_op_determinism()
    yield
    determinism.disable()
    tf.random.set_seed(saved_seed)


# --- the same bits on every call ----------------------------------------------------

def _train_step_function():
    """A Conv2D-MaxPool-Dense training step, with products large enough that
    the compiled code splits their rows over threads (a 968x288 by 288x64
    product among them)."""
    rng = np.random.default_rng(0)
    kernel = tf.Variable(rng.standard_normal((3, 3, 32, 64)).astype(np.float32) * 0.1)
    dense = tf.Variable(rng.standard_normal((8 * 8 * 64, 10)).astype(np.float32) * 0.01)
    bias = tf.Variable(np.zeros(64, np.float32))

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, kernel, 1, "SAME"), bias))
            h = tf.nn.max_pool2d(h, 2, 2, "VALID")
            logits = tf.matmul(tf.reshape(h, (-1, 8 * 8 * 64)), dense)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        return (loss, logits) + tuple(tape.gradient(loss, [kernel, bias, dense]))

    x = tf.constant(rng.standard_normal((8, 16, 16, 32)).astype(np.float32))
    y = tf.constant(rng.integers(0, 10, 8).astype(np.int32))
    return step, x, y


def test_a_function_gives_the_same_bits_on_every_call(deterministic, monkeypatch):
    """The first call (interpreted otherwise) and the later ones (compiled)
    run the same code, and a busy machine does not change BLAS's threads."""
    step, x, y = _train_step_function()
    first = [t.numpy() for t in step(x, y)]
    for busy in (False, True, False):
        monkeypatch.setattr(blas, "_busy", lambda busy=busy: busy)
        again = [t.numpy() for t in step(x, y)]
        for a, b in zip(first, again):
            assert a.tobytes() == b.tobytes()


def test_the_same_bits_from_a_fresh_function(deterministic):
    """A second function traced from the same code gives the first one's bits
    (its own first call included)."""
    step, x, y = _train_step_function()
    other, _, _ = _train_step_function()
    for a, b in zip(step(x, y), other(x, y)):
        assert a.numpy().tobytes() == b.numpy().tobytes()


def test_blas_threads_are_one_count_whatever_the_product_or_load(deterministic, monkeypatch):
    counts = set()
    for busy in (False, True):
        monkeypatch.setattr(blas, "_busy", lambda busy=busy: busy)
        counts.update(blas.threads_for(work) for work in (0, 1 << 10, blas.MID_WORK - 1,
                                                          blas.MID_WORK * 4, None))
    assert len(counts) == 1


def test_eager_ops_repeat_their_bits(deterministic):
    rng = np.random.default_rng(1)
    a = tf.constant(rng.standard_normal((968, 288)).astype(np.float32))
    b = tf.constant(rng.standard_normal((288, 64)).astype(np.float32))
    first = tf.matmul(a, b).numpy()
    step, x, y = _train_step_function()
    step(x, y)                       # a graph run in between keeps the threads
    assert tf.matmul(a, b).numpy().tobytes() == first.tobytes()


# --- random ops need a seed -----------------------------------------------------------

_REFUSED = {
    "random.normal": lambda: tf.random.normal((2,)),
    "random.uniform": lambda: tf.random.uniform((2,), maxval=5, dtype=tf.int32),
    "random.truncated_normal": lambda: tf.random.truncated_normal((2,)),
    "random.gamma": lambda: tf.random.gamma((2,), 1.0),
    "random.poisson": lambda: tf.random.poisson((2,), 1.0),
    "random.categorical": lambda: tf.random.categorical(tf.zeros((1, 3)), 2),
    "random.shuffle": lambda: tf.random.shuffle([1, 2, 3]),
    "nn.dropout": lambda: tf.nn.dropout(tf.ones((2, 2)), 0.5),
    "image.random_flip_left_right": lambda: tf.image.random_flip_left_right(tf.ones((2, 2, 1))),
    "image.random_crop": lambda: tf.image.random_crop(tf.ones((3, 3)), (2, 2)),
    "experimental.numpy.random.rand": lambda: tf.experimental.numpy.random.rand(2),
    "data.Dataset.shuffle": lambda: tf.data.Dataset.range(3).shuffle(3),
    "data.Dataset.random": lambda: tf.data.Dataset.random(),
    "in a tf.function": lambda: tf.function(_draw)(),
}


def _draw():
    return tf.random.uniform((2,))


@pytest.mark.parametrize("name", sorted(_REFUSED))
def test_an_unseeded_random_op_raises(deterministic, name):
    with pytest.raises(RuntimeError) as info:
        _REFUSED[name]()
    assert str(info.value) == SEED_REQUIRED


_ALLOWED = {
    "an op seed": lambda: tf.random.uniform((2,), seed=3),
    "a stateless op": lambda: tf.random.stateless_normal((2,), [1, 2]),
    "Generator.from_seed": lambda: tf.random.Generator.from_seed(1).normal((2,)),
    "a seeded shuffle": lambda: list(tf.data.Dataset.range(3).shuffle(3, seed=1)),
    "keras.random.normal": lambda: tf.keras.random.normal((2,)),
    "a keras Dense layer": lambda: tf.keras.layers.Dense(2)(tf.ones((1, 2))),
    "a keras Dropout layer": lambda: tf.keras.layers.Dropout(0.5)(tf.ones((2, 2)),
                                                                 training=True),
    "nn.fractional_avg_pool": lambda: tf.nn.fractional_avg_pool(tf.ones((1, 4, 4, 1)),
                                                                [1, 1.5, 1.5, 1]),
    "a seeded fractional_max_pool": lambda: tf.nn.fractional_max_pool(
        tf.ones((1, 4, 4, 1)), [1, 1.5, 1.5, 1], seed=3),
}


@pytest.mark.parametrize("name", sorted(_ALLOWED))
def test_seeded_and_keras_draws_run(deterministic, name):
    _ALLOWED[name]()


def test_a_global_seed_lets_every_random_op_run(deterministic):
    tf.random.set_seed(1)
    for name, make in _REFUSED.items():
        make()


def test_generators_without_a_seed_raise_as_tf(deterministic):
    with pytest.raises(RuntimeError) as info:
        tf.random.Generator.from_non_deterministic_state()
    assert str(info.value) == ('"from_non_deterministic_state" cannot be called when '
                               "determinism is enabled.")
    from runtime._src.function import random_generator
    saved = random_generator._global["generator"]
    random_generator._global["generator"] = None
    try:
        with pytest.raises(RuntimeError) as info:
            tf.random.get_global_generator()
        assert str(info.value) == (
            '"get_global_generator" cannot be called if determinism is enabled, unless '
            '"set_global_generator" has already been called. Please call '
            '"set_global_generator" first.')
        chosen = tf.random.Generator.from_seed(5)
        tf.random.set_global_generator(chosen)
        assert tf.random.get_global_generator() is chosen
    finally:
        random_generator._global["generator"] = saved


def test_seed_zero_ops_raise_value_errors_as_tf(deterministic):
    with pytest.raises(ValueError) as info:
        tf.image.sample_distorted_bounding_box([4, 4, 1], tf.zeros((1, 0, 4)),
                                               use_image_if_no_bounding_boxes=True)
    assert str(info.value) == (
        "tf.image.sample_distorted_bounding_box requires a non-zero seed to be passed in "
        'when determinism is enabled, but got seed=0. Please pass in a non-zero seed, e.g. '
        'by passing "seed=1".')
    with pytest.raises(ValueError) as info:
        tf.nn.fractional_max_pool(tf.ones((1, 4, 4, 1)), [1, 1.5, 1.5, 1])
    assert str(info.value) == (
        "tf.nn.fractional_max_pool requires a non-zero seed to be passed in when determinism "
        'is enabled, but got seed=0. Please pass in a non-zero seed, e.g. by passing '
        '"seed=1".')


def test_keras_fit_shuffles_numpy_data_only_with_a_seed(deterministic):
    """As TF with Keras 3: fit shuffles numpy arrays with an unseeded random
    op, which determinism refuses; a dataset (not shuffled by fit) trains, its
    Dropout drawing through the layer."""
    model = tf.keras.Sequential([tf.keras.layers.Dense(2), tf.keras.layers.Dropout(0.5),
                                 tf.keras.layers.Dense(1)])
    model.compile("adam", "mse")
    x, y = np.ones((8, 3), np.float32), np.ones((8, 1), np.float32)
    with pytest.raises(RuntimeError) as info:
        model.fit(x, y, epochs=1, batch_size=4, verbose=0)
    assert str(info.value) == SEED_REQUIRED
    history = model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(4), epochs=1,
                        verbose=0)
    assert np.isfinite(history.history["loss"][0])
    tf.keras.utils.set_random_seed(1)
    model.fit(x, y, epochs=1, batch_size=4, verbose=0)


# --- the global seed orders tf.data's random datasets ------------------------------------

def _orders(seed):
    tf.random.set_seed(seed)
    ds = tf.data.Dataset.range(20)
    return (list(ds.shuffle(20).as_numpy_iterator()),
            list(ds.shuffle(20).as_numpy_iterator()),
            list(tf.data.Dataset.random().take(3).as_numpy_iterator()))


def test_a_global_seed_fixes_dataset_orders():
    """As TF: after tf.random.set_seed the same program shuffles alike (each
    dataset its own order), with or without determinism."""
    saved = random_ops.global_seed()
    try:
        first, second = _orders(7), _orders(7)
        assert first == second
        assert first[0] != first[1]          # two shuffles, two op seeds
        assert sorted(first[0]) == list(range(20))
        assert _orders(8) != first
    finally:
        tf.random.set_seed(saved)
