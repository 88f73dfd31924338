"""Assert and debugging.assert_*: eager errors, graph-time errors, program order."""

import numpy as np
import pytest

import runtime as tf
from runtime._src.exec import executor
from runtime._src.graph.graph import Graph

InvalidArgumentError = tf.errors.InvalidArgumentError


def c(value, dtype=None):
    return tf.convert_to_tensor(value, dtype)


def trace(fn, *specs):
    g = Graph("f")
    with g.as_default():
        args = [g.add_placeholder(d, s, f"x{i}") for i, (d, s) in enumerate(specs)]
        out = fn(*args)
    g.outputs = [] if out is None else [out]
    return g


def test_eager_assert_message_and_data():
    with pytest.raises(InvalidArgumentError) as info:
        tf.Assert(c(False), ["x is", c([1, 2, 3]), c(np.arange(10))])
    assert str(info.value) == "assertion failed: [x is] [1 2 3] [0 1 2...]"


def test_assert_summarize_and_passing_condition():
    assert tf.Assert(c(True), ["never shown"]) is None
    assert tf.debugging.Assert(True, ["python bool"]) is None
    with pytest.raises(InvalidArgumentError, match=r"^assertion failed: \[0 1 2 3 4\.\.\.\]$"):
        tf.Assert(False, [c(np.arange(10))], summarize=5)


def test_assert_condition_must_be_bool():
    with pytest.raises(TypeError, match="condition must be a bool tensor, got int32"):
        tf.Assert(c(1), ["x"])


def test_graph_assert_raises_at_run_time_with_location():
    g = trace(lambda x: tf.Assert(tf.greater(x, 0), ["x must be positive:", x]),
              (tf.int32, []))
    executor.run(g, [np.int32(1)])  # passes
    with pytest.raises(InvalidArgumentError) as info:
        executor.run(g, [np.int32(-3)])
    message = str(info.value)
    assert message.startswith("assertion failed: [x must be positive:] [-3]")
    assert "test_asserts.py:" in message
    executor.run(g, [np.int32(2)])  # the same graph still works


def test_failing_assert_stops_later_side_effects(capsys):
    v = tf.Variable(0)

    def body(x):
        tf.print("before", x)
        tf.Assert(tf.greater(x, 0), ["bad x", x])
        tf.print("after", x)
        v.assign(x)
    g = trace(body, (tf.int32, []))
    with pytest.raises(InvalidArgumentError, match=r"\[bad x\] \[-1\]"):
        executor.run(g, [np.int32(-1)])
    assert capsys.readouterr().err == "before -1\n"
    assert int(v) == 0
    executor.run(g, [np.int32(4)])
    assert capsys.readouterr().err == "before 4\nafter 4\n"
    assert int(v) == 4


@pytest.mark.parametrize("check, x, y, ok", [
    (tf.debugging.assert_equal, [1, 2], [1, 2], True),
    (tf.debugging.assert_equal, [1, 2], [1, 3], False),
    (tf.debugging.assert_equal, [2, 2], 2, True),
    (tf.debugging.assert_none_equal, [1, 2], [3, 4], True),
    (tf.debugging.assert_none_equal, [1, 2], [3, 2], False),
    (tf.debugging.assert_greater, [2, 3], [1, 2], True),
    (tf.debugging.assert_greater, [2, 3], [2, 2], False),
    (tf.debugging.assert_greater_equal, [2, 3], [2, 3], True),
    (tf.debugging.assert_greater_equal, [1, 3], [2, 3], False),
    (tf.debugging.assert_less, [1, 2], 3, True),
    (tf.debugging.assert_less, [1, 3], 3, False),
    (tf.debugging.assert_less_equal, [1, 3], 3, True),
    (tf.debugging.assert_less_equal, [1, 4], 3, False),
])
def test_binary_asserts_eager_and_graph(check, x, y, ok):
    x_t = c(np.array(x, np.int32))
    if ok:
        assert check(x_t, y) is None
    else:
        with pytest.raises(InvalidArgumentError, match="did not hold"):
            check(x_t, y)
    g = trace(lambda a: check(a, y), (tf.int32, [2]))
    if ok:
        executor.run(g, [np.array(x, np.int32)])
    else:
        with pytest.raises(InvalidArgumentError, match="did not hold"):
            executor.run(g, [np.array(x, np.int32)])


@pytest.mark.parametrize("check, value, ok", [
    (tf.debugging.assert_positive, [1.0, 2.0], True),
    (tf.debugging.assert_positive, [0.0, 2.0], False),
    (tf.debugging.assert_negative, [-1.0], True),
    (tf.debugging.assert_negative, [0.0], False),
    (tf.debugging.assert_non_negative, [0.0, 1.0], True),
    (tf.debugging.assert_non_negative, [-0.5, 1.0], False),
    (tf.debugging.assert_non_positive, [0.0, -1.0], True),
    (tf.debugging.assert_non_positive, [0.5], False),
])
def test_sign_asserts(check, value, ok):
    if ok:
        assert check(c(value)) is None
    else:
        with pytest.raises(InvalidArgumentError, match="did not hold"):
            check(c(value))


def test_assert_equal_message_lists_first_differences():
    with pytest.raises(InvalidArgumentError) as info:
        tf.debugging.assert_equal(c([1, 2, 3, 4]), c([1, 0, 3, 0]), message="values differ")
    assert str(info.value) == "\n".join([
        "values differ",
        "Condition x == y did not hold.",
        "Indices of first 2 different values:",
        "[[1]\n [3]]",
        "Corresponding x values:",
        "[2 4]",
        "Corresponding y values:",
        "[0 0]",
        "First 3 elements of x:",
        "[1 2 3]",
        "First 3 elements of y:",
        "[1 0 3]",
    ])


def test_assert_greater_graph_message_names_condition_and_line():
    g = trace(lambda x: tf.debugging.assert_greater(x, 0.0, message="need x > 0"),
              (tf.float32, [None]))
    with pytest.raises(InvalidArgumentError) as info:
        executor.run(g, [np.float32([1.0, -1.0])])
    message = str(info.value)
    assert message.startswith("need x > 0\nCondition x > y did not hold.")
    assert "test_asserts.py:" in message


def test_binary_assert_dtype_mismatch():
    with pytest.raises(InvalidArgumentError, match="float32"):
        tf.debugging.assert_equal(c([1, 2]), c([1.0, 2.0]))
    with pytest.raises(TypeError, match="same dtype"):
        trace(lambda x: tf.debugging.assert_equal(x, c([1.0, 2.0])), (tf.int32, [2]))


def test_assert_rank_static_and_dynamic():
    assert tf.debugging.assert_rank(c([1, 2]), 1) is None
    with pytest.raises(ValueError, match=r"must have rank 2.  Received rank 1, shape \(2,\)"):
        tf.debugging.assert_rank(c([1, 2]), 2)
    g = trace(lambda x: tf.debugging.assert_rank(x, 1), (tf.int32, None))
    executor.run(g, [np.array([1], np.int32)])
    with pytest.raises(InvalidArgumentError, match="must have rank 1.  Received rank 0"):
        executor.run(g, [np.int32(1)])


def test_scalar_assert_message():
    with pytest.raises(InvalidArgumentError) as info:
        tf.debugging.assert_greater(c(-1), 0)
    assert str(info.value).split("\n")[:6] == [
        "Condition x > y did not hold.", "Indices of first 1 different values:", "[[0]]",
        "Corresponding x values:", "[-1]", "Corresponding y values:"]
