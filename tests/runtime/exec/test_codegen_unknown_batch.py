"""The generated code's ReluGrad folded into the max-pool gradient also where
the batch size is known only at run time (a Keras `fit` step traces its batch
as None): the gradient and the pooled output have the same dims, unknown in
both, so the mask multiplies the pooled gradient before MaxPoolGrad routes it;
the values (and the zeros' signs) equal the eager
kernels' (which TF's ReluGrad and MaxPoolGrad values are recorded against in
tests/runtime/test_training_kernels.py and test_nn_conv_pool.py)."""

import numpy as np
import pytest

import runtime as tf


def _grad(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(tf.nn.relu(x * 2.0), 2, 2, "VALID")
        loss = tf.reduce_sum(y * y)
    return tape.gradient(loss, x)


@pytest.mark.parametrize("batch", [1, 3])
def test_relu_grad_folds_into_the_max_pool_gradient_with_an_unknown_batch(batch):
    x = np.random.default_rng(batch).standard_normal((batch, 4, 4, 3)).astype(np.float32)
    x[0, 0, 0, 0] = x[0, 0, 1, 0]                      # a tie inside a window
    x[0, 2, 2, :] = 0.0                                # ReLU zeros
    f = tf.function(_grad, input_signature=[tf.TensorSpec([None, 4, 4, 3], tf.float32)])
    src = f.get_concrete_function().graph.python_source()
    assert "_max_pool_grad_of_relu(AddV2, Mul, MaxPool" in src   # pooled before the ReLU
    assert "ReluGrad" not in src
    got = f(tf.constant(x)).numpy()
    want = _grad(tf.constant(x)).numpy()               # eager: the kernels
    assert got.shape == x.shape and got.dtype == np.float32
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
