"""Hostile and unusual input to `autograph.to_code`, `runtime.function` and
the CLI (`python -m autograph convert/check`).

Every case has one expected outcome, the one a user of tf.function would
expect:
  * converted: `to_code` gives valid Python, and the converted function (on
    Python ints) and `runtime.function` (on tensors) agree with the original;
  * a clear error: `ConversionError` (or the documented error class) naming
    the construct and the user's file:line;
  * a single warning and unconverted execution: when such a function is
    called from converted code, it runs as written with one AutoGraphWarning.
Nothing may escape as an internal error (AttributeError, KeyError,
IndexError from our code). docs/reliability.md lists the cases.

Sources are written to real files under tmp_path and imported, so
`inspect.getsource` works as it does for users.
"""

import functools
import importlib.util
import itertools
import math
import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import autograph
import runtime as tf
from autograph import AutoGraphWarning, ConversionError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INTERNAL = (AttributeError, KeyError, IndexError)
_ids = itertools.count()


def load(tmp_path, source, name="hostile"):
    """Write `source` to a file and import it as a fresh module."""
    modname = f"{name}_{next(_ids)}"
    path = tmp_path / f"{modname}.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    spec = importlib.util.spec_from_file_location(modname, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    spec.loader.exec_module(module)
    return module


def outcome(call):
    """Run `call`; internal errors fail the test with a clear message."""
    try:
        return call()
    except INTERNAL as e:  # pragma: no cover - the failure message is the point
        pytest.fail(f"internal error escaped: {type(e).__name__}: {e}")


def value(x):
    return x.numpy() if hasattr(x, "numpy") else x


def c(v):
    return tf.constant(v)


# --- converted correctly ----------------------------------------------------------

CONVERTIBLE = {
    "with block": ("""
        import contextlib
        def f(x):
            with contextlib.nullcontext():
                if x > 0:
                    x = x * 2
            return x
        """, (3,), 6),
    "star-args and keyword-only args": ("""
        def f(x, *args, k=1, **kw):
            if x > 0:
                x = x + k
            for a in args:
                x = x + a
            return x + len(kw)
        """, (1, 2, 3), 7),
    "unicode identifiers": ("""
        def f(ẋ):
            größe = ẋ * 2
            if größe > 3:
                größe = größe - 1
            return größe
        """, (3,), 5),
    "global read": ("""
        SCALE = 4
        def f(x):
            if x > 0:
                x = x * SCALE
            return x
        """, (3,), 12),
    "nonlocal read in a closure": ("""
        def make():
            k = 5
            def f(x):
                if x > 0:
                    x = x + k
                return x
            return f
        f = make()
        """, (3,), 8),
    "try/finally without control flow inside": ("""
        def f(x):
            try:
                y = x * 2
            finally:
                z = 1
            if y > 2:
                y = y + z
            return y
        """, (3,), 7),
}


@pytest.mark.parametrize("label", list(CONVERTIBLE))
def test_convertible_constructs(tmp_path, label):
    source, args, expected = CONVERTIBLE[label]
    f = load(tmp_path, source).f
    code = outcome(lambda: autograph.to_code(f))
    compile(code, "<to_code>", "exec")
    assert "ag__." in code
    assert outcome(lambda: autograph.to_graph(f)(*args)) == expected == f(*args)
    got = outcome(lambda: tf.function(f)(*[c(a) for a in args]))
    assert value(got) == expected


def test_default_argument_that_is_a_tensor(tmp_path):
    m = load(tmp_path, """
        import runtime as tf
        DEFAULT = tf.constant(10)
        def f(x, d=DEFAULT):
            if x > 0:
                x = x + d
            return x
        """)
    g = tf.function(m.f)
    assert value(g(c(1))) == 11
    assert value(g(c(1), c(5))) == 6
    assert value(g(c(-1))) == -1
    assert value(autograph.to_graph(m.f)(1)) == 11


def test_deeply_nested_control_flow_depth_30(tmp_path):
    lines = ["def f(x):", "    y = 0"]
    lines += ["    " * (d + 1) + f"if x > {d}:" for d in range(30)]
    lines += ["    " * 31 + "y = x * 2", "    return y"]
    f = load(tmp_path, "\n".join(lines) + "\n").f
    compile(autograph.to_code(f), "<to_code>", "exec")
    g = tf.function(f)
    for x in (40, 29, 30, 0):
        assert value(g(c(x))) == f(x) == autograph.to_graph(f)(x)
    assert g.experimental_get_tracing_count() == 1


