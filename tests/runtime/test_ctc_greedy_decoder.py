"""tf.nn.ctc_greedy_decoder and tf.nn.compute_accidental_hits against TF
2.21's values (printed by tools/record_ctc_decode.py under TF 2.21, kept as
literals): merge_repeated, blank_index (default, 0, negative), a zero
sequence length, tf.function."""

import numpy as np
import pytest

import runtime as tf

LOGITS = tf.math.log(tf.constant([[[0.1, 0.6, 0.3], [0.3, 0.3, 0.4]],
                                  [[0.5, 0.2, 0.3], [0.2, 0.2, 0.6]],
                                  [[0.2, 0.7, 0.1], [0.7, 0.2, 0.1]],
                                  [[0.2, 0.7, 0.1], [0.7, 0.1, 0.2]],
                                  [[0.6, 0.3, 0.1], [0.1, 0.1, 0.8]]]))
# (kwargs, sequence_length, indices, values, dense_shape, neg_sum_logits)
TF_221 = [
    ({}, [5, 5], [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0]],
     [1, 0, 1, 0, 0], [2, 4], [[2.428148031234741], [2.363610029220581]]),
    ({}, [3, 0], [[0, 0], [0, 1], [0, 2]],
     [1, 0, 1], [2, 3], [[1.560647964477539], [0.0]]),
    ({'merge_repeated': False}, [5, 5], [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [1, 0], [1, 1]],
     [1, 0, 1, 1, 0, 0, 0], [2, 5], [[2.428148031234741], [2.363610029220581]]),
    ({'merge_repeated': False}, [3, 0], [[0, 0], [0, 1], [0, 2]],
     [1, 0, 1], [2, 3], [[1.560647964477539], [0.0]]),
    ({'blank_index': 0}, [5, 5], [[0, 0], [0, 1], [1, 0], [1, 1]],
     [1, 1, 2, 2], [2, 2], [[2.428148031234741], [2.363610029220581]]),
    ({'blank_index': 0}, [3, 0], [[0, 0], [0, 1]],
     [1, 1], [2, 2], [[1.560647964477539], [0.0]]),
    ({'blank_index': -2}, [5, 5], [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]],
     [0, 0, 2, 0, 2], [2, 3], [[2.428148031234741], [2.363610029220581]]),
    ({'blank_index': -2}, [3, 0], [[0, 0]],
     [0], [2, 1], [[1.560647964477539], [0.0]]),
]


@pytest.mark.parametrize("case", range(len(TF_221)))
def test_ctc_greedy_decoder_is_tfs(case):
    kwargs, lengths, indices, values, shape, score = TF_221[case]
    (decoded,), neg_sum = tf.nn.ctc_greedy_decoder(LOGITS, lengths, **kwargs)
    assert decoded.indices.numpy().tolist() == indices
    assert decoded.values.numpy().tolist() == values and decoded.values.dtype == tf.int64
    assert decoded.dense_shape.numpy().tolist() == shape
    np.testing.assert_allclose(neg_sum.numpy(), score, rtol=1e-6)


def test_ctc_greedy_decoder_in_tf_function_is_tfs():
    (decoded,), neg_sum = tf.function(lambda x: tf.nn.ctc_greedy_decoder(x, [5, 4]))(LOGITS)
    assert decoded.values.numpy().tolist() == [1, 0, 1, 0, 0]
    assert decoded.dense_shape.numpy().tolist() == [2, 4]
    np.testing.assert_allclose(neg_sum.numpy(), [[2.428148031234741], [2.1404659748077393]],
                               rtol=1e-6)


def test_compute_accidental_hits_is_tfs():
    # TF 2.21: each row's true classes in order, at the sampled value's last position
    hits = tf.nn.compute_accidental_hits(tf.constant([[1, 2], [3, 3], [0, 5]], tf.int64),
                                         tf.constant([2, 3, 5, 2, 7], tf.int64), num_true=2)
    indices, ids, weights = hits
    assert indices.numpy().tolist() == [0, 1, 1, 2] and indices.dtype == tf.int32
    assert ids.numpy().tolist() == [3, 1, 1, 2] and ids.dtype == tf.int64
    np.testing.assert_array_equal(weights.numpy(), np.full(4, np.finfo(np.float32).min))
