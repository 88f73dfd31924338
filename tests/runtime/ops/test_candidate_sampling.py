"""tf.random's candidate samplers: TF 2.21's expected counts (recorded by hand
from TF for the same draws' counts), shapes, dtypes, uniqueness, errors. The
sampled ids are ours (numpy's), so they are checked for range and uniqueness."""

import numpy as np
import pytest

import runtime as tf

TRUE = tf.constant([[1, 2], [0, 5]], tf.int64)


def test_uniform_sampler_expected_counts_are_tfs():
    ids, true_count, sampled_count = tf.random.uniform_candidate_sampler(TRUE, 2, 4, False, 10,
                                                                         seed=1)
    assert ids.dtype == tf.int64 and ids.shape == (4,) and ((0 <= ids.numpy()) &
                                                            (ids.numpy() < 10)).all()
    np.testing.assert_allclose(true_count.numpy(), np.full((2, 2), 0.4))      # TF 2.21
    np.testing.assert_allclose(sampled_count.numpy(), np.full(4, 0.4))
    result = tf.random.uniform_candidate_sampler(TRUE, 2, 4, True, 10, seed=1)
    assert len(set(result.sampled_candidates.numpy().tolist())) == 4
    # unique: 1 - (1 - 1/10)^tries; TF 2.21 drew 5 times: 0.40951
    tries = np.log1p(-result.true_expected_count.numpy()[0, 0]) / np.log1p(-0.1)
    assert abs(tries - round(tries)) < 1e-3 and round(tries) >= 4


def test_log_uniform_and_fixed_unigram_expected_counts_are_tfs():
    _, true_count, _ = tf.random.log_uniform_candidate_sampler(TRUE, 2, 4, False, 10, seed=1)
    np.testing.assert_allclose(true_count.numpy(), [[0.67636836, 0.47989097],
                                                    [1.1562593, 0.25714332]], rtol=1e-6)
    _, true_count, _ = tf.random.fixed_unigram_candidate_sampler(
        TRUE, 2, 3, False, 6, unigrams=[1.0, 2, 3, 4, 5, 6], distortion=0.5, seed=1)
    np.testing.assert_allclose(true_count.numpy(), [[0.39168298, 0.47971174],
                                                    [0.2769617, 0.6784149]], rtol=1e-6)
    ids, true_count, sampled = tf.random.fixed_unigram_candidate_sampler(
        tf.constant([[0], [1]], tf.int64), 1, 3, False, 6, unigrams=[1.0, 2, 3, 4],
        num_reserved_ids=2, seed=1)
    assert true_count.numpy().tolist() == [[0.0], [0.0]] and (ids.numpy() >= 2).all()
    expected = {2: 0.3, 3: 0.6, 4: 0.9, 5: 1.2}
    np.testing.assert_allclose(sampled.numpy(), [expected[i] for i in ids.numpy()], rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError, match="range is 6 must be equal to "
                                                             "weights size  3"):
        tf.random.fixed_unigram_candidate_sampler(TRUE, 2, 4, False, 6,
                                                  unigrams=[1.0, 2, 3, 4, 5, 6], num_shards=2,
                                                  shard=1)


def test_learned_and_all_samplers():
    _, true_count, sampled = tf.nn.learned_unigram_candidate_sampler(TRUE, 2, 3, False, 6,
                                                                     seed=1)
    assert true_count.numpy().tolist() == [[0.5, 0.5], [0.5, 0.5]]        # TF 2.21: uniform first
    result = tf.random.all_candidate_sampler(tf.constant([[1, 2], [0, 3]], tf.int64), 2, 4, True)
    assert result.sampled_candidates.numpy().tolist() == [0, 1, 2, 3]
    assert result.true_expected_count.numpy().tolist() == [[1, 1], [1, 1]]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"`true_candidate` out of range \[0, 4\), received 5"):
        tf.random.all_candidate_sampler(TRUE, 2, 4, True)


def test_sampler_in_a_function_draws_at_every_call():
    f = tf.function(lambda t: tf.random.uniform_candidate_sampler(t, 2, 5, True, 1000,
                                                                  seed=3).sampled_candidates)
    first, second = f(TRUE).numpy().tolist(), f(TRUE).numpy().tolist()
    assert first != second and len(set(first)) == 5
