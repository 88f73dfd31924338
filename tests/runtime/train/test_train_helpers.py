"""`tf.train.ExponentialMovingAverage`, `Coordinator`, `ClusterSpec`,
`checkpoints_iterator` and `load_variable`. Expected values are TF 2.21's,
recorded with the same calls."""

import threading

import numpy as np
import pytest

import runtime as tf


def test_moving_averages_follow_tf():
    v, w = tf.Variable(1.0), tf.Variable([1., 2.])
    ema = tf.train.ExponentialMovingAverage(decay=0.9)
    assert ema.apply([v, w]) is None
    assert ema.average(v).numpy() == 1.0 and ema.average(w).numpy().tolist() == [1., 2.]
    v.assign(3.0)
    w.assign([5., 6.])
    ema.apply([v, w])
    np.testing.assert_allclose(ema.average(v).numpy(), 1.2, rtol=1e-6)
    np.testing.assert_allclose(ema.average(w).numpy(), [1.4000001, 2.4], rtol=1e-6)
    assert ema.average_name(v) == "Variable/ExponentialMovingAverage"
    assert ema.average(v).name == "Variable/ExponentialMovingAverage:0"
    assert ema.average(v).trainable is False

    @tf.function
    def step(x):
        v.assign(x)
        ema.apply([v])
        return ema.average(v)
    np.testing.assert_allclose(step(tf.constant(10.)).numpy(), 2.0800004, rtol=1e-6)
    np.testing.assert_allclose(step(tf.constant(10.)).numpy(), 2.8720007, rtol=1e-6)


def test_num_updates_caps_the_decay_and_zero_debias_leaves_variables_alone():
    v = tf.Variable(3.0)
    ema = tf.train.ExponentialMovingAverage(decay=0.9, num_updates=tf.Variable(1))
    ema.apply([v])
    v.assign(5.0)
    ema.apply([v])
    np.testing.assert_allclose(ema.average(v).numpy(), 4.6363635, rtol=1e-6)
    u = tf.Variable(2.0)
    debiased = tf.train.ExponentialMovingAverage(decay=0.5, zero_debias=True)
    debiased.apply([u])
    u.assign(4.0)
    debiased.apply([u])
    assert debiased.average(u).numpy() == 3.0
    with pytest.raises(TypeError, match="must be half, float, or double"):
        debiased.apply([tf.Variable(1)])


def test_coordinator_reraises_a_workers_exception():
    coord = tf.train.Coordinator()
    assert not coord.should_stop()

    def work():
        with coord.stop_on_exception():
            raise ValueError("worker failed")
    threads = [threading.Thread(target=work)]
    for t in threads:
        t.start()
    with pytest.raises(ValueError, match="worker failed"):
        coord.join(threads)
    assert coord.should_stop() and coord.joined
    coord.clear_stop()
    assert not coord.should_stop()
    coord.request_stop()
    assert coord.join([]) is None


def test_cluster_spec():
    spec = tf.train.ClusterSpec({"worker": ["w0:2222", "w1:2222"], "ps": ["ps0:2222"]})
    assert spec.jobs == ["worker", "ps"] and spec.num_tasks("worker") == 2
    assert spec.task_address("worker", 1) == "w1:2222" and spec.task_indices("ps") == [0]
    assert spec.as_dict() == {"worker": ["w0:2222", "w1:2222"], "ps": ["ps0:2222"]}
    assert repr(spec) == "ClusterSpec({'ps': ['ps0:2222'], 'worker': ['w0:2222', 'w1:2222']})"
    assert tf.train.ClusterSpec({"worker": {1: "w1:2222"}}).as_dict() == {
        "worker": {1: "w1:2222"}}
    assert spec == tf.train.ClusterSpec(spec.as_dict())
    with pytest.raises(ValueError, match="No such job in cluster"):
        spec.num_tasks("chief")


def test_checkpoint_helpers(tmp_path):
    checkpoint = tf.train.Checkpoint(v=tf.Variable(7.0))
    path = checkpoint.save(str(tmp_path / "ck"))
    assert tf.train.load_variable(str(tmp_path), "v/.ATTRIBUTES/VARIABLE_VALUE") == 7.0
    assert list(tf.train.checkpoints_iterator(str(tmp_path), timeout=0.1)) == [path]
