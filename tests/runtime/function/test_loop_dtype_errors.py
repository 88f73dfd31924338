"""A loop variable that enters a staged loop as a Python int (so an int32
tensor) and that the body makes a float: the error names the variable, both
dtypes and the loop's line, not only "0.5 is not an integer"."""

import inspect

import pytest

import runtime as tf

HERE = __file__


def line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def while_half_steps(n):
    x = 0
    i = 0
    while i < n:
        x = x + 0.5
        i += 1
    return x


def for_sum(xs):
    total = 0
    for v in xs:
        total += v
    return total


def float64_body(n):
    x = 0
    i = 0
    while i < n:
        x = tf.cast(x, tf.float64) * 2.0
        i += 1
    return x


@pytest.mark.parametrize("fn, arg, name, start, new, loop", [
    (while_half_steps, tf.constant(3), "x", "0", "float32", "while i < n:"),
    (for_sum, tf.constant([1.5, 2.0]), "total", "0", "float32", "for v in xs:"),
    (float64_body, tf.constant(2), "x", "0", "float64", "while i < n:"),
])
def test_int_loop_variable_made_float(fn, arg, name, start, new, loop):
    with pytest.raises(TypeError) as info:
        tf.function(fn)(arg)
    message = str(info.value)
    assert message.startswith(f"'{name}' has dtype int32 before the loop (the Python int "
                              f"{start}) but {new} after the loop body")
    assert f"start it as a float ({name} = 0.0) or use tf.cast" in message
    assert message.endswith(f"({HERE}:{line_of(fn, loop)}: {loop})")


def test_while_loop_names_the_position():
    @tf.function
    def f(n):
        return tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, x + 0.5), (0, 0))

    with pytest.raises(TypeError, match=r"'loop_vars\[1\]' has dtype int32 before the loop "
                                        r"\(the Python int 0\) but float32 after the loop body "
                                        r"\(Cannot convert 0.5 to a tensor of dtype int32"):
        f(tf.constant(3))


def test_other_body_errors_are_unchanged():
    @tf.function
    def f(n):
        x = 0
        i = 0
        while i < n:
            x = x + "text"
            i += 1
        return x

    with pytest.raises(TypeError) as info:
        f(tf.constant(2))
    assert "before the loop" not in str(info.value)
