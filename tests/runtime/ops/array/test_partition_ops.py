"""`tf.dynamic_partition` / `tf.dynamic_stitch`: values and gradients
recorded from TensorFlow 2.21, eagerly and inside `tf.function`."""

import numpy as np
import pytest

import runtime as tf

DATA = np.array([[1., 2.], [3., 4.], [5., 6.], [7., 8.]], np.float32)


def partition_and_grad(data):
    with tf.GradientTape() as tape:
        tape.watch(data)
        parts = tf.dynamic_partition(data, [2, 0, 2, 1], 3)
        y = tf.reduce_sum(parts[0] * 3.0) + tf.reduce_sum(parts[2] * tf.constant([[1., 2.]]))
    return parts, tape.gradient(y, data)


def stitch_and_grad(a):
    with tf.GradientTape() as tape:
        tape.watch(a)
        s = tf.dynamic_stitch([[0, 2], [1, 2]], [a[:2], a[2:] * 10.0])     # index 2 twice
        y = tf.reduce_sum(s * tf.constant([1., 2., 3.]))
    return s, tape.gradient(y, a)


@pytest.mark.parametrize("traced", [False, True])
def test_partition_and_its_gradient_are_tensorflows(traced):
    run = tf.function(partition_and_grad) if traced else partition_and_grad
    parts, grad = run(tf.constant(DATA))
    assert [p.numpy().tolist() for p in parts] == [[[3.0, 4.0]], [[7.0, 8.0]],
                                                    [[1.0, 2.0], [5.0, 6.0]]]     # TF 2.21
    assert grad.numpy().tolist() == [[1.0, 2.0], [3.0, 3.0], [1.0, 2.0], [0.0, 0.0]]


@pytest.mark.parametrize("traced", [False, True])
def test_stitch_and_its_gradient_are_tensorflows(traced):
    run = tf.function(stitch_and_grad) if traced else stitch_and_grad
    s, grad = run(tf.constant([1., 2., 3., 4.]))
    assert s.numpy().tolist() == [1.0, 30.0, 40.0]                 # TF 2.21: later ones win
    assert grad.numpy().tolist() == [1.0, 3.0, 20.0, 30.0]


def test_stitch_merges_parts_back_and_partition_shapes_are_unknown_while_tracing():
    parts = tf.dynamic_partition(DATA, [1, 0, 1, 1], 2)
    merged = tf.dynamic_stitch([[1], [0, 2, 3]], parts)
    assert merged.numpy().tolist() == DATA.tolist()
    f = tf.function(lambda d: tf.dynamic_partition(d, [1, 0, 1, 1], 2)[1])
    assert f.get_concrete_function(tf.constant(DATA)).structured_outputs.shape.as_list() == \
        [None, 2]


def test_a_partition_out_of_range_is_invalid_argument():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"partitions\[1\] = 5 is not in"):
        tf.dynamic_partition([1, 2], [0, 5], 2)
