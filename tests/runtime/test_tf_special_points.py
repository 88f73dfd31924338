"""TensorFlow 2.21's values and gradients at special points (0 and +-1, ties,
bounds, saturation, zero vectors, empty segments, -inf ...), recorded by
`tools/tf_diff.py --special [--section S] --record` in
tests/data/tf_special_points/*.json, replayed on our runtime eagerly and
inside `tf.function` (no TensorFlow here). The format is in
tools/tf_special.py's docstring; each JSON names the table module that holds
its cases: ops.json tools/tf_special.py (every op with a gradient rule),
keras.json tools/tf_special_keras.py (every Keras loss, activation and
weighted layer), and a new section plugs in by adding its file and its
module."""

import importlib
import json
import os
import re
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
            for mode in SPECIAL.modes(table.CASES[entry["key"]]):
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
    assert {"ops.json", "keras.json"} <= set(DOCS)
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


@pytest.mark.parametrize("name", sorted(DOCS))
def test_recording_is_current_with_the_case_table(name):
    recorded = {entry["id"] for entry in DOCS[name]["records"]}
    wanted = {rid for rid, _, _, _ in SPECIAL.records(table=_table(DOCS[name]))}
    assert recorded == wanted, (f"rerun tools/tf_diff.py --special --section "
                                f"{name[:-len('.json')]} --record", sorted(wanted ^ recorded)[:5])


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


def _traced(case):
    """`tf.function` of a case's function (a `build` case built first)."""
    if case.build:
        return tf.function(case.fn(tf)[0])
    return tf.function(lambda *t, fn=case.fn: fn(tf, *t))


def test_every_op_with_a_gradient_rule_has_a_special_point_or_a_reason():
    """Each op type of the gradient registry appears in some case's traced graph,
    of any section (its rule is what the gradient of that case runs), or is in
    tools/tf_special.py's EXEMPT."""
    seen = set()
    cases = [case for name in sorted(DOCS) for case in _table(DOCS[name]).CASES.values()]
    for case in cases:
        for dtype in case.dtypes:     # (nn.lrn refuses float64, as TF)
            inputs = [tf.constant(v) for v in case.inputs_as(dtype)]
            fn = _traced(case)
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
    assert not missing, ", ".join(missing)
    assert not set(SPECIAL.EXEMPT) & seen, sorted(set(SPECIAL.EXEMPT) & seen)
    assert len(rules & seen) >= 150


def _keras_names():
    """("losses.X", object) for each public loss and activation, and each layer class."""
    for ns in ("losses", "activations", "layers"):
        module = getattr(tf.keras, ns)
        for name in sorted(n for n in vars(module) if not n.startswith("_")):
            obj = getattr(module, name)
            if ns != "layers" or (isinstance(obj, type) and issubclass(obj, tf.keras.layers.Layer)):
                yield f"{ns}.{name}", obj


def _keras_case_objects(keys):
    """The objects the case keys name first ("activations.relu,float64",
    "BinaryCrossentropy(from_logits)@0", "mae@tie", "Dense(zeros)")."""
    objects = []
    for key in keys:
        lead = re.match(r"(activations\.)?(\w+)", key)
        spaces = ("activations",) if lead.group(1) else ("losses", "layers")
        objects += [getattr(getattr(tf.keras, ns), lead.group(2)) for ns in spaces
                    if hasattr(getattr(tf.keras, ns), lead.group(2))]
    return objects


def test_every_keras_loss_activation_and_layer_has_a_special_point_or_a_reason():
    """Each loss (class and function, aliases by identity), activation and layer
    class of runtime.keras leads some case's key in tools/tf_special_keras.py,
    or is in its EXEMPT with the reason."""
    keras = _table({"module": "tf_special_keras"})
    objects = _keras_case_objects(keras.CASES)
    names = dict(_keras_names())
    covered = {name for name, obj in names.items() if any(obj is o for o in objects)}
    missing = sorted(set(names) - covered - set(keras.EXEMPT))
    assert not missing, missing
    assert not set(keras.EXEMPT) & covered, sorted(set(keras.EXEMPT) & covered)
    assert set(keras.EXEMPT) <= set(names), sorted(set(keras.EXEMPT) - set(names))
    assert len(covered) >= 100 and len(keras.CASES) >= 202


def test_arrays_round_trip_through_the_json_encoding():
    x = np.array([[0.0, np.nan], [np.inf, -np.inf]], np.float32)
    back = SPECIAL.decode_array(json.loads(json.dumps(SPECIAL.encode_array(x))))
    assert back.dtype == np.float32 and back.shape == (2, 2)
    np.testing.assert_array_equal(back, x)
    scalar = SPECIAL.decode_array(SPECIAL.encode_array(np.float64(-0.5)))
    assert scalar.shape == () and scalar == -0.5
    ids = SPECIAL.decode_array(SPECIAL.encode_array(np.array([2, -1], np.int32)))
    assert ids.dtype == np.int32 and ids.tolist() == [2, -1]
