"""`tf.nn.nce_loss` and `tf.nn.sampled_softmax_loss` against TF 2.21's recorded
values and gradients (tests/data/sampled_losses_tf221.json,
tools/record_sampled_losses.py) with the sampler's values given as
`sampled_values`: one and two true classes, accidental hits kept and removed,
weights in 'div' shards, a zero input row; eagerly and inside tf.function. With
no `sampled_values` the draw is numpy's: shapes, dtypes and finiteness only."""

import json

import numpy as np
import pytest

import runtime as tf
from tests.paths import DATA

with open(DATA / "sampled_losses_tf221.json") as f:
    RECORDS = json.load(f)

# the inputs of tools/record_sampled_losses.py
W = np.arange(24, dtype=np.float32).reshape(6, 4) % 5 / 4 - 0.5
B = np.array([0.1, -0.2, 0.3, 0.0, -0.1, 0.2], np.float32)
X = np.array([[0.5, -1.0, 0.25, 2.0], [1.5, 0.5, -0.5, 0.0], [0., 0., 0., 0.]], np.float32)
LABELS = {1: [[1], [4], [0]], 2: [[1, 2], [4, 4], [0, 5]]}
SAMPLED = ([2, 4, 3], [[0.5], [0.25], [1.0]], [0.5, 0.125, 0.75])


def _run(loss, num_true, remove, sharded, w, b, x):
    expected_true = np.tile(np.array(SAMPLED[1], np.float32), [1, num_true])
    sampled = (tf.constant(SAMPLED[0], tf.int64), tf.constant(expected_true),
               tf.constant(SAMPLED[2], tf.float32))
    with tf.GradientTape() as tape:
        tape.watch([w, b, x])
        weights = [w[:3], w[3:]] if sharded else w
        out = getattr(tf.nn, loss)(weights, b, tf.constant(LABELS[num_true], tf.int64), x,
                                   num_sampled=3, num_classes=6, num_true=num_true,
                                   sampled_values=sampled, remove_accidental_hits=remove)
        total = tf.reduce_sum(out * [1., 2., 3.])
    return [out] + [tf.convert_to_tensor(g) for g in tape.gradient(total, [w, b, x])]


# a removed hit's -FLT_MAX logit times an upstream gradient > 1 overflows in the
# (unused) gradient of the constant labels: numpy warns, the results are TF's
@pytest.mark.filterwarnings("ignore:overflow encountered in multiply")
@pytest.mark.parametrize("record", RECORDS, ids=[str(r["case"]) for r in RECORDS])
def test_sampled_losses_are_tfs(record):
    args = tuple(record["case"]) + (tf.constant(W), tf.constant(B), tf.constant(X))
    expected = [record["loss"]] + record["grads"]
    for results in (_run(*args), tf.function(_run, autograph=False)(*args)):
        assert results[0].dtype == tf.float32 and results[0].shape == (3,)
        for got, want in zip(results, expected):
            np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=2e-6)


def test_a_removed_hit_changes_only_that_row():
    keep, drop = (next(r["loss"] for r in RECORDS if r["case"] == ["nce_loss", 1, hit, False])
                  for hit in (False, True))
    # row 1's label 4 is sampled: removing the hit lowers its loss; rows 0 and 2 stay
    assert drop[1] < keep[1] and drop[0] == pytest.approx(keep[0]) \
        and drop[2] == pytest.approx(keep[2])


@pytest.mark.parametrize("loss", ["nce_loss", "sampled_softmax_loss"])
def test_drawn_samples_give_finite_losses(loss):
    out = getattr(tf.nn, loss)(tf.constant(W), tf.constant(B), tf.constant(LABELS[2], tf.int64),
                               tf.constant(X), num_sampled=6, num_classes=6, num_true=2)
    assert out.shape == (3,) and out.dtype == tf.float32
    assert np.all(np.isfinite(out.numpy()))
