"""The core wiring: eager ops, staging into a graph, running it."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.exec import executor
from runtime._src.graph.graph import Graph


def test_eager_add_keeps_dtype():
    t = tf.convert_to_tensor([1, 2]) + 1
    assert t.dtype == tf.int32
    np.testing.assert_array_equal(t.numpy(), [2, 3])


@pytest.mark.parametrize("dtype", [tf.int8, tf.int32, tf.int64, tf.uint8, tf.float16, tf.float64])
def test_dtype_limits_are_numpys(dtype):
    info = np.iinfo if dtype.is_integer else np.finfo
    assert (dtype.min, dtype.max) == (info(dtype.np_dtype).min, info(dtype.np_dtype).max)


@pytest.mark.parametrize("dtype", [tf.bool, tf.string])
def test_non_numeric_dtype_has_no_limits(dtype):
    with pytest.raises(TypeError, match=f"{dtype.name} has no minimum or maximum"):
        dtype.min
    with pytest.raises(TypeError, match=f"{dtype.name} has no minimum or maximum"):
        dtype.max


def test_out_of_range_python_int_names_the_range():
    with pytest.raises(ValueError, match=r"out of range \[-128, 127\]"):
        tf.constant(300, dtype=tf.int8)


def test_staged_graph_runs():
    g = Graph("f")
    with g.as_default():
        x = g.add_placeholder(tf.int32, [], "x")
        y = x * 2 + tf.convert_to_tensor([1, 2])
    g.outputs = [y]
    assert repr(y) == 'Tensor("AddV2:0", shape=(2,), dtype=int32)'
    np.testing.assert_array_equal(executor.run(g, [np.int32(5)])[0], [11, 12])


def test_symbolic_bool_is_not_allowed():
    g = Graph("f")
    with g.as_default():
        x = g.add_placeholder(tf.int32, [], "x")
        with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="tf.cond"):
            bool(x)


def test_thread_state_reads_need_no_getattr_default():
    # A fresh thread sees no graph and no tapes through class-level defaults,
    # so the eager fast path's check is two attribute hits (tools/bench.py's
    # "eager tf.add" row measures it).
    import threading
    from runtime._src.core import context
    seen = []
    thread = threading.Thread(target=lambda: seen.append(
        (context.state.graph, context.state.tapes, context.plain_eager(),
         context.current_graph())))
    thread.start()
    thread.join()
    assert seen == [(None, None, True, None)]
    assert "graph" not in vars(context.state) or context.state.graph is None