def test_function_of_5000_lines(tmp_path):
    lines = ["def f(x):"]
    for i in range(2500):
        lines.append(f"    x = x + {i % 3}")
        lines.append(f"    if x > {i}:\n        x = x - 1" if i % 50 == 0 else f"    x = x - {i % 3}")
    lines.append("    return x")
    f = load(tmp_path, "\n".join(lines) + "\n").f
    code = autograph.to_code(f)
    assert code.count("if_stmt") == 50
    assert value(tf.function(f)(c(40))) == f(40) == autograph.to_graph(f)(40)


def test_long_flat_expression(tmp_path):
    """2,000 list elements: long, but a shallow tree."""
    f = load(tmp_path, "def f(x):\n    if x > 0:\n        x = x + sum(["
             + ", ".join(str(i) for i in range(2000)) + "])\n    return x\n").f
    assert autograph.to_graph(f)(1) == 1 + sum(range(2000))
    assert value(tf.function(f)(c(1))) == 1 + sum(range(2000))


def test_long_chained_expression(tmp_path):
    f = load(tmp_path, "def f(x):\n    if x > 0:\n        x = "
             + " + ".join(["x"] * 1000) + "\n    return x\n").f
    assert "if_stmt" in outcome(lambda: autograph.to_code(f))
    assert value(tf.function(f)(c(2))) == 2000


def test_long_chained_expression_in_a_return_converts(tmp_path):
    f = load(tmp_path, "def f(x):\n    return " + " + ".join(["x"] * 1000) + "\n").f
    assert autograph.to_graph(f)(2) == 2000
    assert value(tf.function(f)(c(2))) == 2000


def test_class_with_call(tmp_path):
    m = load(tmp_path, """
        class Step:
            def __init__(self, k):
                self.k = k
            def __call__(self, x):
                if x > 0:
                    x = x - self.k
                return x
        """)
    step = m.Step(2)
    assert "def __call__(self, x):" in autograph.to_code(step)
    assert autograph.to_graph(step)(5) == 3
    g = tf.function(step)
    assert value(g(c(5))) == 3 and value(g(c(-5))) == -5


def test_decorator_without_wraps_keeps_its_behaviour(tmp_path):
    m = load(tmp_path, """
        def plus100(f):
            def w(*a):
                return f(*a) + 100
            return w
        @plus100
        def f(x):
            if x > 0:
                x = x + 1
            return x
        """)
    assert autograph.to_graph(m.f)(3) == 104
    assert value(tf.function(m.f)(c(3))) == 104


# Also part of CLI_MODULE, for the CLI's view of the same decorated function.
DOUBLED = """\
def doubling(f):
    @functools.wraps(f)
    def w(*a):
        return 2 * f(*a)
    return w

@doubling
def doubled(x):
    if x > 0:
        x = x + 1
    return x
"""


def test_decorator_with_wraps_keeps_its_behaviour(tmp_path):
    m = load(tmp_path, "import functools\n" + DOUBLED)
    assert m.doubled(3) == 8
    assert value(tf.function(m.doubled)(c(3))) == 8
    assert autograph.to_graph(m.doubled)(3) == 8


def test_functools_partial_on_python_values(tmp_path):
    m = load(tmp_path, """
        def f(x, k=1):
            if x > 0:
                x = x + k
            return x
        """)
    assert autograph.to_graph(functools.partial(m.f, k=5))(1) == 6


def test_functools_partial_converts_the_wrapped_function(tmp_path):
    m = load(tmp_path, """
        def f(x, k=1):
            if x > 0:
                x = x + k
            return x
        """)
    p = functools.partial(m.f, k=5)
    assert "if_stmt" in autograph.to_code(p)
    assert value(tf.function(p)(c(1))) == 6


# Also part of CLI_MODULE.
FACT = """\
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)
"""


