"""Keras 3.15's image augmentation layers: the results of deterministic factor
ranges match the outputs recorded from TensorFlow 2.21 / Keras 3.15
(tests/data/keras_augmentation.npz, by tools/record_keras_augmentation.py from
augment_cases.py), eagerly and inside tf.function; random ranges stay within
their bounds; inference (predict) is the identity in float32; configs."""

import os

import numpy as np
import pytest

import runtime as tf
from tests.keras import augment_cases as cases

RECORDED = np.load(os.path.join(os.path.dirname(__file__), "..", "..", "data",
                                "keras_augmentation.npz"))
L = tf.keras.layers
X = cases.IMAGES


@pytest.mark.parametrize("name", list(cases.CASES))
def test_deterministic_case_matches_keras(name):
    np.testing.assert_allclose(cases.run(tf.keras, name), RECORDED[name], rtol=1e-5,
                               atol=2e-4)


@pytest.mark.parametrize("name", ["rotation_45", "zoom_out_wrap", "translation_constant",
                                  "posterization", "crop_upscale"])
def test_inside_tf_function(name):
    layer = cases.CASES[name](L)
    out = tf.function(lambda x: layer(x, training=True))(tf.constant(X))
    np.testing.assert_allclose(out, RECORDED[name], rtol=1e-5, atol=2e-4)


def test_random_ranges_and_inference_identity():
    x = np.round(X).astype("uint8")
    for layer in (L.RandomRotation(0.2, seed=1), L.RandomZoom(0.3, seed=2),
                  L.RandomTranslation(0.2, 0.2, seed=3), L.RandomContrast(0.5, seed=4),
                  L.RandomBrightness(0.2, seed=5), L.RandomCrop(3, 4, seed=6),
                  L.RandomInvert(0.5, seed=7), L.RandomGrayscale(0.5, seed=8),
                  L.Solarization(0.2, 0.5, seed=9), L.RandomPosterization(4, seed=10)):
        same = layer(x, training=False)
        assert same.dtype == tf.float32
        np.testing.assert_array_equal(same, x.astype("float32"))
        out = np.asarray(layer(x, training=True))
        assert out.dtype == np.float32 and np.isfinite(out).all()
    mean = X.mean(axis=(1, 2), keepdims=True)
    out = np.asarray(L.RandomContrast(0.5, seed=1)(X))
    for i in range(2):     # one factor per image, in [1 - 0, 1 + 0.5] (Keras 3.15's range)
        keep = (out[i] > 0) & (out[i] < 255) & (np.abs(X[i] - mean[i]) > 1)
        f = ((out[i] - mean[i]) / (X[i] - mean[i]))[keep]
        assert np.allclose(f, f[0], atol=1e-3) and 1.0 <= f[0] <= 1.5
    out = np.asarray(L.RandomBrightness(0.2, seed=3)(X))
    delta = (out - X)[(out > 0) & (out < 255)]
    assert np.abs(delta).max() <= 0.2 * 255 + 1e-3
    crop = np.asarray(L.RandomCrop(3, 4, seed=2)(X))
    windows = [X[:, i:i + 3, j:j + 4] for i in range(3) for j in range(3)]
    assert any(np.array_equal(crop, w) for w in windows)


def test_in_a_model_predict_is_identity_and_fit_runs():
    model = tf.keras.Sequential([tf.keras.Input((5, 6, 3)),
                                 L.RandomRotation(0.1, seed=1), L.RandomZoom(0.1, seed=2),
                                 L.RandomTranslation(0.1, 0.1, seed=3),
                                 L.Rescaling(1 / 255.0), L.Flatten(), L.Dense(1)])
    np.testing.assert_allclose(model.predict(X, verbose=0),
                               model(X / 255.0 * 255.0, training=False), rtol=1e-5)
    model.compile(optimizer="sgd", loss="mse")
    history = model.fit(X, np.ones((2, 1), "float32"), epochs=1, verbose=0)
    assert np.isfinite(history.history["loss"]).all()
    pipeline = L.Pipeline([L.AutoContrast(), L.RandomInvert((1.0, 1.0))])
    np.testing.assert_allclose(pipeline(X), RECORDED["auto_contrast"] * -1 + 255,
                               atol=2e-4)


