"""tf.random.Algorithm, tf.random.experimental (index_shuffle, stateless_shuffle,
stateless_split, stateless_fold_in and the Generator names) and
Generator.binomial. The numbers are ours (numpy's), not TF's Philox ones
(docs/tf_differences.md), so these check what TF 2.21 guarantees: names,
shapes, dtypes, permutations, determinism in the seed, errors."""

import numpy as np
import pytest

import runtime as tf


def test_algorithm_and_experimental_names_are_tfs():
    assert [a.name for a in tf.random.Algorithm] == ["PHILOX", "THREEFRY", "AUTO_SELECT"]
    assert tf.random.Algorithm.PHILOX.value == 1
    ex = tf.random.experimental
    assert sorted(n for n in vars(ex) if not n.startswith("_")) == [
        "Algorithm", "Generator", "create_rng_state", "get_global_generator", "index_shuffle",
        "set_global_generator", "stateless_fold_in", "stateless_shuffle", "stateless_split"]
    assert ex.Generator is tf.random.Generator and ex.stateless_split is tf.random.split
    assert ex.stateless_fold_in is tf.random.fold_in


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_index_shuffle_is_a_permutation_fixed_by_the_seed(mode):
    run = tf.function(tf.random.experimental.index_shuffle) if mode == "function" else \
        tf.random.experimental.index_shuffle
    for top in (0, 1, 2, 9, 100):
        out = run(tf.range(top + 1), tf.constant([1, 2, 3]), top).numpy()
        assert sorted(out.tolist()) == list(range(top + 1))
    a = run(tf.range(50), tf.constant([1, 2, 3]), 49).numpy()
    assert a.tolist() == run(tf.range(50), tf.constant([1, 2, 3]), 49).numpy().tolist()
    assert a.tolist() != run(tf.range(50), tf.constant([1, 2, 4]), 49).numpy().tolist()
    one = tf.random.experimental.index_shuffle(tf.constant(7, tf.int64), [1, 2, 3], 49)
    assert one.dtype == tf.int64 and int(one) == a[7]


def test_index_shuffle_errors_are_tfs():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Seed must be a vector of size \[3\]"):
        tf.random.experimental.index_shuffle(3, [1, 2, 3, 4], 9)
    with pytest.raises(tf.errors.InvalidArgumentError, match="max_index"):
        tf.random.experimental.index_shuffle(10, [1, 2, 3], 9)
    with pytest.raises(TypeError, match="integer"):
        tf.random.experimental.index_shuffle(1.0, [1, 2, 3], 9)


def test_stateless_shuffle_permutes_the_first_axis():
    x = tf.reshape(tf.range(12), [6, 2])
    out = tf.random.experimental.stateless_shuffle(x, seed=[1, 2]).numpy()
    assert sorted(out[:, 0].tolist()) == [0, 2, 4, 6, 8, 10]
    assert (out[:, 1] == out[:, 0] + 1).all()
    again = tf.function(tf.random.experimental.stateless_shuffle)(x, [1, 2]).numpy()
    assert out.tolist() == again.tolist()
    assert int(tf.random.experimental.stateless_shuffle(tf.constant(5), [1, 2])) == 5


def test_generator_binomial():
    g = tf.random.Generator.from_seed(1)
    draws = g.binomial([2, 3], counts=[10.0, 20.0, 30.0], probs=0.5)
    assert draws.dtype == tf.int32 and draws.shape == (2, 3)
    values = draws.numpy()
    assert (values >= 0).all() and (values <= [10, 20, 30]).all()
    state = g.state.numpy().tolist()
    assert g.binomial([4], counts=5.0, probs=1.0, dtype=tf.int64).numpy().tolist() == [5] * 4
    assert g.state.numpy().tolist() != state                 # the state advanced
    again = tf.random.Generator.from_seed(1).binomial([2, 3], counts=[10.0, 20.0, 30.0],
                                                      probs=0.5)
    assert again.numpy().tolist() == values.tolist()
    assert np.all(tf.random.Generator.from_seed(2).binomial([1000], 10.0, 0.0).numpy() == 0)