def test_recursion_through_a_tensor_condition(tmp_path):
    """Python values recurse and stop; a tensor condition traces both
    branches forever, which ends (as in TensorFlow 2.21) in a StagingError
    whose text has the RecursionError, naming the user's line."""
    m = load(tmp_path, FACT)
    assert autograph.to_graph(m.fact)(5) == 120
    with pytest.raises(Exception) as info:
        tf.function(m.fact)(c(3))
    assert type(info.value).__name__ == "StagingError"
    assert isinstance(info.value.__cause__, RecursionError)
    assert "RecursionError: maximum recursion depth exceeded" in str(info.value)
    notes = "\n".join(getattr(info.value, "__notes__", []))
    # The stack runs out on one of fact's lines; which one depends on the depth
    # the test starts at (a pytest-xdist worker's stack is deeper).
    assert m.__file__ in notes
    assert "return n * fact(n - 1)" in notes or "if n <= 1:" in notes, notes


# --- a clear error naming the construct and line ------------------------------------

UNCONVERTIBLE = {
    "generator": ("""
        def f(x):
            if x > 0:
                yield x
        """, "generators are not supported", 4),
    "async function": ("""
        async def f(x):
            return x
        """, "async", 2),
}


# --- once refused, now converted: Python values exactly, tensors staged or refused --

CONVERTED = {
    "global write in control flow": ("""
        counter = 0
        def f(x):
            global counter
            if x > 0:
                counter = counter + 1
            return x
        """, "counter", 5),
    "nonlocal write in control flow": ("""
        def f(x):
            n = 0
            def inner(y):
                nonlocal n
                if y > 0:
                    n = n + 1
                return y
            inner(x)
            return n
        """, "n", 6),
    "try/finally with returns": ("""
        def f(x):
            try:
                if x > 0:
                    return x * 2
            finally:
                x = x + 1
            return x
        """, "try", 3),
}


@pytest.mark.parametrize("label", list(CONVERTED))
def test_formerly_refused_constructs_convert(tmp_path, label):
    """global/nonlocal writes and try/finally around control flow run exactly
    as Python on Python values. Staged, a global or nonlocal written in a
    tensor branch runs while tracing with a warning, as in TensorFlow, and is
    refused in strict mode, naming the assignment's line; try/finally stages
    like any code."""
    source, name, line = CONVERTED[label]
    m = load(tmp_path, source)
    for x in (3, -1):
        assert outcome(lambda: autograph.to_graph(m.f)(x)) == outcome(lambda: m.f(x))
    if label.startswith("try"):
        for x in (3, -1):
            assert value(tf.function(m.f)(c(x))) == m.f(x)
        return
    # As in TensorFlow, the write runs while tracing, with one SideEffectWarning;
    # strict side effects refuse it.
    with pytest.warns(autograph.SideEffectWarning, match=rf"= {name} \+ 1"):
        tf.function(m.f)(c(1))
    autograph.set_strict_side_effects(True)
    try:
        m = load(tmp_path, source)
        with pytest.raises(ValueError) as info:
            tf.function(m.f)(c(1))
    finally:
        autograph.set_strict_side_effects(False)
    message = str(info.value)
    assert f"{m.__file__}:{line + 1}" in message and "global or nonlocal variable" in message
    assert f"= {name} + 1" in message, message


@pytest.mark.parametrize("label", list(UNCONVERTIBLE))
def test_unconvertible_constructs_raise_a_clear_error(tmp_path, label):
    source, construct, line = UNCONVERTIBLE[label]
    m = load(tmp_path, source)
    where = f"{m.__file__}:{line}"
    attempts = [lambda: autograph.to_code(m.f)]
    if label == "generator":
        # TF 2.21: tf.function of a generator function warns ("AutoGraph could
        # not transform ... generators are not supported") and runs it as-is.
        with pytest.warns(autograph.AutoGraphWarning, match="generators are not supported"):
            tf.function(m.f)(c(1))
    else:
        attempts.append(lambda: tf.function(m.f)(c(1)))
    for attempt in attempts:
        with pytest.raises(ConversionError) as info:
            outcome(attempt)
        message = str(info.value)
        assert construct in message and where in message, message