def test_configs_and_errors():
    assert L.RandomRotation(0.1).get_config()["factor"] == (-0.1, 0.1)
    assert L.RandomContrast(0.5).get_config()["factor"] == (0, 0.5)
    config = L.RandomZoom(0.2).get_config()
    assert config["height_factor"] == 0.2 and config["width_factor"] is None
    assert config["fill_mode"] == "reflect" and config["interpolation"] == "bilinear"
    assert L.RandomCrop(3, 4).get_config()["height"] == 3
    assert L.RandomPosterization(4).get_config()["factor"] == (1, 4)
    again = L.Pipeline.from_config(L.Pipeline([L.RandomFlip(), L.AutoContrast()]).get_config())
    assert [type(layer).__name__ for layer in again.layers] == ["RandomFlip", "AutoContrast"]
    with pytest.raises(ValueError, match="factor"):
        L.RandomRotation(1.5)
    with pytest.raises(NotImplementedError, match="fill_mode"):
        L.RandomZoom(0.1, fill_mode="mirror")


def test_random_hue_turns_each_image_by_half_its_factor():
    x = np.clip(X, 0, 255)
    out = np.asarray(L.RandomHue((0.4, 0.4), seed=3)(x))
    to_hsv = tf.keras.ops.image.rgb_to_hsv
    before, after = np.asarray(to_hsv(x / 255.0)), np.asarray(to_hsv(out / 255.0))
    for i in range(2):
        colourful = before[i, ..., 1] > 0.05
        turn = np.mod(after[i, ..., 0] - before[i, ..., 0], 1.0)[colourful]
        assert np.allclose(turn, turn[0], atol=2e-3)
        assert min(abs(turn[0] - 0.2), abs(turn[0] - 0.8)) < 2e-3


def test_mix_up_mixes_images_and_labels_alike():
    values = np.array([1.0, 10.0, 100.0, 1000.0], "float32")
    images = values.reshape(4, 1, 1, 1) * np.ones((4, 2, 3, 3), "float32")
    layer = L.MixUp(alpha=0.4, seed=5)
    for call in (layer, tf.function(lambda d: layer(d))):
        out = call({"images": images, "labels": np.eye(4, dtype="float32")})
        labels = np.asarray(out["labels"])
        np.testing.assert_allclose(labels.sum(axis=1), 1.0, rtol=1e-6)
        assert ((labels > 0).sum(axis=1) <= 2).all()
        np.testing.assert_allclose(np.asarray(out["images"])[:, 0, 0, 0], labels @ values,
                                   rtol=1e-5)
    np.testing.assert_array_equal(layer(images, training=False), images)
    assert layer.get_config()["alpha"] == 0.4


def test_random_shear_is_one_of_the_two_signed_shears():
    from runtime._src.keras.ops.image_transform import (affine_transform)
    out = np.asarray(L.RandomShear((0.3, 0.3), (0.1, 0.1), seed=2)(X))
    assert L.RandomShear(0.3).get_config()["x_factor"] == (-0.3, 0.3)
    for i in range(2):
        options = [np.asarray(affine_transform(
            tf.constant(X[i:i + 1]), tf.constant([[1, 0.3 * s, 0, 0.1 * s, 1, 0, 0, 0]],
                                                tf.float32)))[0] for s in (1.0, -1.0)]
        assert any(np.allclose(out[i], o, atol=1e-4) for o in options)


def test_cut_mix_pastes_one_box_and_mixes_labels_by_area():
    values = np.array([1.0, 10.0, 100.0, 1000.0], "float32")
    images = values.reshape(4, 1, 1, 1) * np.ones((4, 6, 8, 3), "float32")
    layer = L.CutMix(seed=4)
    for call in (layer, tf.function(lambda d: layer(d))):
        out = call({"images": images, "labels": np.eye(4, dtype="float32")})
        got, labels = np.asarray(out["images"]), np.asarray(out["labels"])
        for i in range(4):
            pasted = got[i, ..., 0] != values[i]
            assert set(np.unique(got[i])) <= set(values)
            if pasted.any():                 # one rectangle, from one other image
                rows, cols = np.where(pasted)
                assert pasted[rows.min():rows.max() + 1, cols.min():cols.max() + 1].all()
                assert len(np.unique(got[i][pasted])) == 1
        np.testing.assert_allclose(labels.sum(axis=1), 1.0, rtol=1e-5)
    np.testing.assert_array_equal(layer(images, training=False), images)
    assert layer.get_config()["factor"] == (0, 1.0)


