"""Masks reaching layers called on a list of tensors (Attention,
AdditiveAttention, Concatenate, Add) and MultiHeadAttention, against Keras 3.15
on TF 2.21 (tests/data/keras_masking.npz, recorded by tools/record_keras_masking.py):
outputs, whether the output carries a mask, and the weights' gradients, eagerly
and in a tf.function."""

import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import MODES
from tools.record_keras_masking import CASES, OUT, run_case

RECORD = np.load(OUT)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", CASES)
def test_masks_reach_list_layers_as_keras(name, mode):
    ours = run_case(tf.keras, tf, name, MODES[mode])
    keys = sorted(k.split("/", 1)[1] for k in RECORD.files if k.startswith(name + "/"))
    assert sorted(ours) == keys
    for key, got in ours.items():
        want = RECORD[f"{name}/{key}"]
        assert got.shape == want.shape, key
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=f"{name}/{key}")
