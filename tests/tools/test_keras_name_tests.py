"""The ratchet on Keras names without a test (tools/keras_name_tests.py): every
public Keras 3.15 name `runtime.keras` has is used by a test that checks
recorded values, or sits on tests/data/keras_untested_names.json, a list that
may only shrink."""

import importlib.util
import json
import os

import runtime as tf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _tool():
    spec = importlib.util.spec_from_file_location(
        "keras_name_tests", os.path.join(ROOT, "tools", "keras_name_tests.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_keras_name_is_untested_unless_listed():
    tool = _tool()
    untested = tool.untested(tf.keras)
    with open(tool.UNTESTED) as f:
        allowed = json.load(f)
    new = {label: sorted(set(names) - set(allowed.get(label, [])))
           for label, names in untested.items()}
    new = {label: names for label, names in new.items() if names}
    assert not new, (
        f"Keras names with no test against recorded values: {new}; add a test "
        "(tools/keras_name_tests.py lists what counts)")


def test_the_static_check_sees_dotted_imported_and_tabled_uses():
    tool = _tool()
    text = ("L = tf.keras.layers\nfrom runtime.keras.ops import nn\n"
            "CASES = [lambda K: K.Dense(2)]\ntf.keras.losses.mse(a, b)\nnn.relu(x)\n")
    imports, strings = tool._parse(text)
    aliases = tool._aliases(text, imports)
    assert aliases["L"] == "keras.layers" and aliases["nn"] == "keras.ops.nn"
    uses = tool._dotted_uses(text, aliases)
    assert {("*", "Dense"), ("keras.losses", "mse"), ("keras.ops.nn", "relu")} <= uses
    assert ("keras.ops", "relu") not in uses and not strings