def test_random_erasing_fills_one_box_per_image():
    x = np.full((3, 10, 12, 3), 50.0, "float32")
    out = np.asarray(L.RandomErasing((1.0, 1.0), scale=(0.1, 0.2),
                                     fill_value=(1.0, 2.0, 300.0), seed=2)(x))
    for i in range(3):
        erased = out[i, ..., 0] != 50.0
        rows, cols = np.where(erased)
        assert erased[rows.min():rows.max() + 1, cols.min():cols.max() + 1].all()
        np.testing.assert_array_equal(out[i][erased], [[1.0, 2.0, 255.0]] * erased.sum())
    noisy = np.asarray(L.RandomErasing(seed=1)(x))
    assert noisy.min() >= 0 and noisy.max() <= 255
    np.testing.assert_array_equal(L.RandomErasing(factor=(0.0, 0.0))(x), x)
    assert L.RandomErasing().get_config()["scale"] == (0.02, 0.33)


@pytest.mark.parametrize("interpolation", ["bilinear", "nearest"])
def test_perspective_warp_matches_keras(interpolation):
    from runtime._src.keras.ops.image_transform import (perspective_transform)
    out = perspective_transform(tf.constant(X), cases.PERSPECTIVE_START, cases.PERSPECTIVE_END,
                                interpolation, 3.0)
    np.testing.assert_allclose(out, RECORDED[f"perspective_{interpolation}"], rtol=1e-4,
                               atol=2e-3)


def test_random_perspective_warps_or_keeps_each_image():
    out = np.asarray(L.RandomPerspective(scale=0.3, seed=1)(X))
    assert out.shape == X.shape and np.isfinite(out).all()
    np.testing.assert_array_equal(L.RandomPerspective(factor=(0.0, 0.0))(X), X)
    np.testing.assert_allclose(L.RandomPerspective(scale=0.0)(X), X, atol=1e-3)
    assert L.RandomPerspective().get_config()["scale"] == 1.0


def test_max_num_bounding_boxes_cuts_and_pads_as_keras():
    layer = L.MaxNumBoundingBoxes(3, bounding_box_format="xyxy")
    boxes = np.arange(2 * 5 * 4, dtype="float32").reshape(2, 5, 4)
    labels = np.arange(10, dtype="float32").reshape(2, 5)
    out = layer({"images": X, "bounding_boxes": {"boxes": boxes, "labels": labels}})
    np.testing.assert_array_equal(out["bounding_boxes"]["boxes"], boxes[:, :3])   # Keras 3.15
    np.testing.assert_array_equal(out["bounding_boxes"]["labels"], [[0, 1, 2], [5, 6, 7]])
    out = layer({"images": X, "bounding_boxes": {"boxes": boxes[:, :2], "labels": labels[:, :2]}})
    np.testing.assert_array_equal(out["bounding_boxes"]["labels"], [[0, 1, -1], [5, 6, -1]])
    np.testing.assert_array_equal(out["bounding_boxes"]["boxes"][:, 2], -np.ones((2, 4)))
    assert layer.get_config()["max_number"] == 3
    with pytest.raises(ValueError, match="bounding_box_format"):
        L.MaxNumBoundingBoxes(3)({"images": X, "bounding_boxes": {"boxes": boxes,
                                                                  "labels": labels}})


def test_rand_augment_applies_ops_of_its_list():
    x = np.clip(X, 0, 255)
    layer = L.RandAugment(num_ops=1, factor=0.3, seed=3)
    out = np.asarray(layer(x[:1, :3, :4]))
    assert out.shape == (1, 3, 4, 3) and np.isfinite(out).all()
    np.testing.assert_array_equal(layer(x, training=False), x)
    assert layer.get_config()["factor"] == (0, 0.3) and layer.get_config()["num_ops"] == 1
