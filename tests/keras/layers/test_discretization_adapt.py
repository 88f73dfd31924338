"""Discretization.adapt (num_bins, epsilon) against Keras 3.15 on TF 2.21
(tests/data/keras_discretization.npz, recorded by
tools/record_keras_discretization.py): the learned boundaries and the outputs,
eagerly and in a tf.function; Keras's argument errors and config round trip."""

import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import MODES
from tools.record_keras_discretization import CASES, OUT, run_case

RECORD = np.load(OUT)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", sorted(CASES))
def test_adapt_is_keras(name, mode):
    ours = run_case(tf.keras, name, MODES[mode])
    for key, got in ours.items():
        want = RECORD[f"{name}/{key}"]
        assert got.shape == want.shape, key
        np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=f"{name}/{key}")


def test_arguments_and_config():
    L = tf.keras.layers
    with pytest.raises(ValueError, match="You need to set either `num_bins` or "
                                         "`bin_boundaries`"):
        L.Discretization()
    with pytest.raises(ValueError, match="Both `num_bins` and `bin_boundaries` should not be"):
        L.Discretization(bin_boundaries=[0.0], num_bins=2)
    with pytest.raises(ValueError, match="Cannot adapt a Discretization layer that has been "
                                         "initialized with `bin_boundaries`"):
        L.Discretization(bin_boundaries=[0.0]).adapt(np.ones(3))
    layer = L.Discretization(num_bins=3)
    layer.adapt(np.arange(30, dtype="float32"))
    again = L.Discretization.from_config(layer.get_config())
    assert again.bin_boundaries == layer.bin_boundaries and again.num_bins == 3
