"""TensorFlow 2.21's values and gradients at special points (0 and +-1, ties,
bounds, saturation, zero vectors, empty segments, -inf ...), recorded by
`tools/tf_diff.py --special --record` in tests/data/tf_special_points/*.json,
replayed on our runtime eagerly and inside `tf.function` (no TensorFlow here).
The format and the case table are in tools/tf_special.py; each JSON names the
table module that holds its cases, so a section (ops.json, keras.json) plugs
in by adding its file and its module."""

import importlib
import json
import os
import sys
import warnings

import numpy as np
import pytest

import runtime as tf
from runtime._src.graph.op_registry import NOT_DIFFERENTIABLE, OPS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools")
DATA = os.path.join(ROOT, "tests", "data", "tf_special_points")
sys.path.insert(0, TOOLS)
TOOL = importlib.import_module("tf_diff")
SPECIAL = importlib.import_module("tf_special")
sys.path.remove(TOOLS)


def _documents():
    docs = {}
    for name in sorted(os.listdir(DATA)):
        if name.endswith(".json"):
            with open(os.path.join(DATA, name)) as f:
                doc = json.load(f)
            if "module" in doc:     # keras.json: tests/keras/test_special_points.py
                docs[name] = doc
    return docs


DOCS = _documents()


def _table(doc):
    sys.path.insert(0, TOOLS)
    try:
        return importlib.import_module(doc["module"])
    finally:
        sys.path.remove(TOOLS)


def _params():
    params = []
    for name, doc in DOCS.items():
        table = _table(doc)
        for entry in doc["records"]:
            for mode in ("eager", "function"):
                why = SPECIAL.known(entry["id"], mode, table.KNOWN)
                marks = pytest.mark.xfail(strict=True, reason=why) if why else ()
                params.append(pytest.param(name, entry, mode, marks=marks,
                                           id=f"{name}:{entry['id']}:{mode}"))
    return params


@pytest.mark.parametrize("name,entry,mode", _params())
def test_recorded_special_point_matches(name, entry, mode):
    table = _table(DOCS[name])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        diff = SPECIAL.compare(TOOL, tf, entry, mode, table)
    assert diff is None, f"{entry['id']} ({mode}): {diff}"


def test_each_document_has_the_format_and_its_table():
    assert "ops.json" in DOCS
    for name, doc in DOCS.items():
        assert doc["format"] == 1 and doc["source"].startswith("TensorFlow 2.21"), name
        table = _table(doc)
        ids = [entry["id"] for entry in doc["records"]]
        assert len(ids) == len(set(ids)), name
        for entry in doc["records"]:
            assert entry["key"] in table.CASES, (name, entry["key"])
            assert entry["id"] == f"{entry['key']}|{entry['dtype']}"
            assert "error" in entry["value"] or "leaves" in entry["value"]
        known_ids = {k.rsplit("@", 1)[0] if k.endswith(("@eager", "@function")) else k
                     for k in table.KNOWN}
        assert known_ids <= set(ids), (name, known_ids - set(ids))


def test_recording_is_current_with_the_case_table():
    recorded = {entry["id"] for entry in DOCS["ops.json"]["records"]}
    wanted = {rid for rid, _, _, _ in SPECIAL.records()}
    assert recorded == wanted, ("rerun tools/tf_diff.py --special --record",
                                sorted(wanted ^ recorded)[:5])


def test_known_differences_cite_their_line_in_tf_differences():
    with open(os.path.join(ROOT, "docs", "tf_differences.md")) as f:
        text = " ".join(f.read().split())
    for name, doc in DOCS.items():
        for rid, reason in _table(doc).KNOWN.items():
            where, words = reason.split(": ", 1)
            assert where == "docs/tf_differences.md" and words in text, (name, rid, words)


def _op_types(graph, seen):
    """The op types of `graph` and of the graphs its ops hold (loop and branch bodies)."""
    for op in graph.get_operations():
        seen.add(op.type)
        for value in getattr(op, "attrs", {}).values():
            if hasattr(value, "get_operations"):
                _op_types(value, seen)


def test_every_op_with_a_gradient_rule_has_a_special_point_or_a_reason():
    """Each op type of the gradient registry appears in some case's traced graph
    (its rule is what the gradient of that case runs), or is in EXEMPT."""
    seen = set()
    for key, case in SPECIAL.CASES.items():
        for dtype in ("float32", "float64"):     # (nn.lrn refuses float64, as TF)
            inputs = [tf.constant(v) for v in case.inputs_as(dtype)]
            fn = tf.function(lambda *t, fn=case.fn: fn(tf, *t))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    _op_types(fn.get_concrete_function(*inputs).graph, seen)
                except TypeError:
                    continue
            break
    rules = {name for name, op in OPS.items()       # not ops other tests register themselves
             if op.grad is not None and op.grad is not NOT_DIFFERENTIABLE
             and not str(getattr(op.kernel, "__module__", "")).startswith(("tests", "test_"))}
    missing = sorted(rules - seen - set(SPECIAL.EXEMPT))
    assert not missing, missing
    assert not set(SPECIAL.EXEMPT) & seen, sorted(set(SPECIAL.EXEMPT) & seen)
    assert len(rules & seen) >= 150


def test_arrays_round_trip_through_the_json_encoding():
    x = np.array([[0.0, np.nan], [np.inf, -np.inf]], np.float32)
    back = SPECIAL.decode_array(json.loads(json.dumps(SPECIAL.encode_array(x))))
    assert back.dtype == np.float32 and back.shape == (2, 2)
    np.testing.assert_array_equal(back, x)
    scalar = SPECIAL.decode_array(SPECIAL.encode_array(np.float64(-0.5)))
    assert scalar.shape == () and scalar == -0.5
    ids = SPECIAL.decode_array(SPECIAL.encode_array(np.array([2, -1], np.int32)))
    assert ids.dtype == np.int32 and ids.tolist() == [2, -1]
