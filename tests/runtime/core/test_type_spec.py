"""tf.TypeSpec and the specs over it (TensorSpec's TypeSpec methods,
NoneTensorSpec, IndexedSlices and IndexedSlicesSpec) against TensorFlow 2.21's
recorded results (tools/record_type_specs.py wrote tests/data/type_specs_tf221.json):
reprs, values, exceptions, and IndexedSlices through tf.function."""

import json
import os
import warnings

import pytest

import runtime as tf
from tools.record_type_specs import CASES, bindings, run_case

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data", "type_specs_tf221.json")
RECORDED = json.load(open(DATA))["cases"]


@pytest.mark.parametrize("expr", CASES)
def test_case_matches_tf(expr):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # lambdas given to tf.function have no source
        assert run_case(expr, bindings(tf)) == RECORDED[expr]


def test_every_case_is_recorded():
    assert sorted(RECORDED) == sorted(CASES)


def test_indexed_slices_trace_once_per_spec():
    traces = []

    @tf.function
    def dense(s):
        traces.append(s._type_spec)
        return tf.convert_to_tensor(s)

    env = bindings(tf)
    x = env["x"]
    other = tf.IndexedSlices(x.values * 3, tf.constant([0, 1]), x.dense_shape)
    assert dense(x).numpy().tolist() == [[0, 0], [0, 0], [4, 6]]
    assert dense(other).numpy().tolist() == [[3, 6], [9, 12], [0, 0]]
    assert len(traces) == 1         # one spec, one trace


def test_a_subclass_defines_the_protocol_and_gets_the_public_methods():
    class PairSpec(tf.TypeSpec):      # a spec written by a user, over two tensors
        value_type = tuple

        def __init__(self, shape):
            self.shape = tf.TensorShape(shape)

        def _serialize(self):
            return (self.shape,)

        @property
        def _component_specs(self):
            return (tf.TensorSpec(self.shape), tf.TensorSpec(self.shape))

        def _to_components(self, value):
            return list(value)

        def _from_components(self, components):
            return tuple(components)

    spec = PairSpec([2])
    assert spec.most_specific_common_supertype([PairSpec([3])]) == PairSpec([None])
    assert spec.is_subtype_of(PairSpec([None])) and not PairSpec([None]).is_subtype_of(spec)
    assert len(spec.flatten()) == 2
    pair = (tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]))
    assert spec.from_tensors(iter(spec.to_tensors(pair)))[1].numpy().tolist() == [3.0, 4.0]
    assert hash(spec) == hash(PairSpec([2])) and spec != PairSpec([3])
