"""The core wiring: eager ops, staging into a graph, running it."""

import numpy as np
import pytest

import runtime as tf
from runtime import executor
from runtime.graph import Graph


def test_eager_add_keeps_dtype():
    t = tf.convert_to_tensor([1, 2]) + 1
    assert t.dtype == tf.int32
    np.testing.assert_array_equal(t.numpy(), [2, 3])


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
