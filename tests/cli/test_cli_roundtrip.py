"""Convert real modules with the CLI (as a subprocess), import the output, and
check it behaves exactly like the original: same results, same types, same
exceptions, same printed output.
"""

import glob
import os
import re
import warnings

import pytest

import autograph

from conftest import MODULES, ROOT, import_file, run_cli
from tests import fresh_process


# (module, expression evaluated in the module's namespace)
CASES = [
    ("numeric_loops", "collatz_steps(27)"),
    ("numeric_loops", "collatz_steps(1)"),
    ("numeric_loops", "gcd(1071, 462)"),
    ("numeric_loops", "gcd(0, 5)"),
    ("numeric_loops", "[is_prime(n) for n in range(-1, 30)]"),
    ("numeric_loops", "sum_of_odd_squares(10)"),
    ("numeric_loops", "sum_of_odd_squares(0)"),
    ("numeric_loops", "first_index_above([1, 5, 9, 12], 8)"),
    ("numeric_loops", "first_index_above([], 8)"),
    ("numeric_loops", "[fibonacci(n) for n in range(12)]"),
    ("numeric_loops", "newton_sqrt(2.0)"),
    ("numeric_loops", "newton_sqrt(0)"),
    ("numeric_loops", "newton_sqrt(0.25, max_iter=3)"),
    ("numeric_loops", "clipped_sum([-5, 1, 2, 50], 0, 10)"),
    ("numeric_loops", "count_in_range([0, 1, 2, 3, 9, 10], 0, 9)"),
    ("numeric_loops", "digits_reversed(12034)"),
    ("numeric_loops", "mean([1, 2, 4])"),
    ("numeric_loops", "mean([])"),                       # ZeroDivisionError both ways
    ("numeric_loops", "gcd('a', 2)"),                    # TypeError both ways
    ("classes_methods", "Accumulator.from_list([5, 200, 7]).summary"),
    ("classes_methods", "Accumulator(0, 10).add(11)"),
    ("classes_methods", "[Accumulator.clamp(v, 0, 5) for v in (-1, 3, 9)]"),
    ("classes_methods", "Polynomial([1, 2, 3])(2)"),
    ("classes_methods", "Polynomial([1, 2, 0, 0]).degree()"),
    ("classes_methods", "Polynomial([0]).degree()"),
    ("classes_methods", "repr(Polynomial([1, 2, 3]).derivative())"),
    ("classes_methods", "BoundedAccumulator(10).add_all([4, 5, 6])"),
    ("classes_methods", "BoundedAccumulator(10).add_all([4, 5, 6]) and "
                        "BoundedAccumulator.from_list([4, 5, 6], 10).summary"),
    ("nested_functions", "make_scaler(3)([1, -2, 4])"),
    ("nested_functions", "apply_n_times(double, 1, 10)"),
    ("nested_functions", "apply_n_times(double, 1, 0)"),
    ("nested_functions", "polynomial_root([-2, 0, 1], 0, 2)"),
    ("nested_functions", "counter_totals([1, 0, 2, 3])"),
    ("nested_functions", "counter_totals([])"),
    ("nested_functions", "sort_by_distance([5, 1, 3, 4, 2], 3)"),
    ("nested_functions", "outer_sum([[1, -2, 3], [], [-1]])"),
    ("decorators", "(absolute(-3), absolute(4), list(CALL_LOG))"),
    ("decorators", "(absolute.__name__, absolute.__doc__)"),
    ("decorators", "[halve_if_even(n) for n in (8, 12, 7, 40)]"),
    ("decorators", "(step(4), step(9), step(12))"),
    ("decorators", "[partitions(n) for n in range(12)]"),
    ("module_level", "(lookup(3), lookup(9), MODE, TABLE)"),
    ("module_level", "below_limit(SQUARES)"),
    ("module_level", "describe()"),
    ("module_level", "main(['1', 'x', '4'])"),
]

CASE_MODULES = sorted({m for m, _ in CASES})


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def _import(path):
    return import_file(path, "_cli_roundtrip")


def _outcome(module, expr, capsys):
    try:
        value = eval(expr, vars(module))
        result = ("value", type(value), value)
    except Exception as e:  # noqa: BLE001 - the outcome compared
        result = ("raises", type(e))
    return result, capsys.readouterr().out


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    """{module name: (original module path, converted module path, CLI process)}."""
    out_dir = tmp_path_factory.mktemp("converted")
    result = {}
    for name in CASE_MODULES:
        src = os.path.join(MODULES, f"{name}.py")
        dst = str(out_dir / f"{name}_ag.py")
        result[name] = (src, dst, run_cli("convert", src, "-o", dst))
    return result


