"""`tf.experimental.ExtensionType`, `BatchableExtensionType`, their specs and
the `dispatch_for_*` family, against TensorFlow 2.21's recorded outputs
(tests/data/extension_type_tf221.json, written by tools/record_extension_type.py
from the cases listed there): reprs, field conversion and its error messages,
validation, immutability, equality, specs, `tf.function` (traces, input
signatures, cond, while_loop), `nest`, dispatch, tf.data and map_fn."""

import json
import re
import sys
import typing

import numpy as np
import pytest

import runtime as tf
from runtime._src.extension import dispatch
from tests.paths import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import record_extension_type as cases  # noqa: E402

RECORD = json.loads(cases.RECORD.read_text())
_ADDRESS = re.compile(r"0x[0-9a-f]+")


def _clean(text):
    """Output without object addresses and AutoGraph's warnings on exec'd code."""
    return _ADDRESS.sub("0x?", text)


@pytest.fixture
def no_dispatch_left():
    yield
    for target in dispatch.registered_targets():
        try:
            tf.experimental.unregister_dispatch_for(target)
        except ValueError:
            pass                # an elementwise handler's target, gone with its handler


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_case_prints_what_tf_prints(name, no_dispatch_left):
    assert _clean(cases.run_case(tf, cases.CASES[name])) == _clean(RECORD[name])


def test_dispatch_leaves_the_public_functions_as_they_were(no_dispatch_left):
    before = tf.stack

    class M(tf.experimental.ExtensionType):
        v: tf.Tensor

    @tf.experimental.dispatch_for_api(tf.stack)
    def stack(values: typing.List[M], axis=0):
        return M(tf.stack([x.v for x in values], axis))

    assert tf.stack is not before and tf.stack([M([1]), M([2])]).v.shape == (2, 1)
    tf.experimental.unregister_dispatch_for(stack)
    assert tf.stack is before


def test_dispatch_signature_must_match_the_api():
    with pytest.raises(ValueError, match="Dispatch function's signature"):
        @tf.experimental.dispatch_for_api(tf.stack)
        def wrong(vals, axis=0):
            return vals


def test_spec_batches_shape_fields_and_saves(tmp_path):
    class Net(tf.experimental.BatchableExtensionType):
        __name__ = "tests.Net"
        shape: tf.TensorShape
        work: tf.Tensor

        def __init__(self, work):
            self.work = tf.convert_to_tensor(work)
            self.shape = self.work.shape[:-1]

    class Holder(tf.Module):
        @tf.function(input_signature=[Net.Spec(tf.TensorShape(None),
                                               tf.TensorSpec(None, tf.float32))])
        def grow(self, net):
            return Net(net.work * 2.0)

    tf.saved_model.save(Holder(), str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    out = loaded.grow(Net([[1.0, 2.0], [3.0, 4.0]]))
    assert isinstance(out, Net)
    np.testing.assert_array_equal(out.work.numpy(), [[2.0, 4.0], [6.0, 8.0]])
    batched = tf.data.Dataset.from_tensor_slices(Net(np.ones([3, 2], np.float32))).batch(
        3, drop_remainder=True)
    # TF 2.21 prints the same (the saved name leaves the class name alone)
    assert repr(batched.element_spec) == ("Net.Spec(shape=TensorShape([3]), work=TensorSpec("
                                          "shape=(3, 2), dtype=tf.float32, name=None))")


def test_dataset_of_extension_types_in_a_staged_loop():
    class B(tf.experimental.BatchableExtensionType):
        v: tf.Tensor

    ds = tf.data.Dataset.from_tensor_slices(B([[1.0, 2.0], [3.0, 4.0]]))

    @tf.function
    def total(ds):
        s = tf.constant(0.0)
        for x in ds:
            s += tf.reduce_sum(x.v)
        return s
    assert total(ds).numpy() == 10.0        # 1 + 2 + 3 + 4
