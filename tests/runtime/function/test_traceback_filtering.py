"""Tracebacks of errors from `function` and `to_graph` calls show the user's
frames, not the library's (autograph.tracebacks), unless filtering is off."""

import os
import traceback

import pytest

import autograph
import runtime as tf

LIBRARY = tuple(os.path.dirname(os.path.abspath(m.__file__)) + os.sep
                for m in (tf, autograph))


def frames(error):
    return [(f.filename, f.name) for f in traceback.extract_tb(error.__traceback__)]


def library_frames(error):
    return [f for f in frames(error) if f[0].startswith(LIBRARY)]


@pytest.fixture(autouse=True)
def filtering_on():
    yield
    tf.debugging.enable_traceback_filtering()


def only_one_branch(x):
    if x > 0:
        y = x + 1
    return y


def test_conversion_error_shows_user_and_converted_frames_only():
    with pytest.raises(ValueError, match="'y' must also be initialized in the else branch") as info:
        tf.function(only_one_branch)(tf.constant(1))
    assert [name for _, name in library_frames(info.value)] == ["__call__"]
    assert any(f.startswith("<autograph:") and name == "only_one_branch"
               for f, name in frames(info.value))
    assert frames(info.value)[0] == (__file__, "test_conversion_error_shows_user_and_converted_frames_only")


def test_disabled_filtering_shows_library_frames():
    tf.debugging.disable_traceback_filtering()
    assert not tf.debugging.is_traceback_filtering_enabled()
    with pytest.raises(ValueError) as info:
        tf.function(only_one_branch)(tf.constant(1))
    files = {f for f, _ in library_frames(info.value)}
    assert any(f.endswith(os.path.join("operators", "control_flow.py")) for f in files)
    assert any(f.endswith("control_flow.py") and "runtime" in f for f in files)


def test_run_time_op_error_keeps_entry_and_raising_frame():
    @tf.function
    def pick(x, i):
        return tf.gather(x, i)

    with pytest.raises(tf.errors.InvalidArgumentError, match="GatherV2") as info:
        pick(tf.constant([1, 2]), tf.constant(5))
    names = [name for _, name in library_frames(info.value)]
    assert len(names) <= 3 and names[0] == "__call__"
    assert not any(f.startswith("<graph ") for f, _ in frames(info.value))


def test_numpy_cause_of_a_kernel_error_is_unlinked_user_cause_kept():
    @tf.function
    def mm(a):
        return tf.matmul(a, a)

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        mm.get_concrete_function(tf.TensorSpec([None, None], tf.float32))(
            tf.ones([2, 3]))
    text = "".join(traceback.format_exception(info.value))
    assert "The above exception was the direct cause" not in text

    def user_helper(v):
        raise KeyError("from the user's helper")

    @tf.function
    def calls_python(x):
        return tf.numpy_function(user_helper, [x], tf.int32)

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        calls_python(tf.constant(1))
    text = "".join(traceback.format_exception(info.value))
    assert "user_helper" in text and "from the user's helper" in text


def test_to_graph_errors_are_filtered():
    converted = autograph.to_graph(only_one_branch)
    with pytest.raises(UnboundLocalError) as info:
        converted(0)                 # plain Python: same error as the original
    with pytest.raises(UnboundLocalError):
        only_one_branch(0)
    assert not any(f.startswith(os.path.dirname(autograph.__file__) + os.sep + "operators")
                   for f, _ in frames(info.value))


def test_get_concrete_function_errors_are_filtered():
    def fails_while_tracing(x):
        if x > 0:
            y = x
        return y

    traced = tf.function(fails_while_tracing)
    with pytest.raises(ValueError, match="'y' must also be initialized") as info:
        traced.get_concrete_function(tf.TensorSpec([], tf.int32))
    assert [name for _, name in library_frames(info.value)] == ["get_concrete_function"]
    assert frames(info.value)[0][1] == "test_get_concrete_function_errors_are_filtered"
