"""Run-time kernel errors name the op and the user's line: in branches, loops
(autograph's and explicit while_loops), nested branches located once, a
failing assert located once, a py_function's error at its call; the graph
still runs after a failure."""

import inspect

import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError

THIS_FILE = __file__


def _line_of(fn, marker):
    """The file line number of the line of `fn` containing `marker`."""
    lines, start = inspect.getsourcelines(fn)
    for offset, text in enumerate(lines):
        if marker in text:
            return start + offset
    raise AssertionError(f"{marker!r} not in {fn.__name__}")


def _load(tmp_path, name, source):
    """Functions defined in a real file of their own (pytest rewrites the
    `assert` statements of test modules, so those are not the source's code)."""
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    namespace = {"tf": tf}
    exec(compile(source, str(path), "exec"), namespace)  # test source
    return namespace, str(path)


def _run_error(fn, *args):
    with pytest.raises(InvalidArgumentError) as info:
        tf.function(fn)(*args)
    return info.value


def gather_in_branch(x, i):
    if x > 0:
        y = tf.gather(x * tf.ones([3]), i)   # BRANCH
    else:
        y = x
    return y


def gather_top(x, i):
    return tf.gather(x, i)   # TOP


def gather_in_loop(x, n):
    s = tf.constant(0.0)
    for i in tf.range(n):
        s = s + tf.gather(x, i)   # LOOP
    return s


def gather_in_nested_loop(x, n):
    s = tf.constant(0.0)
    i = tf.constant(0)
    while i < n:
        for j in tf.range(i + 1):
            if j >= 0:
                s = s + tf.gather(x, j)   # NESTED
        i += 1
    return s


@pytest.mark.parametrize("fn, marker, args, index, size", [
    (gather_in_branch, "# BRANCH", (1.0, 7), 7, 3),
    (gather_top, "# TOP", ([1.0, 2.0], 7), 7, 2),
    (gather_in_loop, "# LOOP", ([1.0, 2.0], 5), 2, 2),
    (gather_in_nested_loop, "# NESTED", ([1.0, 2.0], 5), 2, 2),
], ids=["branch", "top", "loop-body", "nested-loop"])
def test_kernel_error_names_op_and_user_line(fn, marker, args, index, size):
    tensors = [tf.constant(a) for a in args]
    error = _run_error(fn, *tensors)
    message = str(error)
    line = _line_of(fn, marker)
    assert message.startswith(f"GatherV2: indices[] = {index} is not in [0, {size})")
    assert f"(at {THIS_FILE}:{line}: " in message
    assert "tf.gather(" in message.splitlines()[-1]
    assert message.count(f"{THIS_FILE}:{line}") == 1
    assert error.op_name.startswith("GatherV2")
    # The original Python (eager) and the converted function fail the same way.
    with pytest.raises(InvalidArgumentError, match=r"is not in \[0, "):
        fn(*tensors)
    with pytest.raises(InvalidArgumentError, match=r"is not in \[0, "):
        tf.autograph.to_graph(fn)(*tensors)


def test_kernel_error_graph_still_works_after_failure():
    f = tf.function(gather_in_branch)
    with pytest.raises(InvalidArgumentError):
        f(tf.constant(1.0), tf.constant(7))
    assert f(tf.constant(2.0), tf.constant(1)).numpy() == pytest.approx(2.0)
    assert f(tf.constant(-2.0), tf.constant(9)).numpy() == pytest.approx(-2.0)
    assert f.experimental_get_tracing_count() == 1


def test_kernel_error_in_deeply_nested_branches_located_once(tmp_path):
    # Deeper than the code generator inlines: the inner If runs as a kernel.
    src = "def deep(x, i):\n    y = x\n"
    indent = "    "
    for k in range(10):
        src += f"{indent}if x > {k - 100}:\n"
        indent += "    "
    src += f"{indent}y = tf.gather(x * tf.ones([3]), i)\n    return y\n"
    namespace, path = _load(tmp_path, "deep_branches", src)
    error = _run_error(namespace["deep"], tf.constant(1.0), tf.constant(7))
    message = str(error)
    assert message.count(f"{path}:13") == 1
    assert message.startswith("GatherV2: indices[] = 7 is not in [0, 3)")
    assert f"(at {path}:13: y = tf.gather(x * tf.ones([3]), i))" in message


def test_failing_assert_message_is_not_located_twice(tmp_path):
    namespace, path = _load(tmp_path, "asserting", (
        "def check(x):\n"
        "    assert x > 0, 'x must be positive'\n"
        "    return x\n"))
    error = _run_error(namespace["check"], tf.constant(-1))
    assert str(error).startswith("assertion failed: [x must be positive")
    assert str(error).count(f"(at {path}:2)") == 1
    assert str(error).count(f"{path}:2") == 2      # the assert's text, then where


def test_py_function_error_is_located_at_the_py_function_call():
    def bad(x):
        raise_from_numpy = np.asarray(x)[5]
        return raise_from_numpy

    def f(x):
        return tf.py_function(bad, [x], tf.int32)   # PYFUNC
    error = _run_error(f, tf.constant([1, 2]))
    assert f"{THIS_FILE}:{_line_of(f, '# PYFUNC')}" in str(error)
    assert "IndexError" in str(error)


def test_kernel_error_in_explicit_while_loop_body_names_the_line():
    def f(x, n):
        def body(i, s):
            return i + 1, s + tf.gather(x, i)   # EXPLICIT
        return tf.while_loop(lambda i, s: i < n, body, (tf.constant(0), tf.constant(0.0)))[1]
    error = _run_error(f, tf.constant([1.0, 2.0]), tf.constant(3))
    assert str(error).startswith("GatherV2: indices[] = 2 is not in [0, 2)")
    assert f"(at {THIS_FILE}:{_line_of(f, '# EXPLICIT')}: " in str(error)
    assert tf.function(f)(tf.constant([1.0, 2.0]), tf.constant(2)).numpy() == 3.0
