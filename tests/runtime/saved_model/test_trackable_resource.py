"""tf.saved_model.experimental.TrackableResource against TF 2.21's recorded
results (tools/record_trackable_resource.py wrote
tests/data/trackable_resource_tf221.json): `_create_resource` runs once, on
first use of `resource_handle`; the tensor works eagerly and inside a
tf.function; `_destroy_resource` runs on deletion, used or not; a Module
tracks the resource (TrackableView, CheckpointView) and a saved function
that uses its tensor loads and runs; TF's errors."""

import json
import os

import pytest

import runtime as tf
from tools.record_trackable_resource import run_cases

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data", "trackable_resource_tf221.json")


def _recorded():
    with open(DATA) as f:
        return json.load(f)["cases"]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return _recorded(), run_cases(tf, str(tmp_path_factory.mktemp("resource")))


@pytest.mark.parametrize("case", sorted(_recorded()))
def test_matches_tensorflow(results, case):
    recorded, ours = results
    assert ours[case] == recorded[case]


def test_first_use_inside_a_function_makes_an_eager_tensor():
    made = []

    class Table(tf.saved_model.experimental.TrackableResource):
        def _create_resource(self):
            made.append(1)
            return tf.constant([3, 4])

    table = Table()

    @tf.function
    def lookup(i):
        return tf.gather(table.resource_handle, i)

    assert lookup(tf.constant(1)).numpy() == 4 and lookup(tf.constant(0)).numpy() == 3
    assert made == [1] and table.resource_handle.numpy().tolist() == [3, 4]
