"""tools/tf_diff.py's recipe table, checked with our runtime only (the
comparison itself needs TensorFlow and is a developer tool, never run here)."""

import os
import subprocess
import sys

import numpy as np
import pytest

import runtime as tf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL_PATH = os.path.join(ROOT, "tools", "tf_diff.py")
sys.path.insert(0, os.path.dirname(TOOL_PATH))
TOOL = __import__("tf_diff")
sys.path.remove(os.path.dirname(TOOL_PATH))


def _our_names():
    api = TOOL._load_api_listing()
    return {(label[len("tf."):] + "." if label != "tf" else "") + name
            for label, module in api.namespaces(tf) if label in TOOL.NAMESPACES
            for name in api.public_names(module)}


def test_every_recipe_names_an_op_in_our_namespaces():
    names = _our_names()
    leaves = {n.rsplit(".", 1)[-1] for n in names}
    missing = [key for key in TOOL.RECIPES
               if (key not in names if "." in key else key not in leaves)]
    assert not missing, missing


def test_every_recipe_yields_cases_of_arguments():
    rng = np.random.RandomState(0)
    for key, rec in TOOL.RECIPES.items():
        assert rec.family and isinstance(rec.up_to_sign, bool), key
        cases = list(rec.cases(rng))
        assert cases, key
        for case in cases:
            assert isinstance(case, TOOL.Case) and case.label, key
            assert isinstance(case.args, tuple) and isinstance(case.kwargs, dict), key


def test_covered_resolves_each_name_to_our_op():
    found = TOOL.covered(tf)
    assert len(found) > 150
    for dotted, _ in found:
        assert callable(TOOL.resolve(tf, dotted)), dotted


def test_runs_our_side_of_a_case_eagerly_and_in_a_function():
    case = TOOL.Case("f32", np.array([1.0, 4.0], np.float32))
    for mode in ("eager", "function"):
        out = TOOL._call(tf, tf.sqrt, case, mode, "sqrt")
        assert out.error is None
        (value, dtype, shape), = out.leaves
        assert dtype == "float32" and shape == (2,)
        np.testing.assert_allclose(value, [1.0, 2.0])
    bad = TOOL._call(tf, tf.reshape, TOOL.Case("bad", np.zeros(3, np.float32), [2]),
                     "eager", "reshape")
    assert bad.error == "InvalidArgumentError"


def test_compare_reports_each_kind_of_difference():
    same = TOOL.Outcome([(np.array([1.0], np.float32), "float32", (1,))])
    assert TOOL._compare(same, same) is None
    other = TOOL.Outcome([(np.array([1.5], np.float32), "float32", (1,))])
    assert "value" in TOOL._compare(same, other)
    assert "dtype" in TOOL._compare(
        same, TOOL.Outcome([(np.array([1.0]), "float64", (1,))]))
    assert "TF raises ValueError" in TOOL._compare(same, TOOL.Outcome(error="ValueError"))


def test_help_works():
    result = subprocess.run([sys.executable, TOOL_PATH, "--help"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert "--ops" in result.stdout and "--seed" in result.stdout
    assert "--special" in result.stdout and "--record" in result.stdout


def test_full_comparison_needs_tensorflow():
    pytest.importorskip("tensorflow")
    assert TOOL.main(["--ops", "math.sin"]) in (0, 1)


def test_gradient_mode_runs_our_side_eagerly_and_in_a_function():
    x = np.array([0.5, 1.0, 2.0, -1.0], np.float64)
    case = TOOL.Case("f64", x)
    for mode in ("eager", "function", "taped"):     # taped: a traced sin under an eager tape
        out = TOOL._grad_call(tf, tf.sin, case, mode, "sin")
        assert out.error is None
        (value, dtype, shape), = out.leaves
        assert dtype == "float64" and shape == (4,)
        np.testing.assert_allclose(value, np.cos(x) * [1, 2, 3, 1])   # weights 1, 2, 3, 1, ...


def test_gradient_mode_reports_none_and_missing_rules():
    case = TOOL.Case("f32 pair", np.ones(3, np.float32), np.ones(3, np.float32))
    out = TOOL._grad_call(tf, lambda a, b: a * 2.0, case, "eager", "first")
    assert [leaf[1] for leaf in out.leaves] == ["float32", "None"]
    ints = TOOL.Case("i32", np.arange(3, dtype=np.int32))
    assert TOOL._grad_call(tf, tf.abs, ints, "eager", "abs") is None     # nothing to watch
    failing = TOOL._grad_call(tf, lambda a: tf.unique(a)[0],       # Unique has no rule, as in TF
                              TOOL.Case("f32", np.ones(2, np.float32)), "eager", "unique")
    assert failing.error == "LookupError"


def test_gradient_mode_takes_the_variables_after_the_inputs():
    v = tf.Variable([2.0, 0.0])
    ids = TOOL.Case("ids", np.array([1, 0, 1], np.int32))
    for mode in ("eager", "function"):       # an integer input: the variable's gradient only
        out = TOOL._grad_call(tf, lambda i: tf.gather(v, i), ids, mode, "gather", [v])
        (value, dtype, shape), = out.leaves
        assert dtype == "float32" and shape == (2,)
        np.testing.assert_allclose(value, [2.0, 4.0])       # weights 1, 2, 3 at ids 1, 0, 1
    x = TOOL.Case("x", np.array([3.0, 1.0], np.float32))
    out = TOOL._grad_call(tf, lambda t: t * v, x, "eager", "mul", [v])
    np.testing.assert_allclose([leaf[0] for leaf in out.leaves], [[2.0, 0.0], [3.0, 2.0]])


def test_compare_takes_another_dtypes_tolerance():
    a = TOOL.Outcome([(np.array([1.0]), "float64", (1,))])
    b = TOOL.Outcome([(np.array([1.0 + 1e-7]), "float64", (1,))])
    assert "value" in TOOL._compare(a, b)                    # float64: rtol 1e-10
    assert TOOL._compare(a, b, tolerance="float32") is None  # computed in float32


def test_print_probes_run_on_our_side():
    sys.path.insert(0, os.path.dirname(TOOL_PATH))
    prints = __import__("tf_diff_prints")
    sys.path.remove(os.path.dirname(TOOL_PATH))
    assert len(prints.PROBES) >= 10
    for label, (fn, prefix) in prints.PROBES.items():
        outcome = prints._outcome(fn, tf, prefix)
        if outcome[0] == "text":
            assert isinstance(outcome[1], str) and outcome[1], label
        else:
            assert outcome[2], (label, outcome)      # our text has the probe's words
    # the comparison itself: text differs, error class differs, a subclass is fine
    assert prints._differ(("text", "a 0x1F"), ("text", "b 0x2A"))
    assert not prints._differ(("text", "a 0x1F"), ("text", "a 0x2A"))
    assert prints._differ(("error", ["ValueError", "Exception"], True),
                          ("error", ["TypeError", "Exception"], True))
    assert not prints._differ(("error", ["Sub", "TypeError"], True),
                              ("error", ["TypeError", "Exception"], True))
