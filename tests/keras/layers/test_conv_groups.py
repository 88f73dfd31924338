"""Grouped Conv1D and Conv3D (`groups` > 1) against Keras 3.15 on TF 2.21
(tests/data/keras_conv_groups.npz, recorded by tools/record_keras_conv_groups.py):
outputs and input/kernel/bias gradients, eagerly and in a tf.function;
Keras's errors and configs."""

import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import MODES
from tools.record_keras_conv_groups import CASES, OUT, run_case

RECORD = np.load(OUT)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", sorted(CASES))
def test_grouped_conv_is_keras(name, mode):
    ours = run_case(tf.keras, tf, name, MODES[mode])
    for key, got in ours.items():
        want = RECORD[f"{name}/{key}"]
        assert got.shape == want.shape, key
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=f"{name}/{key}")


@pytest.mark.parametrize("kind,shape", [("Conv1D", (1, 4, 3)), ("Conv3D", (1, 3, 3, 3, 3))])
def test_groups_errors_and_config(kind, shape):
    cls = getattr(tf.keras.layers, kind)
    with pytest.raises(ValueError, match=r"The number of filters must be evenly divisible by "
                                         r"the number of groups\. Received: groups=2, "
                                         r"filters=3\."):
        cls(3, 2, groups=2)
    with pytest.raises(ValueError, match=r"The number of input channels must be evenly "
                                         r"divisible by the number of groups\. Received "
                                         r"groups=2, but the input has 3 channels"):
        cls(4, 2, groups=2)(np.ones(shape, np.float32))
    config = cls(4, 2, groups=2).get_config()
    assert config["groups"] == 2 and cls.from_config(config).get_config() == config
