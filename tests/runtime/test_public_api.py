"""`dir(runtime)` is TensorFlow's public names plus the documented extras
(`visualize`; `check_equivalence` lives under `debugging`): no engine module
(`codegen`, `executor`, `op_registry`, `_src`, ...)."""

import json
import pathlib

import runtime as tf

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Beyond TF 2.21's top level: the graph picture (README, "Graphs are data");
# `types` and `distribute` (TF namespaces the record leaves out); `Function`/`ConcreteFunction`
# (TF's are under tf.types.experimental) and `floordiv` (TF's is tf.math's).
EXTRAS = {"visualize", "types", "distribute", "Function", "ConcreteFunction", "floordiv"}


def _tf_names():
    """TF 2.21's top-level names and namespaces (tools/api_coverage.py --record)."""
    recorded = json.loads((ROOT / "tests" / "data" / "public_names.json").read_text())
    names = set(recorded["names"]["tf"])
    names |= {label.split(".")[1] for label in recorded["names"] if label.count(".") >= 1}
    return names | {"keras"}


PUBLIC = sorted(tf.__all__)


def test_dir_runtime_is_the_public_list():
    assert [n for n in dir(tf) if not n.startswith("__")] == PUBLIC
    assert len(set(tf.__all__)) == len(tf.__all__)


def test_every_public_name_is_tensorflows_or_a_documented_extra():
    foreign = set(PUBLIC) - _tf_names() - EXTRAS
    assert not foreign, f"not TensorFlow 2.21 names: {sorted(foreign)}"
    for name in ("matmul", "function", "GradientTape", "nn", "lookup", "keras"):
        assert name in PUBLIC


def test_every_listed_name_resolves():
    for name in PUBLIC:
        assert getattr(tf, name) is not None or name == "newaxis", name
    assert tf.newaxis is None


def test_documented_extras_are_reachable():
    assert callable(tf.debugging.check_equivalence)
    assert issubclass(tf.debugging.EquivalenceError, AssertionError)
    assert callable(tf.config.experimental_check_equivalence)
    assert callable(tf.visualize)
    assert tf.linalg.matmul is tf.matmul
    assert tf.linalg.einsum is tf.einsum and tf.linalg.tensordot is tf.tensordot
    assert callable(tf.saved_model.save) and callable(tf.saved_model.load)


def test_namespaces_hide_engine_modules():
    for module in (tf.math, tf.nn, tf.debugging, tf.config, tf.saved_model, tf.nest, tf.strings,
                   tf.lookup, tf.signal):
        leaked = {"ops", "graph", "tensor", "executor", "codegen", "op_registry", "_src"}
        assert not leaked & set(dir(module)), module.__name__
