"""Resizing, CenterCrop and RandomFlip. Expected values come from TF 2.21's
Keras 3 for the same inputs."""

import numpy as np
import pytest

import runtime as tf

L = tf.keras.layers
IMG = np.arange(48, dtype="float32").reshape(2, 4, 6, 1)


def both(layer, x, **kwargs):
    return [layer(x, **kwargs), tf.function(lambda t: layer(t, **kwargs))(tf.constant(x))]


def test_resizing_bilinear_nearest_and_crop_to_aspect_ratio():
    for out in both(L.Resizing(2, 3), IMG):
        np.testing.assert_allclose(out.numpy()[..., 0], [[[3.5, 5.5, 7.5], [15.5, 17.5, 19.5]],
                                                         [[27.5, 29.5, 31.5],
                                                          [39.5, 41.5, 43.5]]])
    out = L.Resizing(3, 4, interpolation="nearest")(IMG).numpy()[..., 0]
    np.testing.assert_array_equal(out[0], [[0, 2, 3, 5], [12, 14, 15, 17], [18, 20, 21, 23]])
    out = L.Resizing(2, 2, data_format="channels_first")(IMG.transpose(0, 3, 1, 2)).numpy()
    np.testing.assert_allclose(out, [[[[4.0, 7.0], [16.0, 19.0]]], [[[28.0, 31.0],
                                                                     [40.0, 43.0]]]])
    sym = L.Resizing(2, 3)(tf.keras.Input((4, 6, 3)))
    assert tuple(sym.shape) == (None, 2, 3, 3)
    config = L.Resizing(2, 3).get_config()
    assert {k: config[k] for k in ("height", "width", "interpolation", "crop_to_aspect_ratio",
                                   "data_format")} == {
        "height": 2, "width": 3, "interpolation": "bilinear", "crop_to_aspect_ratio": False,
        "data_format": "channels_last"}


def test_center_crop():
    for out in both(L.CenterCrop(2, 3), IMG):
        np.testing.assert_array_equal(out.numpy()[..., 0], [[[7, 8, 9], [13, 14, 15]],
                                                            [[31, 32, 33], [37, 38, 39]]])
    # larger than the input: cropped to the aspect ratio, then resized (TF 2.21)
    out = L.CenterCrop(6, 6)(IMG[:1]).numpy()[0, :, :, 0]
    np.testing.assert_allclose(out[0], [1.0, 1.5, 2.1666669845581055, 2.833333969116211, 3.5, 4],
                               rtol=1e-6)
    np.testing.assert_allclose(out[5], [19.0, 19.5, 20.16666603088379, 20.83333396911621,
                                        21.5, 22.0], rtol=1e-6)
    np.testing.assert_array_equal(L.CenterCrop(2, 2)(IMG[0]).numpy()[..., 0], [[8, 9],
                                                                               [14, 15]])
    assert L.CenterCrop(2, 3).get_config()["height"] == 2


def test_random_flip_is_the_identity_outside_training():
    flip = L.RandomFlip("horizontal", seed=1)
    for out in both(flip, IMG, training=False):
        np.testing.assert_array_equal(out.numpy(), IMG)
    config = flip.get_config()
    assert config["mode"] == "horizontal" and config["seed"] == 1
    with pytest.raises(ValueError, match="unknown mode"):
        L.RandomFlip("diagonal")


@pytest.mark.parametrize("mode", ["horizontal", "vertical", "horizontal_and_vertical"])
def test_random_flip_in_training_flips_about_half(mode):
    x = np.random.RandomState(0).rand(400, 3, 5, 2).astype("float32")
    for out in both(L.RandomFlip(mode, seed=3), x, training=True):
        out = out.numpy()
        views = {"horizontal": [x, x[:, :, ::-1]], "vertical": [x, x[:, ::-1]],
                 "horizontal_and_vertical": [x, x[:, :, ::-1], x[:, ::-1], x[:, ::-1, ::-1]]}
        which = np.array([[np.array_equal(o, v[i]) for v in views[mode]]
                          for i, o in enumerate(out)])
        assert which.any(axis=1).all()                 # each image is one of the flips
        share = which.mean(axis=0)
        assert np.allclose(share, 1 / len(views[mode]), atol=0.08)


def test_random_flip_gradient_follows_the_flip():
    x = tf.constant(IMG)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = L.RandomFlip("horizontal", seed=0)(x, training=True)
        loss = tf.reduce_sum(y * np.arange(6, dtype="float32")[None, None, :, None])
    grad = tape.gradient(loss, x).numpy()[:, 0, :, 0]
    flipped = (y.numpy() != IMG)[:, 0, 0, 0]
    for g, f in zip(grad, flipped):
        np.testing.assert_array_equal(g, np.arange(6)[::-1] if f else np.arange(6))


def test_random_flip_defaults_to_training_but_predict_does_not_flip():
    # Keras 3's RandomFlip.call has training=True: a direct call or model(x) flips
    # (TF 2.21: 48-58% of 50 images), model.predict does not (0%)
    x = np.arange(8, dtype="float32").reshape(1, 2, 4, 1).repeat(50, 0)
    model = tf.keras.Sequential([tf.keras.Input((2, 4, 1)), L.RandomFlip("horizontal")])
    assert 0.25 < (model(x).numpy() != x).any(axis=(1, 2, 3)).mean() < 0.75
    assert (model.predict(x, verbose=0) == x).all()


def test_resizing_keeps_integer_images_integer():
    img = np.arange(48, dtype="int32").reshape(2, 4, 6, 1)
    for x in (img, img.astype("uint8")):
        out = L.Resizing(2, 3)(x)
        assert out.dtype == tf.as_dtype(x.dtype)                    # TF 2.21 keeps the dtype
        assert out.numpy()[0, ..., 0].tolist() == [[4, 6, 8], [16, 18, 20]]
    halves = np.array([[[[2], [3]]], [[[3], [4]]]], "int32")        # 2.5 and 3.5
    assert L.Resizing(1, 1)(halves).numpy()[:, 0, 0, 0].tolist() == [2, 4]   # half to even
    assert L.CenterCrop(2, 3)(img).dtype == tf.float32               # CenterCrop casts
