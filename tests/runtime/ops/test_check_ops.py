"""tf.debugging's asserts and checks (runtime/_src/ops/check_ops.py): the
assert_* family's eager errors, graph-time errors and program order;
assert_near, assert_shapes, check_numerics, the top-level asserts, is_tensor
and strings.format, eagerly and inside tf.function, with TF's messages."""

import re

import numpy as np
import pytest

import runtime as tf
from runtime._src.exec import executor
from runtime._src.graph.graph import Graph
from runtime.errors import InvalidArgumentError


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
    assert "test_check_ops.py:" in message
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
    assert "test_check_ops.py:" in message


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


# --- assert_near, assert_shapes, check_numerics, the top-level asserts, is_tensor,
# strings.format: eagerly and inside tf.function, with TF's messages ---------------

def _both(fn):
    """fn eagerly and as a tf.function."""
    return [fn, tf.function(fn)]


# --- assert_near ------------------------------------------------------------------

@pytest.mark.parametrize("x, y, kwargs, ok", [
    ([1.0, 2.0], [1.0, 2.0000001], {}, True),
    ([1.0, 2.0], [1.0, 2.1], {}, False),
    ([100.0], [101.0], {"rtol": 0.02}, True),
    ([100.0], [101.0], {"rtol": 0.001}, False),
    ([1.0], [1.5], {"atol": 0.6}, True),
    (np.float64([1.0]), np.float64([1.0 + 1e-9]), {}, False),
    (np.float64([1.0]), np.float64([1.0 + 1e-15]), {}, True),
    (np.float16([1.0]), np.float16([1.001]), {}, True),
    ([[1.0, 2.0]], [1.0, 2.0], {}, True),          # broadcasting
    ([], [], {}, True),
])
def test_assert_near(x, y, kwargs, ok):
    x = np.asarray(x, np.float32) if not isinstance(x, np.ndarray) else x
    y = np.asarray(y, x.dtype)
    for f in _both(lambda a, b: tf.debugging.assert_near(a, b, **kwargs) or tf.constant(0)):
        if ok:
            f(tf.constant(x), tf.constant(y))
        else:
            with pytest.raises(InvalidArgumentError, match="x and y not equal to tolerance"):
                f(tf.constant(x), tf.constant(y))


def test_assert_near_message_and_errors():
    with pytest.raises(InvalidArgumentError) as info:
        tf.debugging.assert_near(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.1]), message="msg")
    text = str(info.value)
    assert text.startswith("msg.  \nx and y not equal to tolerance rtol = 1.1920929e-06, "
                           "atol = 1.1920929e-06")
    assert "x (shape=(2,) dtype=float32) = \n1 2" in text
    assert "y (shape=(2,) dtype=float32) = \n1 2.1" in text
    with pytest.raises(ValueError, match="floating point"):
        tf.debugging.assert_near(tf.constant([1]), tf.constant([1]))
    with pytest.raises(ValueError, match="requested dtype float32 for Tensor with dtype float64"):
        tf.debugging.assert_near(tf.constant([1.0]), tf.constant([1.0], tf.float64))


# --- check_numerics -----------------------------------------------------------------

@pytest.mark.parametrize("values, found", [
    ([1.0, 2.0], None), ([1.0, np.nan], "NaN"), ([np.inf, 1.0], "Inf"),
    ([-np.inf, np.nan], "Inf and NaN"), ([], None),
])
@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64])
def test_check_numerics(values, found, dtype):
    x = np.asarray(values, dtype.np_dtype)
    for f in _both(lambda t: tf.debugging.check_numerics(t * 1, "checking t")):
        if found is None:
            out = f(tf.constant(x))
            assert out.dtype == dtype
            np.testing.assert_array_equal(out.numpy(), x)
        else:
            with pytest.raises(InvalidArgumentError,
                               match=f"checking t : Tensor had {found} values"):
                f(tf.constant(x))


