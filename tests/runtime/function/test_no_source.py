"""Functions whose source is not available (the interactive interpreter,
`python -c`, `exec`) run unconverted under `function`, as in TensorFlow: one
warning names the function and why, and a tensor then used as a Python bool
raises OperatorNotAllowedInGraphError saying the source was unavailable and
how to fix it. Source that linecache holds (IPython and Jupyter cells) is
converted as usual."""

import linecache
import os
import subprocess
import sys
import warnings

import pytest

import autograph
import runtime as tf
from tests import fresh_process
from tests.paths import ROOT as ROOT_PATH

ROOT = str(ROOT_PATH)

PROGRAM = """\
import runtime as tf

@tf.function
def double_plus_one(x):
    return x * 2 + 1

print("value", double_plus_one(tf.constant(3)).numpy())
print("again", double_plus_one(tf.constant(4)).numpy())

@tf.function
def absolute(x):
    if x > 0:
        return x
    return -x

try:
    absolute(tf.constant(3))
except tf.errors.OperatorNotAllowedInGraphError as e:
    print("error", isinstance(e, TypeError), e)

"""


def run_python(args, stdin=None):
    """`python args` with `stdin`; without it, forked from tests/fresh_process.py's
    helper (runtime imported: the warnings come when the program runs, not at import)."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    if stdin is None:
        done = fresh_process.run(args, capture_output=True, text=True, env=env, cwd=ROOT,
                                 timeout=120)
    else:
        done = subprocess.run([sys.executable, *args], input=stdin, capture_output=True,
                              text=True, env=env, cwd=ROOT, timeout=120)
    return done.stdout, done.stderr


def check_output(stdout, stderr, filename, lines=(3, 10)):
    assert "value 7" in stdout and "again 9" in stdout
    # One warning per function, naming it, where it is, and why.
    assert stderr.count("could not convert double_plus_one") == 1, stderr
    assert f"double_plus_one ({filename}:{lines[0]}), so it runs unconverted: its source code is " \
           "not available" in stderr
    assert stderr.count("could not convert absolute") == 1
    error = next(line for line in stdout.splitlines() if line.startswith("error"))
    assert error.startswith("error True Using a symbolic tf.Tensor")
    assert f"autograph ran absolute ({filename}:{lines[1]}) unconverted because its source code is " \
           "not available" in error
    assert "Define absolute in a .py file to convert it, or use tf.cond" in error


def test_python_c():
    stdout, stderr = run_python(["-c", PROGRAM])
    check_output(stdout, stderr, "<string>")


def test_interactive_interpreter_fed_on_stdin():
    # The REPL needs a blank line after each compound statement (PROGRAM has
    # them), and compiles each statement alone: every def is on line 1.
    stdout, stderr = run_python(["-i"], stdin=PROGRAM)
    check_output(stdout, stderr, "<stdin>", lines=(1, 1))


def test_exec_in_a_module(tmp_path):
    script = tmp_path / "runs_exec.py"
    script.write_text(f"exec({PROGRAM!r})\n")
    stdout, stderr = run_python([str(script)])
    check_output(stdout, stderr, "<string>")


def exec_function(source, filename="<string>", name="f"):
    namespace = {"tf": tf}
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]


TENSOR_IF = "def f(x):\n    if x > 0:\n        x = -x\n    return x\n"


def test_to_code_says_the_source_is_not_available():
    f = exec_function(TENSOR_IF)
    with pytest.raises(autograph.ConversionError,
                       match=r"cannot convert f \(<string>:1\): its source code is not "
                             r"available .*Define it in a .py file"):
        autograph.to_code(f)


def test_to_graph_runs_it_unconverted_with_one_warning():
    f = exec_function(TENSOR_IF.replace("def f", "def g"), name="g")
    with pytest.warns(autograph.AutoGraphWarning, match="could not convert g .*not available"):
        g = autograph.to_graph(f)
    assert g(3) == -3 and g(-2) == -2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert autograph.to_graph(f)(5) == -5      # warned once only


def test_strict_mode_refuses():
    f = exec_function(TENSOR_IF.replace("def f", "def h"), name="h")
    autograph.set_strict(True)
    try:
        with pytest.raises(autograph.ConversionError, match="source code is not available"):
            autograph.to_graph(f)
    finally:
        autograph.set_strict(False)


def test_helper_without_source_called_from_converted_code():
    helper = exec_function("def helper(x):\n    if x > 0:\n        return x\n    return -x\n",
                           name="helper")

    @tf.function
    def uses_helper(x):
        return helper(x) + 1

    with pytest.warns(autograph.AutoGraphWarning, match="could not convert helper"):
        with pytest.raises(tf.errors.OperatorNotAllowedInGraphError,
                           match=r"autograph ran helper \(<string>:1\) unconverted"):
            uses_helper(tf.constant(2))
    assert uses_helper(2).numpy() == 3             # Python values: plain Python


def test_source_in_linecache_is_converted():
    """IPython and Jupyter keep each cell in linecache under a made-up name."""
    filename = "<ipython-input-7-0123456789ab>"
    linecache.cache[filename] = (len(TENSOR_IF), None, TENSOR_IF.splitlines(True), filename)
    try:
        f = exec_function(TENSOR_IF, filename)
        assert "ag__.if_stmt" in autograph.to_code(f)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            traced = tf.function(f)
            assert traced(tf.constant(3)).numpy() == -3
            assert traced(tf.constant(-4)).numpy() == -4
    finally:
        del linecache.cache[filename]
