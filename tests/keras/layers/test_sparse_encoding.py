"""sparse=True outputs of CategoryEncoding, Hashing, Discretization and
HashedCrossing, and CategoryEncoding's count_weights, against Keras 3.15 on
TF 2.21 (tests/data/keras_sparse_encoding.npz, recorded by
tools/record_keras_sparse_encoding.py): SparseTensor indices, values and
dense shapes, eagerly and in a tf.function; Keras's errors."""

import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import MODES
from tools.record_keras_sparse_encoding import CASES, OUT, run_case

RECORD = np.load(OUT)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", sorted(CASES))
def test_sparse_outputs_are_keras(name, mode):
    ours = run_case(tf.keras, name, MODES[mode])
    keys = sorted(k.split("/", 1)[1] for k in RECORD.files if k.startswith(name + "/"))
    assert sorted(ours) == keys
    for key, got in ours.items():
        want = RECORD[f"{name}/{key}"]
        assert got.dtype == want.dtype and got.shape == want.shape, key
        np.testing.assert_array_equal(got, want, err_msg=f"{name}/{key}")


def test_sparse_errors_are_keras():
    L = tf.keras.layers
    with pytest.raises(ValueError, match="`sparse=True` may only be used if `output_mode`"):
        L.Discretization(bin_boundaries=[0.0], sparse=True)
    with pytest.raises(ValueError, match="`sparse` may only be true if `output_mode`"):
        L.Hashing(4, sparse=True)
    with pytest.raises(ValueError, match="`count_weights` is not used when `output_mode` is "
                                         "not `'count'`"):
        L.CategoryEncoding(4)(np.array([[0, 1]]), count_weights=np.ones((1, 2)))
