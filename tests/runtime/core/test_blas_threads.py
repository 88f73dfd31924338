"""BLAS threads chosen per graph run (runtime/_src/core/blas.py):
one thread for a graph of small products (or mid-size ones whose rows the
kernels split themselves) or on a busy machine, the
library's count for large products on an idle one, and a count fixed by
`tf.config.threading.set_intra_op_parallelism_threads`."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.core import blas
from runtime._src.exec.executor import largest_product

needs_blas = pytest.mark.skipif(not blas.available(), reason="numpy's OpenBLAS not reachable")


def _graph(fn, *specs):
    return tf.function(fn).get_concrete_function(*specs).graph


def test_the_kernels_split_mid_size_rows_on_several_cores():
    from runtime._src.core import parallel
    assert blas._state["row_split"] == (parallel._CORES > 1)


def test_largest_product_counts_multiply_adds():
    conv = _graph(lambda x, f: tf.nn.conv2d(x, f, 1, "VALID"),
                  tf.TensorSpec([32, 13, 13, 32]), tf.TensorSpec([3, 3, 32, 64]))
    assert largest_product(conv) == 32 * 11 * 11 * 64 * (3 * 3 * 32)
    mm = _graph(lambda a, b: tf.matmul(a, b, transpose_a=True),
                tf.TensorSpec([7, 5]), tf.TensorSpec([7, 3]))
    assert largest_product(mm) == 5 * 3 * 7
    assert largest_product(_graph(lambda a: a + 1, tf.TensorSpec([4]))) == 0
    unknown = _graph(lambda a, b: a @ b, tf.TensorSpec([None, 5]), tf.TensorSpec([5, 3]))
    assert largest_product(unknown) is None


def test_a_gradient_graph_counts_the_conv_gradients():
    x = tf.constant(np.ones((2, 6, 6, 3), np.float32))
    f = tf.Variable(np.ones((3, 3, 3, 4), np.float32))

    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(tf.nn.conv2d(x, f, 1, "SAME"))
        return tape.gradient(loss, [x, f])
    graph = tf.function(step).get_concrete_function(x).graph
    ops = {n.op for n in graph.nodes}
    assert {"Conv2DBackpropInput", "Conv2DBackpropFilter"} <= ops
    assert largest_product(graph) == 2 * 6 * 6 * 4 * 27


def test_threads_for_small_large_and_busy(monkeypatch):
    monkeypatch.setitem(blas._state, "default", 4)
    monkeypatch.setitem(blas._state, "cpus", 4)
    monkeypatch.setitem(blas._state, "busy", False)
    monkeypatch.setitem(blas._state, "checked", -1.0)
    monkeypatch.setitem(blas._state, "row_split", False)
    monkeypatch.setattr(blas.os, "getloadavg", lambda: (1.0, 1.0, 1.0))
    assert blas.threads_for(blas.SMALL_WORK - 1) == 1
    assert blas.threads_for(blas.SMALL_WORK) == 4
    monkeypatch.setitem(blas._state, "row_split", True)   # the kernels split mid-size rows
    assert blas.threads_for(blas.MID_WORK - 1) == 1
    assert blas.threads_for(blas.MID_WORK) == 4
    monkeypatch.setitem(blas._state, "row_split", False)
    assert blas.threads_for(None) == 4
    monkeypatch.setattr(blas.os, "getloadavg", lambda: (4.6, 1.0, 1.0))
    monkeypatch.setitem(blas._state, "checked", -1.0)
    assert blas.threads_for(None) == 1                 # busy: above 4 + 0.5
    monkeypatch.setattr(blas.os, "getloadavg", lambda: (3.6, 1.0, 1.0))
    monkeypatch.setitem(blas._state, "checked", -1.0)
    assert blas.threads_for(None) == 1                 # still busy until below 4 - 0.5
    monkeypatch.setattr(blas.os, "getloadavg", lambda: (3.4, 1.0, 1.0))
    monkeypatch.setitem(blas._state, "checked", -1.0)
    assert blas.threads_for(None) == 4


@needs_blas
def test_a_run_of_small_products_uses_one_thread():
    f = tf.function(lambda a: a @ a)
    a = tf.constant(np.ones((8, 8), np.float32))
    assert float(tf.reduce_sum(f(a))) == 8 * 8 * 8
    assert blas.current() == 1


@needs_blas
def test_intra_op_threads_fix_the_count():
    tf.config.threading.set_intra_op_parallelism_threads(1)
    try:
        f = tf.function(lambda a: a @ a)
        f(tf.constant(np.ones((600, 600), np.float32)))   # large, but the count is fixed
        assert blas.current() == 1
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(0)
    assert blas._state["fixed"] is None