@pytest.mark.parametrize("label", ["generator"])
def test_unconvertible_callee_runs_unconverted_with_one_warning(tmp_path, label):
    source, construct, _ = UNCONVERTIBLE[label]
    m = load(tmp_path, textwrap.dedent(source) + textwrap.dedent("""
        def caller(x):
            if x > 0:
                x = x + 1
            r = f(x)
            return list(r) if hasattr(r, '__next__') else r
        """))
    converted = autograph.to_graph(m.caller)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = [converted(3) for _ in range(3)]
    expected = m.caller(3)
    assert results == [expected] * 3
    ours = [w for w in caught if issubclass(w.category, AutoGraphWarning)]
    assert len(ours) == 1, [str(w.message) for w in caught]
    assert "runs unconverted" in str(ours[0].message) and construct in str(ours[0].message)


def test_unicode_name_in_error_messages(tmp_path):
    m = load(tmp_path, """
        def f(ẋ):
            if ẋ > 0:
                ẏ = 1
            return ẏ
        """)
    with pytest.raises(ValueError, match="'ẏ' must also be initialized in the else branch"):
        tf.function(m.f)(c(3))


def test_function_defined_by_exec():
    namespace = {}
    exec("def f(x):\n    if x > 0:\n        x = x * 2\n    return x\n", namespace)
    f = namespace["f"]
    with pytest.raises(ConversionError, match="source code is not available"):
        outcome(lambda: autograph.to_code(f))
    # As in TensorFlow, tf.function runs it unconverted (with a warning): a
    # tensor condition then fails, saying why.
    with pytest.warns(AutoGraphWarning, match="could not convert f"):
        with pytest.raises(tf.errors.OperatorNotAllowedInGraphError,
                           match="source code is not available"):
            outcome(lambda: tf.function(f)(c(3)))
    exec("def g(x):\n    return x * 2\n", namespace)
    with pytest.warns(AutoGraphWarning, match="could not convert g"):
        assert value(tf.function(namespace["g"])(c(3))) == 6
    assert value(tf.function(namespace["g"], autograph=False)(c(3))) == 6


def test_exec_function_called_from_converted_code_warns_once(tmp_path):
    namespace = {}
    exec("def helper(x):\n    return x * 2\n", namespace)
    m = load(tmp_path, """
        def caller(x):
            if x > 0:
                x = helper(x)
            return x
        """)
    m.helper = namespace["helper"]
    g = tf.function(m.caller)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert value(g(c(3))) == 6
        assert value(g(c(3.0))) == 6.0       # a second trace: no second warning
    ours = [w for w in caught if issubclass(w.category, AutoGraphWarning)]
    assert len(ours) == 1 and "helper" in str(ours[0].message)


def test_source_moved_on_disk_after_import(tmp_path):
    m = load(tmp_path, "def f(x):\n    if x > 0:\n        x = x * 2\n    return x\n")
    with open(m.__file__, "w") as fh:
        fh.write("# new first line\n\ndef g(y):\n    return y\n\ndef f(x):\n    return -x\n")
    import linecache
    linecache.checkcache()
    with pytest.raises(ConversionError, match="cannot find the definition of 'f'"):
        autograph.to_code(m.f)


def test_source_edited_in_place_after_import(tmp_path):
    m = load(tmp_path, "def f(x):\n    if x > 0:\n        x = x * 2\n    return x\n\n"
                       "def caller(x):\n    if x > 0:\n        x = f(x)\n    return x\n")
    with open(m.__file__, "w") as fh:
        fh.write("def f(x):\n    if x > 0:\n        x = x * 3\n    return x\n\n"
                 "def caller(x):\n    if x > 0:\n        x = f(x)\n    return x\n")
    import linecache
    linecache.checkcache()
    assert m.f(3) == 6
    # Asked for directly: a clear error, never the new body (9).
    with pytest.raises(ConversionError, match=r"cannot convert f \(.*hostile_\d+\.py:1\): its "
                       "source changed on disk since import"):
        autograph.to_graph(m.f)
    # Called from converted code: runs unconverted (the imported body), one warning.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = autograph.to_graph(m.caller)
        assert g(3) == 6 and g(4) == 8
    ours = [str(w.message) for w in caught if issubclass(w.category, AutoGraphWarning)]
    assert ours == ["autograph could not convert f, so it runs unconverted: source changed "
                    "on disk since import"]


