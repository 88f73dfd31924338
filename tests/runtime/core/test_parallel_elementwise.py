"""runtime/_src/core/parallel.py's `elementwise` (the generated code's large
elementwise ops, rows split over the cores) gives the bits of the one ufunc
call, broadcasting rows and scalars whole; the pool's threads run in the
caller's context, so the executor's quiet numpy error state holds there (TF's
1/0 = inf comes silently); and a CNN step's first activations go through it."""

import warnings

import numpy as np
import pytest

import runtime as tf
from runtime._src.core import parallel
from runtime._src.core.fp_quiet import quietly

RNG = np.random.default_rng(34)
A = RNG.standard_normal((9, 5, 4)).astype(np.float32)
CASES = {
    "add rows": (np.add, (A, A[::-1].copy())),
    "bias": (np.add, (A, RNG.standard_normal(4).astype(np.float32))),
    "row broadcast": (np.multiply, (A, A[:1].copy())),
    "scalar": (np.maximum, (A, np.float32(0))),
    "unary": (np.sqrt, (np.abs(A),)),
}


@pytest.mark.parametrize("name", CASES)
def test_split_elementwise_gives_the_same_bits(monkeypatch, name):
    ufunc, args = CASES[name]
    want = ufunc(*args)
    monkeypatch.setattr(parallel, "threads_for", lambda elements: 3)
    out = np.empty_like(want)
    assert parallel.elementwise(ufunc, *args, out=out) is out
    np.testing.assert_array_equal(out, want)
    assert parallel.elementwise(ufunc, *args).dtype == want.dtype        # out None: numpy's


def test_the_pool_threads_keep_the_callers_quiet_error_state(monkeypatch):
    monkeypatch.setattr(parallel, "threads_for", lambda elements: 3)
    x = np.zeros((6, 4), np.float32)
    out = np.empty_like(x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with quietly():
            parallel.elementwise(np.true_divide, np.ones_like(x), x, out=out)
    np.testing.assert_array_equal(out, np.full_like(x, np.inf))


def test_a_cnn_step_splits_its_first_activations():
    w = tf.constant(RNG.standard_normal((3, 3, 1, 32)).astype(np.float32))
    b = tf.constant(RNG.standard_normal(32).astype(np.float32))

    def layer(x):
        return tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "VALID"), b))
    f = tf.function(layer)
    text = f.get_concrete_function(tf.TensorSpec([None, 28, 28, 1], tf.float32)) \
        .graph.python_source()
    assert "_ew(_np.add, Conv2D" in text and "_ew(_np.maximum, BiasAdd" in text
    x = tf.constant(RNG.standard_normal((2, 28, 28, 1)).astype(np.float32))
    np.testing.assert_array_equal(f(x).numpy(), layer(x).numpy())