def test_check_numerics_runs_even_if_unused_and_rejects_ints():
    @tf.function
    def f(t):
        tf.debugging.check_numerics(t, "unused")
        return tf.constant(1)

    with pytest.raises(InvalidArgumentError, match="unused : Tensor had NaN values"):
        f(tf.constant([np.nan]))
    with pytest.raises(InvalidArgumentError, match="int32"):
        tf.debugging.check_numerics(tf.constant([1]), "m")
    with pytest.raises(TypeError, match="int32 not in list of allowed values"):
        tf.function(lambda t: tf.debugging.check_numerics(t, "m"))(tf.constant([1]))


# --- assert_shapes ------------------------------------------------------------------

Z = tf.zeros


@pytest.mark.parametrize("shapes", [
    [(Z([2, 3]), ("N", "Q")), (Z([2]), ("N",))],
    [(Z([2, 3]), ("N", "Q")), (Z([3, 2]), ("Q", "N"))],
    [(Z([2, 3, 4]), (..., 4)), (Z([5]), (..., "N"))],
    [(Z([2, 3, 4]), ("*", 4))],
    [(Z([]), ())], [(Z([1]), [])], [(Z([]), (1,))], [(Z([]), ("N",))],
    [(Z([2, 1]), ("N", 1))], [(Z([2, 3]), "NQ")], [(Z([2, 3]), (None, 3))],
    [([1, 2], ("N",))],
])
def test_assert_shapes_passes(shapes):
    assert tf.debugging.assert_shapes(shapes) is None