def test_source_of_unedited_function_still_converts_after_unrelated_edit(tmp_path):
    m = load(tmp_path, "def f(x):\n    if x > 0:\n        x = x * 2\n    return x\n")
    with open(m.__file__, "w") as fh:       # same code, a comment and blank lines added
        fh.write("def f(x):\n    # doubled\n\n    if x > 0:\n        x = x * 2\n    return x\n")
    import linecache
    linecache.checkcache()
    assert autograph.to_graph(m.f)(3) == m.f(3) == 6


# --- builtins and C functions --------------------------------------------------------

@pytest.mark.parametrize("fn", [len, abs, max, math.sqrt, np.negative, np.add])
def test_to_code_of_builtin_or_c_function_is_a_clear_error(fn):
    with pytest.raises(ConversionError, match="not a Python function"):
        outcome(lambda: autograph.to_code(fn))


@pytest.mark.parametrize("fn, arg, expected", [
    (abs, -3, 3),
    (len, [1, 2, 3], 3),
    (tf.negative, 4, -4),
    (tf.reduce_sum, [1, 2, 3], 6),
])
def test_function_of_builtin_runs_it(fn, arg, expected):
    assert value(tf.function(fn)(c(arg))) == expected
    assert autograph.to_graph(fn)(arg if fn is not tf.reduce_sum else c(arg)) is not None


def test_function_of_c_function_on_symbolic_tensor_is_a_clear_error():
    with pytest.raises(TypeError, match="symbolic tf.Tensor"):
        outcome(lambda: tf.function(math.sqrt)(c(4.0)))


def test_function_of_numpy_ufunc_is_a_clear_error():
    with pytest.raises(TypeError, match="symbolic tf.Tensor") as info:
        tf.function(np.negative)(c(4))
    assert "Use tf.math.negative instead" in str(info.value)
    assert "tf.numpy_function(np.negative, [x], " in str(info.value)


def test_function_of_numpy_ufunc_traces_its_inputs_only():
    add = tf.function(np.add)
    assert value(add(4, 3)) == 7              # Python values: numpy runs at trace time
    assert add.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError, match=r"function\(np.add\): .*\[x1, x2\]"):
        add(c(4), c(3))
    tf.config.run_functions_eagerly(True)
    try:
        assert value(add(c(4), c(3))) == 7
    finally:
        tf.config.run_functions_eagerly(False)


def test_builtins_called_from_converted_code(tmp_path):
    m = load(tmp_path, """
        import math
        def f(v, x):
            n = len(v)
            if x > 0:
                x = abs(x - 10) + n + int(math.sqrt(16))
            return x
        """)
    assert autograph.to_graph(m.f)([1, 2, 3], 4) == m.f([1, 2, 3], 4) == 13
    assert value(tf.function(m.f)(c([1, 2, 3]), c(4))) == 13


# --- the CLI ----------------------------------------------------------------------------

CLI_MODULE = """\
import contextlib
import functools

counter = 0

def gen(x):
    yield x

async def coro(x):
    return x

def uses_global(x):
    global counter
    if x > 0:
        counter = counter + 1
    return x

def try_finally(x):
    try:
        if x > 0:
            return x * 2
    finally:
        x = x + 1
    return x

def with_block(x):
    with contextlib.nullcontext():
        if x > 0:
            x = x * 2
    return x

def star(x, *args, k=1, **kw):
    if x > 0:
        x = x + k
    for a in args:
        x = x + a
    return x

""" + FACT + "\n" + DOUBLED + """
class Step:
    def __call__(self, x):
        if x > 0:
            x = x - 1
        return x

def ünïcödé(ẋ):
    if ẋ > 0:
        ẋ = ẋ * 2
    return ẋ

def flat(x):
    return x + 1
"""


def _cli(*args):
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "autograph", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=120)


def test_cli_check_reports_each_hostile_function(tmp_path):
    path = tmp_path / "hostile_cli.py"
    path.write_text(CLI_MODULE, encoding="utf-8")
    proc = _cli("check", str(path))
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    status = {}
    for line in proc.stdout.splitlines():
        _, _, rest = line.partition(f"{path}:")
        name, _, what = rest.partition(": ")[2].partition(": ")
        status[name] = what
    assert status["gen"].startswith("not convertible: generators (yield)")
    assert status["coro"].startswith("not convertible: async functions")
    for name in ["uses_global", "try_finally", "with_block", "star", "fact", "doubled", "Step.__call__", "ünïcödé"]:
        assert status[name] == "converted", (name, proc.stdout)
    assert status["flat"] == "unchanged (no control flow)"


