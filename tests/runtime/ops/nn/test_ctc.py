"""`tf.nn.ctc_loss` (dense labels), `ctc_unique_labels` and
`keras.ops.ctc_loss`. Expected values are TF 2.21's / Keras 3.15's, recorded
with the same inputs (numpy RandomState(0) logits)."""

import numpy as np
import pytest

import runtime as tf
from runtime.keras import ops

LOGITS = np.random.RandomState(0).randn(5, 2, 4).astype(np.float32)     # [T, B, C]
LABELS = np.array([[1, 2, 0], [3, 3, 0]], np.int32)
LABEL_LENGTH, LOGIT_LENGTH = np.array([2, 2], np.int32), np.array([5, 4], np.int32)


def _loss_and_grad(**kwargs):
    logits = tf.Variable(LOGITS)
    with tf.GradientTape() as tape:
        loss = tf.nn.ctc_loss(LABELS, logits, LABEL_LENGTH, LOGIT_LENGTH, **kwargs)
        weighted = tf.reduce_sum(loss * tf.constant([1., 2.]))
    return loss.numpy(), tape.gradient(weighted, logits).numpy()


@pytest.mark.parametrize("blank_index, losses, first_frame", [
    (None, [3.80387, 6.28736], [[-0.39041, -0.23167, 0.13723, 0.48485],
                                [0.95132, 0.07312, 0.5024, -1.52683]]),
    (-1, [4.8031, 4.87612], [[0.30097, -0.14772, 0.13723, -0.29048],
                             [1.25749, 0.07312, -1.44344, 0.11284]]),
    (2, [8.51723, 5.05576], [[0.30097, -0.48224, -0.30358, 0.48485],
                             [1.25749, 0.07312, -0.58605, -0.74456]]),
])
def test_loss_and_gradient_are_tfs(blank_index, losses, first_frame):
    loss, grad = _loss_and_grad(blank_index=blank_index)
    np.testing.assert_allclose(loss, losses, rtol=2e-5)
    np.testing.assert_allclose(grad[0], first_frame, atol=2e-5)
    assert grad[4, 1].tolist() == [0, 0, 0, 0]              # past the second logit_length


def test_in_a_function_batch_major_and_edge_cases():
    traced = tf.function(lambda lg: tf.nn.ctc_loss(LABELS, lg, LABEL_LENGTH, LOGIT_LENGTH,
                                                   logits_time_major=False))
    np.testing.assert_allclose(traced(np.transpose(LOGITS, [1, 0, 2])), [3.803867, 6.287357],
                               rtol=2e-6)
    # TF's dense CTC: an impossible alignment costs ~709 (log(1e-307)), never inf
    impossible = tf.nn.ctc_loss(np.array([[1, 1, 1]], np.int32), LOGITS[:, :1], [3], [4])
    np.testing.assert_allclose(impossible, [709.5134], rtol=1e-6)
    empty = tf.nn.ctc_loss(np.array([[0]], np.int32), LOGITS[:, :1], [0], [5])
    np.testing.assert_allclose(empty, [5.795566], rtol=1e-6)


def test_unique_labels():
    values, index = tf.nn.ctc_unique_labels(tf.constant([[3, 4, 4, 3], [1, 1, 2, 0]]))
    assert values.numpy().tolist() == [[3, 4, 0, 0], [1, 2, 0, 0]]
    assert index.numpy().tolist() == [[0, 1, 1, 0], [0, 0, 1, 2]]


def test_keras_ctc_loss():
    output = np.random.RandomState(0).randn(2, 5, 4).astype(np.float32)
    lengths = (np.array([2, 2]), np.array([5, 4]))
    np.testing.assert_allclose(ops.ctc_loss(LABELS, output, *lengths), [3.897017, 3.743917],
                               rtol=2e-6)
    np.testing.assert_allclose(ops.ctc_loss(LABELS, output, *lengths, mask_index=3),
                               [5.363365, 5.140968], rtol=2e-6)
