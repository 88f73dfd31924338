"""The README's coverage table comes from TF's recorded names
(tests/data/public_names.json) and what `runtime` resolves."""

import importlib.util
import json
import os
import types

import runtime as tf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _tool():
    spec = importlib.util.spec_from_file_location(
        "api_coverage", os.path.join(ROOT, "tools", "api_coverage.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _recorded():
    with open(os.path.join(ROOT, "tests", "data", "public_names.json")) as f:
        return json.load(f)


def test_readme_table_is_current():
    tool = _tool()
    rows = tool.coverage(_recorded(), {"tf": tf, "keras": tf.keras})
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    block = tool.table(rows, _recorded())
    assert tool.replace_block(text, block, tool.BEGIN, tool.END) == text, (
        "README.md's coverage table is stale: run python3 tools/api_coverage.py --write")


def test_record_holds_the_namespaces_users_reach_and_not_the_skipped_ones():
    names = _recorded()["names"]
    assert "matmul" in names["tf"] and "relu" in names["tf.nn"]
    assert "Dense" in names["keras.layers"]
    assert not any(label.startswith(("tf.compat", "tf.raw_ops", "keras.applications"))
                   for label in names)


def test_coverage_counts_resolved_names_and_lists_the_missing():
    tool = _tool()
    fake = types.SimpleNamespace(matmul=1, nn=types.SimpleNamespace(relu=2))
    recorded = {"names": {"tf": ["matmul", "zeros"], "tf.nn": ["relu"],
                          "tf.signal": ["fft"]}}
    rows = tool.coverage(recorded, {"tf": fake})
    assert rows == [("tf", 2, 1, ["zeros"]), ("tf.nn", 1, 1, []),
                    ("tf.signal", 1, 0, ["fft"])]
    table = tool.table(rows, {"tensorflow": "2.21.0", "keras": "3.15.1"})
    assert "| **tf, all** | **4** | **2** | **50%** |" in table
    assert "| `tf.signal` | 1 | 0 | 0% |" in table