def test_cli_convert_output_runs_like_the_original(tmp_path):
    path = tmp_path / "hostile_cli.py"
    path.write_text(CLI_MODULE, encoding="utf-8")
    out = tmp_path / "hostile_cli_ag.py"
    proc = _cli("convert", str(path), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    warned = [ln for ln in proc.stderr.splitlines() if "kept as is" in ln]
    assert [ln.split(": ")[3].split()[0] for ln in warned] == [
        "gen", "coro"]
    original = load(tmp_path, CLI_MODULE, "orig")
    converted = load(tmp_path, out.read_text(encoding="utf-8"), "conv")
    for name, args in [("with_block", (3,)), ("star", (1, 2, 3)), ("fact", (5,)),
                       ("doubled", (3,)), ("ünïcödé", (4,)), ("try_finally", (3,)), ("uses_global", (3,)),
                       ("flat", (1,))]:
        assert getattr(converted, name)(*args) == getattr(original, name)(*args), name
    assert converted.Step()(5) == original.Step()(5) == 4
    assert list(converted.gen(3)) == [3]


def test_cli_converts_a_long_expression(tmp_path):
    path = tmp_path / "long_expr.py"
    path.write_text("def e(x):\n    if x > 0:\n        x = " + " + ".join(["x"] * 1000)
                    + "\n    return x\n", encoding="utf-8")
    proc = _cli("check", str(path))
    assert proc.returncode == 0 and ": e: converted" in proc.stdout, proc.stdout


def test_cli_long_expression_converts_and_runs(tmp_path):
    source = ("def e(x):\n    if x > 0:\n        x = " + " + ".join(["x"] * 1000)
              + "\n    return x\n")
    path = tmp_path / "long_expr.py"
    path.write_text(source, encoding="utf-8")
    proc = _cli("convert", str(path))
    assert proc.returncode == 0
    assert "Traceback" not in proc.stderr
    assert "@autograph.do_not_convert\ndef e(x):" in proc.stdout
    converted = load(tmp_path, proc.stdout, "long_conv")
    assert converted.e(2) == 2000 and converted.e(-1) == -1


@pytest.mark.parametrize("command", ["check", "convert"])
def test_cli_expression_too_deep_for_python_is_a_clear_error(tmp_path, command):
    """5,000 chained terms: Python itself cannot compile the file (RecursionError);
    the CLI says so on one line, exit status 2, as for any unparsable file."""
    path = tmp_path / "too_deep.py"
    path.write_text("def f(x):\n    return " + " + ".join(["x"] * 5000) + "\n",
                    encoding="utf-8")
    proc = _cli(command, str(path), "-o", str(tmp_path / "out.py")) if command == "convert" \
        else _cli(command, str(path))
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(f"autograph: error: {path}: cannot parse: an expression or "
                                  "block is nested too deeply for Python's parser "
                                  "(RecursionError: maximum recursion depth exceeded")
    assert proc.stderr.count("\n") == 1 and proc.stdout == ""
    assert not (tmp_path / "out.py").exists()


def test_cli_depth_30_and_5000_lines(tmp_path):
    deep = ["def deep(x):", "    y = 0"]
    deep += ["    " * (d + 1) + f"if x > {d}:" for d in range(30)]
    deep += ["    " * 31 + "y = x * 2", "    return y", ""]
    long = ["def long(x):"] + [f"    x = x + {i % 3}" if i % 100 else f"    if x > {i}:\n"
                                f"        x = x - 1" for i in range(5000)] + ["    return x", ""]
    path = tmp_path / "big.py"
    path.write_text("\n".join(deep + long), encoding="utf-8")
    out = tmp_path / "big_ag.py"
    proc = _cli("convert", str(path), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    original = load(tmp_path, path.read_text(encoding="utf-8"), "big")
    converted = load(tmp_path, out.read_text(encoding="utf-8"), "big_ag")
    for x in (40, 5, 0):
        assert converted.deep(x) == original.deep(x)
        assert converted.long(x) == original.long(x)


# --- more syntax: each converts and agrees with Python ------------------------------------

MORE_SYNTAX = {
    "walrus": "def f(x):\n    if (y := x * 2) > 3:\n        x = y\n    return x\n",
    "comprehension": ("def f(x):\n    ys = [i * 2 for i in range(3)]\n    if x > 0:\n"
                      "        x = x + ys[1]\n    return x\n"),
    "del": "def f(x):\n    y = x\n    del y\n    if x > 0:\n        x = x + 1\n    return x\n",
    "for/else": ("def f(x):\n    for i in range(3):\n        if x > 100:\n            break\n"
                 "    else:\n        x = x + 7\n    return x\n"),
    "while/else": ("def f(x):\n    i = 0\n    while i < 3:\n        i = i + 1\n    else:\n"
                   "        x = x + 1\n    return x\n"),
    "f-string": "def f(x):\n    s = f'{1}'\n    if x > 0:\n        x = x + len(s)\n    return x\n",
    "lambda inside": ("def f(x):\n    g = lambda z: z + 1\n    if x > 0:\n        x = g(x)\n"
                      "    return x\n"),
    "nested def with return": ("def f(x):\n    def inner(y):\n        if y > 0:\n"
                               "            return y * 2\n        return y\n"
                               "    return inner(x) + 1\n"),
    "augmented assignment": "def f(x):\n    if x > 0:\n        x += 5\n    x -= 1\n    return x\n",
    "tuple swap": ("def f(x):\n    a, b = x, x + 1\n    if a > 0:\n        a, b = b, a\n"
                   "    return a - b\n"),
    "staticmethod": ("class K:\n    @staticmethod\n    def g(x):\n        if x > 0:\n"
                     "            x = x + 1\n        return x\nf = K.g\n"),
    "classmethod": ("class K:\n    @classmethod\n    def g(cls, x):\n        if x > 0:\n"
                    "            x = x + 2\n        return x\nf = K.g\n"),
    "bound method": ("class K:\n    def g(self, x):\n        if x > 0:\n            x = x + 3\n"
                     "        return x\nf = K().g\n"),
    "lambda": "f = lambda x: x + 1 if x > 0 else x - 1\n",
}


@pytest.mark.parametrize("label", list(MORE_SYNTAX))
@pytest.mark.parametrize("arg", [1, -2])
def test_more_syntax_converts_and_agrees(tmp_path, label, arg):
    f = load(tmp_path, MORE_SYNTAX[label]).f
    compile(outcome(lambda: autograph.to_code(f)), "<to_code>", "exec")
    expected = f(arg)
    assert outcome(lambda: autograph.to_graph(f)(arg)) == expected
    assert value(outcome(lambda: tf.function(f)(c(arg)))) == expected


def test_match_statement_with_control_flow_converts(tmp_path):
    """`match` dispatches in Python (TensorFlow does not convert it either):
    returns inside its cases convert; a tensor subject is a clear TypeError
    naming the line and the fix."""
    m = load(tmp_path, "def f(x):\n    match x:\n        case 1:\n            return 10\n"
             "        case _:\n            return 20\n")
    assert [autograph.to_graph(m.f)(x) for x in (1, 2)] == [m.f(1), m.f(2)] == [10, 20]
    with pytest.raises(TypeError, match="compares its subject in Python") as info:
        outcome(lambda: tf.function(m.f)(c(1)))
    assert f"{m.__file__}:2" in str(info.value) and "if/elif" in str(info.value)


def test_raise_in_a_tensor_branch_raises_while_tracing(tmp_path):
    """Both branches of a tensor `if` are traced, so a `raise` in one runs at
    trace time, as in TensorFlow; the error names the user's line."""
    m = load(tmp_path, "def f(x):\n    if x > 100:\n        raise ValueError('too big')\n"
             "    return x\n")
    assert autograph.to_graph(m.f)(1) == 1
    with pytest.raises(ValueError, match="too big") as info:
        tf.function(m.f)(c(1))
    assert f"{m.__file__}\", line 3" in "\n".join(getattr(info.value, "__notes__", []))
