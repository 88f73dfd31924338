"""Errors name the variable or construct, the user's file and line, and called functions that cannot be converted fall back
with one warning."""

import inspect
import warnings

import pytest

import autograph

import runtime as tf  # an import error must fail the module loudly

HERE = __file__


def _line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    for i, line in enumerate(lines):
        if text in line:
            return first + i
    raise AssertionError(f"{text!r} not in {fn.__name__}")


def one_branch(x):
    if x > 0:
        y = x
    return y


def while_defined(n):
    i = 0
    while i < n:
        z = i * 2
        i += 1
    return z


def for_defined(xs):
    for x in xs:
        last = x
    return last


def dtype_change(n):
    i = 0
    v = 0
    while i < n:
        v = tf.cast(i, tf.float32)
        i += 1
    return v


def return_one_branch(x):
    if x > 0:
        return x


def shape_change(n):
    v = tf.constant([1])
    i = 0
    while i < n:
        v = tf.concat([v, v], 0)
        i += 1
    return v


@pytest.mark.parametrize("fn, arg, error, words, line_text", [
    (one_branch, 1, ValueError, ["'y' must also be initialized in the else branch"], "if x > 0:"),
    (dtype_change, 3, TypeError, ["'v'", "int32", "float32"], "while i < n:"),
    (return_one_branch, 1, ValueError, ["returns a value in the if branch",
                                        "no value (None) in the else branch"], "if x > 0:"),
])
def test_trace_time_errors_name_variable_and_line(fn, arg, error, words, line_text):
    with pytest.raises(error) as info:
        tf.function(fn)(tf.constant(arg))
    message = str(info.value)
    for w in words:
        assert w in message
    assert f"{HERE}:{_line_of(fn, line_text)}: {line_text}" in message
    assert "retval_" not in message


def test_loop_that_must_iterate_fails_at_run_time_only_when_empty():
    f = tf.function(for_defined)
    assert f(tf.constant([4, 5])).numpy() == 5
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant([], dtype=tf.int32))
    message = str(info.value)
    assert "must iterate at least once to define 'last'" in message
    assert f"{HERE}:{_line_of(for_defined, 'for x in xs:')}" in message
    assert f(tf.constant([7])).numpy() == 7          # the same graph still works


def test_while_loop_that_must_iterate_fails_at_run_time_only_when_empty():
    """As TensorFlow: traced, with a run-time check naming the name and the loop."""
    f = tf.function(while_defined)
    assert f(tf.constant(3)).numpy() == while_defined(3)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant(0))
    message = str(info.value)
    assert "the loop must iterate at least once to define 'z'" in message
    assert f"{HERE}:{_line_of(while_defined, 'while i < n:')}: while i < n:" in message
    assert f(tf.constant(1)).numpy() == while_defined(1)     # the same graph still works
    assert f.experimental_get_tracing_count() == 1


def test_shape_change_is_not_an_error():
    assert tf.function(shape_change)(tf.constant(3)).numpy().tolist() == [1] * 8


def bad_dtypes(x):
    y = x + tf.constant(1.5)
    return y


def test_exceptions_from_converted_code_name_user_line():
    with pytest.raises(TypeError) as info:
        tf.function(bad_dtypes)(tf.constant(1))
    text = str(info.value) + "".join(getattr(info.value, "__notes__", []))
    assert f"{HERE}:{_line_of(bad_dtypes, 'y = x + tf.constant(1.5)')}" in text


def python_error(x):
    if x > 0:
        y = 10 // (x - x)
    else:
        y = 0
    return y


def test_python_exception_gets_user_line_note():
    with pytest.raises(ZeroDivisionError) as info:
        autograph.to_graph(python_error)(1)
    notes = "".join(getattr(info.value, "__notes__", []))
    line = _line_of(python_error, "y = 10 // (x - x)")
    assert f'File "{HERE}", line {line}: y = 10 // (x - x)' in notes


# --- unsupported constructs (point 6) -------------------------------------------------

def generator(x):
    yield x


def global_write(x):
    global GLOBAL_SINK
    if x > 0:
        GLOBAL_SINK = x
    return x


def try_around_if(x):
    try:
        if x > 0:
            x = x + 1
    except ValueError:
        pass
    return x


def return_in_with(x):
    import contextlib
    with contextlib.suppress(KeyError):
        return x
    return 0


def walrus_in_while(n):
    i = 0
    while (j := i * 2) < n:
        i += 1
    return j


@pytest.mark.parametrize("fn", [global_write, try_around_if, return_in_with, walrus_in_while])
def test_global_writes_and_try_around_control_flow_convert(fn):
    for x in (3, -2):
        GLOBAL_SINK_BEFORE = globals().get("GLOBAL_SINK")
        expected = fn(x)
        after_original = globals().get("GLOBAL_SINK")
        globals()["GLOBAL_SINK"] = GLOBAL_SINK_BEFORE
        assert autograph.to_graph(fn)(x) == expected
        assert globals().get("GLOBAL_SINK") == after_original


@pytest.mark.parametrize("fn, construct, line_text", [
    (generator, "generators are not supported (a function with yield)", "yield x"),   # TF 2.21:
    # to_graph of a generator raises UnsupportedLanguageElementError (a
    # NotImplementedError) "generators are not supported"
])
def test_unsupported_construct_in_requested_function_is_an_error(fn, construct, line_text):
    with pytest.raises(autograph.ConversionError) as info:
        autograph.to_code(fn)
    assert isinstance(info.value, NotImplementedError)
    message = str(info.value)
    assert f"cannot convert function '{fn.__name__}': {construct}" in message
    assert f"{HERE}:{_line_of(fn, line_text)}" in message


def calls_generator(n):
    total = 0
    for v in generator(n):
        total += v
    return total


def test_called_function_that_cannot_be_converted_runs_as_is_with_one_warning():
    converted = autograph.to_graph(calls_generator)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert converted(3) == 3
        assert converted(4) == 4
    ours = [w for w in caught if issubclass(w.category, autograph.AutoGraphWarning)]
    assert len(ours) == 1          # once per function, not once per call
    message = str(ours[0].message)
    assert "could not convert generator" in message and "yield" in message


def test_strict_mode_turns_the_fallback_into_an_error():
    def calls_generator_def(x):
        return generator(x)
    autograph.set_strict(True)
    try:
        with pytest.raises(autograph.ConversionError, match=r"generators are not supported"):
            autograph.to_graph(calls_generator_def)(1)
    finally:
        autograph.set_strict(False)


def test_function_without_source_is_an_error_when_requested():
    namespace = {}
    exec("def made(x):\n    return x\n", namespace)
    with pytest.raises(autograph.ConversionError,
                       match=r"cannot convert made \(<string>:1\): its source code is not "
                             "available"):
        autograph.to_code(namespace["made"])
    assert autograph.to_graph(len) is len          # builtins run as they are


def test_do_not_convert():
    @autograph.experimental.do_not_convert
    def helper(x):
        if x > 0:
            return 1
        return 0
    assert autograph.to_graph(helper) is helper
    assert tf.autograph.experimental.do_not_convert is autograph.experimental.do_not_convert


def match_with_jumps(cmds):
    for c in cmds:
        match c:
            case 1:
                return "one"
            case _:
                continue
    return "none"


def test_match_with_control_flow_converts():
    converted = autograph.to_graph(match_with_jumps)
    for cmds in ([2, 1, 3], [2, 3], []):
        assert converted(cmds) == match_with_jumps(cmds)
