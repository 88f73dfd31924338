"""ContrastLimitedAdaptiveHistogramEqualization, AugMix and
RandomElasticTransform against Keras 3.15 on TF 2.21
(tests/data/keras_image_more.npz, recorded by tools/record_keras_image_more.py):
CLAHE's exact outputs eagerly and traced; for the random layers the configs,
shapes, identities (chain_depth=0, factor=0, scale=0, inference), the output
range and the mean change over repeated calls, within a band of Keras's
(their random streams differ)."""

import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import MODES
from tools.record_keras_image_more import (CLAHE_CASES, IDENTITIES, RANDOM_CASES, OUT, configs,
                                           run_clahe, run_random, smooth)

RECORD = np.load(OUT)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", sorted(CLAHE_CASES))
def test_clahe_is_keras(name, mode):
    got, want = run_clahe(tf.keras, name, MODES[mode]), RECORD[f"clahe/{name}"]
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-3)


@pytest.mark.parametrize("name", sorted({**RANDOM_CASES, **IDENTITIES}))
def test_random_layers_behave_as_keras(name):
    ours = run_random(tf.keras, tf, name, MODES["eager"], calls=6)     # Keras's: 16 calls
    want = {k.rsplit("/", 1)[1]: RECORD[k] for k in RECORD.files
            if k.startswith(f"random/{name}/")}
    np.testing.assert_array_equal(ours["shape"], want["shape"])
    assert want["low"] - 1e-3 <= ours["low"] and ours["high"] <= want["high"] + 1e-3 or \
        name in RANDOM_CASES
    assert 0.0 <= ours["low"] and ours["high"] <= 255.0
    if name in IDENTITIES:
        assert ours["change"] < 1e-3 and want["change"] < 1e-3
    else:
        assert 0.5 * want["change"] < ours["change"] < 2.0 * want["change"], \
            (ours["change"], want["change"])
        assert abs(ours["changed_share"] - want["changed_share"]) <= 0.35


def test_configs_are_keras():
    ours = configs(tf.keras)
    for name, config in ours.items():
        assert config == str(RECORD[f"config/{name}"]), name


@pytest.mark.parametrize("make", [
    lambda: tf.keras.layers.AugMix(seed=1),
    lambda: tf.keras.layers.RandomElasticTransform(seed=1),
])
def test_inference_is_the_identity_and_config_round_trips(make):
    layer = make()
    x = smooth((1, 12, 12, 3))
    np.testing.assert_array_equal(np.asarray(layer(x, training=False)), x)
    assert type(layer).from_config(layer.get_config()).get_config() == layer.get_config()


def test_bad_arguments_are_keras_errors():
    with pytest.raises(NotImplementedError, match="Unknown `interpolation` cubic"):
        tf.keras.layers.RandomElasticTransform(interpolation="cubic")
    with pytest.raises(NotImplementedError, match="Unknown `fill_mode` edge"):
        tf.keras.layers.RandomElasticTransform(fill_mode="edge")
    with pytest.raises(ValueError, match="The `factor` argument should be a number"):
        tf.keras.layers.AugMix(factor=2.0)


def test_aug_mix_traced():
    layer = tf.keras.layers.AugMix(num_chains=1, chain_depth=1, all_ops=False, seed=2)
    x = smooth((1, 8, 8, 3))
    out = np.asarray(tf.function(lambda v: layer(v, training=True))(tf.constant(x)))
    assert out.shape == x.shape and out.min() >= 0.0 and out.max() <= 255.0