@pytest.mark.parametrize("name", CASE_MODULES)
def test_cli_converts_module_cleanly(converted, name):
    src, dst, proc = converted[name]
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    text = _read(dst)
    compile(text, dst, "exec")
    assert "import autograph" in text
    assert text != _read(src)


@pytest.mark.parametrize("name", CASE_MODULES)
def test_check_reports_every_function_converts(name):
    proc = run_cli("check", os.path.join(MODULES, f"{name}.py"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines and all(l.endswith((": converted", ": unchanged (no control flow)"))
                         for l in lines), proc.stdout
    assert any(l.endswith(": converted") for l in lines)


@pytest.mark.parametrize("name, expr", CASES)
def test_converted_module_behaves_like_original(converted, name, expr, capsys):
    src, dst, proc = converted[name]
    assert proc.returncode == 0, proc.stderr
    original = _import(src)
    result = _import(dst)
    capsys.readouterr()
    assert _outcome(result, expr, capsys) == _outcome(original, expr, capsys)


def test_lambda_without_source_runs_unconverted_with_one_warning(converted):
    # A lambda made by eval() has no source: the converted caller runs it as
    # written, with one warning naming it and the reason (twice called, once said).
    _, dst, _ = converted["nested_functions"]
    result = _import(dst)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert eval("apply_n_times(lambda v: v * 3, 1, 4)", vars(result)) == 81
    ours = [str(w.message) for w in caught if issubclass(w.category, autograph.AutoGraphWarning)]
    assert len(ours) == 1
    assert ours[0].startswith("autograph could not convert <lambda> (<string>:1), so it runs "
                              "unconverted: its source code is not available")


def test_method_with_multiline_string_keeps_its_text(tmp_path):
    src = tmp_path / "strings.py"
    src.write_text('class A:\n    def f(self, x):\n        s = """one\n    four\n'
                   '        eight"""\n        if x:\n            s = s.upper()\n'
                   '        return s\n', encoding="utf-8")
    dst = tmp_path / "strings_ag.py"
    proc = run_cli("convert", str(src), "-o", str(dst))
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    original, converted = _import(str(src)), _import(str(dst))
    assert "ag__.if_stmt" in _read(dst)
    for x in (0, 1):
        assert converted.A().f(x) == original.A().f(x)
    assert converted.A().f(0) == "one\n    four\n        eight"


def _run_script(path, *args):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return fresh_process.run([path, *args], capture_output=True, text=True,
                             env=env, timeout=120, cwd=os.path.dirname(path))


def test_main_block_runs_the_same(converted):
    src, dst, _ = converted["module_level"]
    before, after = _run_script(src, "2", "3", "zz"), _run_script(dst, "2", "3", "zz")
    assert before.returncode == after.returncode == 0, after.stderr
    assert after.stdout == before.stdout == "total 15\n[0, 1, 4, 9, 16, 25, 36, 49]\nlarge mode, 10 squares\n"


def test_converted_module_is_converted_again_identically(converted, tmp_path):
    # Converting the output again changes nothing but what is new: the CLI is
    # deterministic, and its output reads back as a valid module.
    src, dst, _ = converted["numeric_loops"]
    again = run_cli("convert", src)
    assert again.returncode == 0
    assert again.stdout == _read(dst)


_TIMING = re.compile(r"\d+(?:\.\d+)?(?:e-?\d+)?(?= ?(?:seconds|s|ms|us|µs)\b)")


def _without_timings(text):
    """Printed durations differ between any two runs; mask them."""
    return _TIMING.sub("<time>", text)


from tests.example_runs import script_args

EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.py")))


@pytest.mark.parametrize("path", EXAMPLES, ids=[os.path.basename(p) for p in EXAMPLES])
def test_examples_convert_and_run_the_same(path, tmp_path):
    dst = tmp_path / os.path.basename(path)
    proc = run_cli("convert", path, "-o", str(dst))
    assert proc.returncode == 0, proc.stderr
    args = script_args(os.path.splitext(os.path.basename(path))[0])
    before, after = _run_script(path, *args), _run_script(str(dst), *args)
    assert after.returncode == before.returncode, after.stderr
    assert _without_timings(after.stdout) == _without_timings(before.stdout)