@pytest.mark.parametrize("shapes, message", [
    ([(Z([2, 3]), ("N", "Q")), (Z([3]), ("N",))],
     "Specified by tensor shape=(2, 3) dtype=float32 dimension 0.  Tensor shape=(3,) "
     "dtype=float32 dimension 0 must have size 2.  Received size 3, shape (3,)"),
    ([(Z([2, 3]), ("N",))], "Tensor  must have rank in (0, 1).  Received rank 2, shape (2, 3)"),
    ([(Z([2, 3]), (2, 4))], "Specified explicitly.  Tensor shape=(2, 3) dtype=float32 "
     "dimension 1 must have size 4.  Received size 3, shape (2, 3)"),
    ([(Z([2, 3, 4]), ("...", 4))], "Tensor  must have rank 2.  Received rank 3"),
    ([(Z([2, 3, 4]), (..., 5))], "dimension -1 must have size 5.  Received size 4"),
    ([(Z([4]), (..., "A", "B"))], "must have rank at least 2.  Received rank 1, shape (4,)"),
    ([(Z([2]), [])], "dimension 0 must have size 1.  Received size 2, shape (2,)"),
    ([(Z([2, 3]), (None, 4))], "dimension 1 must have size 4"),
])
def test_assert_shapes_fails_statically(shapes, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        tf.debugging.assert_shapes(shapes)


def test_assert_shapes_message_and_bad_entries():
    with pytest.raises(ValueError, match=re.escape("hi.  Specified by tensor")):
        tf.debugging.assert_shapes([(Z([2, 3]), ("N", "N"))], message="hi")
    with pytest.raises(TypeError, match="pair"):
        tf.debugging.assert_shapes([Z([2])])
    with pytest.raises(ValueError, match="only allowed as the first entry"):
        tf.debugging.assert_shapes([(Z([2, 3]), ("N", ...))])


def test_assert_shapes_unknown_dims_checked_when_the_graph_runs():
    @tf.function(input_signature=[tf.TensorSpec([None, None]), tf.TensorSpec([None])])
    def f(x, y):
        tf.debugging.assert_shapes([(x, ("N", 3)), (y, ("N",))])
        return tf.constant(0)

    f(tf.zeros([2, 3]), tf.zeros([2]))
    with pytest.raises(InvalidArgumentError, match="dimension 1 must have size 3.  Received "
                                                   "size 4, shape \\(2, 4\\)"):
        f(tf.zeros([2, 4]), tf.zeros([2]))
    with pytest.raises(InvalidArgumentError, match="dimension 0 must have size 2"):
        f(tf.zeros([2, 3]), tf.zeros([5]))


def test_assert_shapes_static_failure_in_graph_raises_while_tracing():
    f = tf.function(lambda x: tf.debugging.assert_shapes([(x, (2,))]) or x)
    with pytest.raises(ValueError, match="Specified explicitly.  Tensor x"):
        f(tf.zeros([3]))


# --- top-level names ------------------------------------------------------------------

def test_top_level_asserts_are_the_debugging_ones():
    assert tf.assert_equal is tf.debugging.assert_equal
    assert tf.assert_less is tf.debugging.assert_less
    assert tf.assert_greater is tf.debugging.assert_greater
    assert tf.assert_rank is tf.debugging.assert_rank
    with pytest.raises(InvalidArgumentError, match="Condition x == y did not hold"):
        tf.assert_equal(tf.constant(1), tf.constant(2))
    with pytest.raises(InvalidArgumentError, match="Condition x < y did not hold"):
        tf.function(lambda a: tf.assert_less(a, 1) or a)(tf.constant(3))


def test_is_tensor():
    assert tf.is_tensor(tf.constant(1))
    assert tf.is_tensor(tf.Variable(1.0))
    assert not tf.is_tensor(1) and not tf.is_tensor(np.ones(2)) and not tf.is_tensor([1])
    seen = []
    tf.function(lambda x: seen.append(tf.is_tensor(x)) or x)(tf.constant(1))
    assert seen == [True]


# --- strings.format -----------------------------------------------------------------

_FORMAT_VARIABLE = tf.Variable([1.0])


@pytest.mark.parametrize("template, inputs, kwargs, expected", [
    ("x={}", lambda: [tf.constant([1, 2, 3])], {}, b"x=[1 2 3]"),
    ("x={} y={}", lambda: [tf.range(10), tf.constant(2.5)], {}, b"x=[0 1 2 ... 7 8 9] y=2.5"),
    ("{}", lambda: tf.reshape(tf.range(36), [6, 6]), {},
     b"[[0 1 2 3 4 5]\n [6 7 8 9 10 11]\n [12 13 14 15 16 17]\n [18 19 20 21 22 23]\n"
     b" [24 25 26 27 28 29]\n [30 31 32 33 34 35]]"),
    ("{}", lambda: tf.reshape(tf.range(100), [10, 10]), {},
     b"[[0 1 2 ... 7 8 9]\n [10 11 12 ... 17 18 19]\n [20 21 22 ... 27 28 29]\n ...\n"
     b" [70 71 72 ... 77 78 79]\n [80 81 82 ... 87 88 89]\n [90 91 92 ... 97 98 99]]"),
    ("{}", lambda: tf.range(10), {"summarize": 2}, b"[0 1 ... 8 9]"),
    ("{}", lambda: tf.range(10), {"summarize": -1}, b"[0 1 2 3 4 5 6 7 8 9]"),
    ("{} and {}", lambda: ["a", tf.constant("b")], {}, b'"a" and "b"'),
    ("{}", lambda: tf.constant([1.5, 2.0, 1e-7, 3.14159265]), {}, b"[1.5 2 1e-07 3.14159274]"),
    ("{}", lambda: tf.constant([0.1, 1 / 3], tf.float64), {}, b"[0.1 0.33333333333333331]"),
    ("{}", lambda: tf.constant([True, False]), {}, b"[1 0]"),
    ("a=%s", lambda: [tf.constant(1)], {"placeholder": "%s"}, b"a=1"),
    ("{}", lambda: tf.zeros([2, 2, 2]), {}, b"[[[0 0]\n  [0 0]]\n\n [[0 0]\n  [0 0]]]"),
    ("{}", lambda: tf.zeros([0]), {}, b"[]"),
    ("hello", lambda: [], {}, b"hello"),
    # A Variable made once: a tf.function creating one per call raises (TF 2.21).
    ("{}", lambda: [_FORMAT_VARIABLE], {}, b"[1]"),
])
def test_strings_format(template, inputs, kwargs, expected):
    eager = tf.strings.format(template, inputs(), **kwargs)
    graph = tf.function(lambda: tf.strings.format(template, inputs(), **kwargs))()
    for out in (eager, graph):
        assert out.dtype == tf.string and out.shape == ()
        assert out.numpy() == expected


def test_strings_format_in_graph_formats_run_time_values():
    f = tf.function(lambda x: tf.strings.format("x={}", x))
    assert f(tf.constant([1, 2])).numpy() == b"x=[1 2]"
    assert f(tf.constant([3, 4])).numpy() == b"x=[3 4]"


@pytest.mark.parametrize("call, error, match", [
    (lambda: tf.strings.format("{} {}", [tf.constant(1)]), ValueError,
     "The template expects 2 tensors, but the inputs only has 1"),
    (lambda: tf.strings.format("{}", [1, 2]), ValueError, "expects 1 tensors"),
    (lambda: tf.strings.format("{}", 5), TypeError, "inputs must be a tensor or a list"),
])
def test_strings_format_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


# --- rank, scalar, type checks ---------------------------------------------------------

@pytest.mark.parametrize("call, error, match", [
    (lambda: tf.debugging.assert_rank_at_least(Z([2]), 2, message="m"), ValueError,
     "m.  Tensor  must have rank at least 2.  Received rank 1, shape (2,)"),
    (lambda: tf.debugging.assert_rank_in(Z([2]), [0, 2], message="m"), ValueError,
     "m.  Tensor  must have rank in (0, 2).  Received rank 1, shape (2,)"),
    (lambda: tf.debugging.assert_rank(Z([2]), 2, message="m"), ValueError,
     "m.  Tensor  must have rank 2.  Received rank 1, shape (2,)"),
    (lambda: tf.debugging.assert_scalar(Z([2]), message="m"), ValueError,
     "m.  Expected scalar shape, saw shape: (2,)."),
    (lambda: tf.debugging.assert_type(tf.constant(1), tf.float32, message="m"), TypeError,
     "m.  tensor must be of type tf.float32; got tf.int32"),
    (lambda: tf.debugging.assert_integer(tf.constant(1.0), message="m"), TypeError,
     'm.  Expected "x" to be integer type.  Found: tensor of dtype tf.float32'),
    (lambda: tf.debugging.assert_all_finite(tf.constant([np.nan]), "m"), InvalidArgumentError,
     "m : Tensor had NaN values"),
])
def test_static_checks_fail_with_tf_messages(call, error, match):
    with pytest.raises(error, match=re.escape(match)):
        call()


def test_static_checks_pass():
    assert tf.debugging.assert_rank_at_least(Z([2, 3]), 1) is None
    assert tf.debugging.assert_rank_in(Z([2]), [0, 1]) is None
    assert tf.debugging.assert_scalar(tf.constant(1)) is None
    assert tf.debugging.assert_type(tf.constant(1), tf.int32) is None
    assert tf.debugging.assert_integer(tf.constant([1], tf.int64)) is None
    assert tf.debugging.assert_all_finite(tf.constant([1.0]), "m").numpy().tolist() == [1.0]
    assert tf.debugging.is_numeric_tensor(tf.constant(1))
    assert not tf.debugging.is_numeric_tensor(tf.constant("a"))
    assert not tf.debugging.is_numeric_tensor(tf.constant(True))
    assert not tf.debugging.is_numeric_tensor(1)


def test_rank_checks_of_unknown_rank_run_with_the_graph():
    @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
    def f(x):
        tf.debugging.assert_rank_at_least(x, 2)
        tf.debugging.assert_rank_in(x, [2, 3])
        return tf.constant(0)

    f(tf.zeros([2, 2]))
    with pytest.raises(InvalidArgumentError, match=re.escape(
            "Tensor x:0 must have rank at least 2.  Received rank 1, shape (2,)")):
        f(tf.zeros([2]))
    with pytest.raises(InvalidArgumentError, match=re.escape("must have rank in (2, 3)")):
        f(tf.zeros([1, 1, 1, 1]))
