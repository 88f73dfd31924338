"""keras.tree against Keras 3.15 (on optree): each case's repr, or its
exception and message, recorded by tools/record_keras_misc.py into
tests/data/keras_misc.json ("tree")."""

import json
import pathlib
import sys

import pytest

import runtime as tf

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
from record_keras_misc import TREE_CASES, tree_outcome  # noqa: E402

REC = json.loads((pathlib.Path(__file__).parent.parent / "data" / "keras_misc.json")
                 .read_text())["tree"]
# Keras's module path in the class repr of MAP_TO_NONE differs; the object is the same kind
_RENAMES = {"keras.src.tree.tree_api.": "runtime._src.keras.tree.tree_api."}


@pytest.mark.parametrize("case", TREE_CASES)
def test_tree_case_as_keras(case):
    expected = REC[case]
    for old, new in _RENAMES.items():
        expected = expected.replace(old, new) if isinstance(expected, str) else expected
    assert tree_outcome(tf.keras.tree, case) == expected


def test_map_structure_on_tensors_in_function():
    @tf.function
    def run(d):
        return tf.keras.tree.map_structure(lambda t: t * 2.0, d)
    out = run({"b": tf.constant([1.0]), "a": (tf.constant(2.0),)})
    assert out["a"][0].numpy() == 4.0 and out["b"].numpy().tolist() == [2.0]
