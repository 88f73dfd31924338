"""tf.saved_model.experimental.Fingerprint and
tf.saved_model.experimental.read_fingerprint against TF 2.21's recorded
results (tools/record_fingerprint.py wrote tests/data/fingerprint_tf221.json
and fixtures/tf221_fingerprint.pb, the fingerprint.pb of a SavedModel TF
saved): its five hashes and producer, repr, str, singleprint, equality, and
the errors for a missing or damaged fingerprint.pb; our own SavedModels get a
fingerprint.pb of the same layout (hashes of our format's parts)."""

import json
import os
import shutil

import numpy as np
import pytest

import runtime as tf
from tools.record_fingerprint import run_cases

HERE = os.path.dirname(__file__)
DATA = os.path.join(HERE, "..", "..", "data", "fingerprint_tf221.json")
FIXTURE = os.path.join(HERE, "fixtures", "tf221_fingerprint.pb")


def _recorded():
    with open(DATA) as f:
        return json.load(f)["cases"]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    directory = str(tmp_path_factory.mktemp("fingerprint"))
    shutil.copy(FIXTURE, os.path.join(directory, "fingerprint.pb"))
    return _recorded(), run_cases(tf, directory)


@pytest.mark.parametrize("case", sorted(_recorded()))
def test_reads_tensorflows_fingerprint(results, case):
    recorded, ours = results
    assert ours[case] == recorded[case]


def _save(directory, scale):
    m = tf.Module()
    m.v = tf.Variable(np.array([1.0, 2.0], np.float32) * scale)
    m.f = tf.function(lambda x: x * m.v, input_signature=[tf.TensorSpec([2])])
    tf.saved_model.save(m, directory)
    return tf.saved_model.experimental.read_fingerprint(directory)


def test_our_saved_model_has_a_fingerprint(tmp_path):
    first = _save(str(tmp_path / "a"), 1.0)
    again = _save(str(tmp_path / "b"), 1.0)
    other = _save(str(tmp_path / "c"), 2.0)
    assert first.version.producer == 1
    assert all(isinstance(h, int) and 0 <= h < 1 << 64 for h in
               (first.saved_model_checksum, first.checkpoint_hash))
    assert first.singleprint() == again.singleprint()      # the same model, the same print
    assert first.graph_def_program_hash == other.graph_def_program_hash
    assert first.checkpoint_hash != other.checkpoint_hash  # other values
    assert len(first.singleprint().split("/")) == 4
    loaded = tf.saved_model.load(str(tmp_path / "a"))
    assert loaded.f(tf.constant([3.0, 4.0])).numpy().tolist() == [3.0, 8.0]
