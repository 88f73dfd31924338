"""tf.keras's Keras 2 image augmentation (TF 2.21's Keras 3.15
`keras._tf_keras.keras.preprocessing.image`) against its recorded values
(tools/record_tf_keras_legacy.py wrote tests/data/tf_keras_legacy.json; the
test reruns the recorder's cases on runtime.keras):
`tf.keras.preprocessing.image.apply_affine_transform` (rotation, shift,
shear, zoom; fill modes nearest / constant / reflect / wrap, orders 0 and 1,
channels first and last, rows after columns),
`tf.keras.preprocessing.image.apply_channel_shift`,
`tf.keras.preprocessing.image.apply_brightness_shift` (Pillow), the
`random_*` functions under a seeded numpy RNG (Keras draws from numpy's
global RNG, so the values are exact), and
`tf.keras.preprocessing.image.ImageDataGenerator`: seeded transform
parameters, augmented `flow()` batches by seed, plain batches with rescale,
samplewise centring, extra inputs and sample weights, `fit()` statistics
(featurewise, ZCA, augmented), subsets, `flow_from_directory()`
(`tf.keras.preprocessing.image.DirectoryIterator`) in every class mode,
`flow_from_dataframe()` (pandas; every class mode, sample weights, subsets,
invalid files dropped), and the errors."""

import json
import os

import numpy as np
import pytest

import runtime as tf
from tools import record_tf_keras_legacy as recorder

pytestmark = pytest.mark.filterwarnings("ignore:This ImageDataGenerator specifies")
pytest.importorskip("PIL")      # Keras's brightness shift and file loading use Pillow

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data", "tf_keras_legacy.json")
I = tf.keras.preprocessing.image


def _close(ours, theirs, path="value"):
    """Equal JSON values, floats to 1e-4 (ZCA: 1e-3) relative."""
    if isinstance(theirs, float) or isinstance(ours, float):
        assert ours is not None and np.isclose(ours, theirs, rtol=1e-4, atol=2e-4), path
    elif isinstance(theirs, dict):
        assert sorted(map(str, ours)) == sorted(theirs), path
        for key in theirs:
            _close(ours[key], theirs[key], f"{path}.{key}")
    elif isinstance(theirs, list):
        assert len(ours) == len(theirs), path
        for i, (a, b) in enumerate(zip(ours, theirs)):
            _close(a, b, f"{path}[{i}]")
    else:
        assert ours == theirs, path


@pytest.fixture(scope="module")
def pair():
    with open(DATA) as f:
        theirs = json.load(f)["image"]
    ours = json.loads(json.dumps(recorder._image(tf.keras)))
    return ours, theirs


@pytest.mark.parametrize("key", ["affine", "channel_shift", "brightness", "random"])
def test_transforms_match_keras_3_15_recorded(pair, key):
    ours, theirs = pair
    _close(ours[key], theirs[key], key)


@pytest.mark.parametrize("key", ["params", "random_transform", "flow_aug", "flow_plain",
                                 "flow_next", "stats", "subset", "errors"])
def test_image_data_generator_matches_keras_3_15_recorded(pair, key):
    ours, theirs = pair
    _close(ours["generator"][key], theirs["generator"][key], key)


@pytest.mark.parametrize("key", ["categorical", "binary", "sparse", "input", "None", "meta",
                                 "errors", "dataframe"])
def test_flow_from_directory_matches_keras_3_15_recorded(pair, key):
    if key == "dataframe":
        pytest.importorskip("pandas")
    ours, theirs = pair
    _close(ours["directory"][key], theirs["directory"][key], key)


def test_identity_transform_and_iterators_are_py_datasets():
    x = np.arange(2 * 3 * 4 * 1, dtype="float32").reshape(2, 3, 4, 1)
    first = x[0]
    assert I.apply_affine_transform(first, row_axis=0, col_axis=1, channel_axis=2) is first
    it = I.ImageDataGenerator().flow(x, np.array([1, 2]), batch_size=1, shuffle=False)
    assert isinstance(it, I.Iterator) and isinstance(it, tf.keras.utils.PyDataset)
    np.testing.assert_array_equal(it[1][0], x[1:])
    assert it[1][0].dtype == np.float32 and it[1][1].tolist() == [2]


def test_flow_trains_a_model():
    x = np.random.default_rng(0).random((8, 4, 4, 1)).astype("float32")
    it = I.ImageDataGenerator(horizontal_flip=True).flow(x, np.zeros((8, 1)), batch_size=4,
                                                          seed=1)
    model = tf.keras.Sequential([tf.keras.Input((4, 4, 1)), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    assert len(model.fit(it, epochs=1, verbose=0).history["loss"]) == 1


def test_spline_orders_are_scipys_as_keras():
    # Keras 3.15 resamples every order with scipy.ndimage; orders 2 to 5 (splines) take
    # scipy's here too where it is installed (values recorded from Keras 3.15)
    pytest.importorskip("scipy")
    x = np.arange(30, dtype=np.float32).reshape(5, 6, 1)
    y = tf.keras.preprocessing.image.apply_affine_transform(x, theta=20, zx=0.9, order=3,
                                                             fill_mode="reflect")[..., 0]
    np.testing.assert_allclose(y[0], [-0.11255, 0.12502, 1.11842, 2.04872, 2.98943, 3.92293],
                               atol=1e-5)
    np.testing.assert_allclose(y[4], [23.88745, 24.12502, 25.11842, 26.04872, 26.98942,
                                      27.92293], atol=1e-5)
