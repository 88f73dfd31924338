"""The public names no other test covered (tools/name_tests.py), against
TensorFlow 2.21's recorded results (tests/data/name_audit_tf221.json, written
by tools/record_name_audit.py, whose table and `run` define each case):
tf.errors's codes and classes, tf.data.experimental's constants, options and
transformations, tf.config's device records and switches,
tf.experimental.numpy's NumPy types, RowPartition and DynamicRaggedShape,
tf.summary's writers and switches, tf.test's helpers, checkpoint and load
options, tf.image.ResizeMethod and random_saturation, and more; eagerly, and
inside `tf.function` where a case's key says so."""

import importlib.util
import json
import math
import sys

import numpy as np
import pytest

import runtime as tf
from tests.paths import DATA as TEST_DATA, TOOLS

sys.path.insert(0, str(TOOLS))
import record_name_audit as table  # noqa: E402 (the recorder defines how a case runs)

sys.path.remove(str(TOOLS))

RECORD = json.loads((TEST_DATA / "name_audit_tf221.json").read_text())["records"]
IDS = sorted(RECORD)
HAVE_TENSORBOARD = importlib.util.find_spec("tensorboard") is not None
# Differences kept on purpose (docs/tf_differences.md), expected to fail (strict).
KNOWN = {
    "test: tf.test.is_built_with_xla()|eager": "is_built_with_xla() is False",
    "test: str(tf.test.benchmark_config()).split()|eager": "benchmark_config() is a dict",
    "test: type(tf.test.benchmark_config()).__name__|eager": "benchmark_config() is a dict",
    "test: tf.test.is_cpu_target_available('nonsense')|eager":
        "is_cpu_target_available of an unknown target is False",
}


def _same(got, want, where="result"):
    """`got` is `want` (plain forms), floats within float32's tolerance."""
    if isinstance(want, float) and isinstance(got, (int, float)) and not isinstance(got, bool):
        assert math.isclose(got, want, rel_tol=2e-6, abs_tol=1e-6), (where, got, want)
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), (where, got, want)
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]")
    elif isinstance(want, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(want), (where, got, want)
        for k in want:
            _same(got[k], want[k], f"{where}.{k}")
    else:
        assert got == want and type(got) is type(want), (where, got, want)


@pytest.fixture
def global_state():
    generator = tf.random.get_global_generator()
    yield
    tf.random.set_global_generator(generator)
    tf.config.set_soft_device_placement(True)


@pytest.mark.parametrize("record", [
    pytest.param(r, marks=pytest.mark.xfail(strict=True, reason=KNOWN[r])) if r in KNOWN else r
    for r in IDS])
def test_name_behaves_as_tfs(record, tmp_path, global_state):
    key, mode = record.rsplit("|", 1)
    if ("tensorboard" in key or "create_file_writer" in key) and not HAVE_TENSORBOARD:
        pytest.skip("event files need the tensorboard package (an optional extra)")
    got = table.run(tf, key, mode, tmp_path)
    want = RECORD[record]
    if isinstance(got, dict) and "error" in got and not (isinstance(want, dict)
                                                          and "error" in want):
        table.run(tf, key, mode, tmp_path, reraise=True)     # the error itself, to read
    _same(got, want)


def test_every_case_is_recorded():
    recorded = {r.rsplit("|", 1)[0] for r in RECORD}
    assert recorded == set(table.keys())


def test_conv2d_backprop_input_v2_is_the_conv2d_input_gradient():
    # TF 2.21 has no CPU kernel for it (docs/tf_differences.md); its value is
    # TF's conv2d_transpose of the same out_backprop and filter, recorded.
    want = next(v for k, v in RECORD.items() if "conv2d_transpose" in k)
    out_backprop = tf.reshape(tf.range(1.0, 9.0), [1, 2, 2, 2])
    kernel = tf.reshape(tf.range(1.0, 13.0), [2, 1, 3, 2])
    for fn in (tf.conv2d_backprop_input_v2, tf.function(tf.conv2d_backprop_input_v2)):
        got = fn(tf.zeros([1, 3, 2, 3]), kernel, out_backprop, strides=[1, 1, 1, 1],
                 padding="VALID")
        np.testing.assert_allclose(got.numpy().ravel(), want["values"], rtol=1e-6)
        assert got.shape == tuple(want["shape"])
