"""keras.ops.image affine_transform, perspective_transform, sobel_edges, ssim and
extract_patches_3d against Keras 3.15's (TF 2.21) recorded values
(tests/data/keras_image_ops_more_tf221.npz, from tools/record_keras_image_ops_more.py),
eagerly, inside tf.function, on KerasTensors, with gradients and bad input."""

import pathlib

import numpy as np
import pytest

import runtime as tf
from runtime import keras
from runtime.keras import ops

DATA = np.load(pathlib.Path(__file__).resolve().parents[2] / "data"
               / "keras_image_ops_more_tf221.npz")
# case -> (function, input names, keyword args), as the recording script has them
CASES = {
    "affine_one": ("affine_transform", ["img", "t_one"], {}),
    "affine_two_nearest": ("affine_transform", ["img", "t_two"],
                           {"interpolation": "nearest", "fill_mode": "reflect"}),
    "affine_wrap": ("affine_transform", ["img", "t_two"], {"fill_mode": "wrap"}),
    "affine_nearest_fill": ("affine_transform", ["img", "t_two"],
                            {"fill_mode": "nearest", "fill_value": 0.5}),
    "affine_constant_fill": ("affine_transform", ["img1", "t_one"], {"fill_value": -1.0}),
    "affine_identity": ("affine_transform", ["img", "t_id"], {}),
    "affine_u8": ("affine_transform", ["img_u8", "t_two"], {"interpolation": "nearest"}),
    "affine_cf": ("affine_transform", ["img_cf", "t_two"], {"data_format": "channels_first"}),
    "perspective_one": ("perspective_transform", ["img", "sp", "ep"], {}),
    "perspective_batch": ("perspective_transform", ["img", "sp2", "ep2"],
                          {"interpolation": "nearest", "fill_value": 2.0}),
    "perspective_single": ("perspective_transform", ["img1", "sp", "ep"], {}),
    "perspective_same": ("perspective_transform", ["img", "sp", "sp"], {}),
    "sobel": ("sobel_edges", ["img"], {}),
    "sobel_cf": ("sobel_edges", ["img_cf"], {"data_format": "channels_first"}),
    "sobel_flat": ("sobel_edges", ["flat"], {}),
    "ssim": ("ssim", ["big1", "big2"], {}),
    "ssim_same": ("ssim", ["big1", "big1"], {}),
    "ssim_small": ("ssim", ["img", "img2"], {"filter_size": 3, "filter_sigma": 0.8,
                                             "max_val": 2.0, "k1": 0.02, "k2": 0.05}),
    "ssim_single": ("ssim", ["img1", "img1"], {"filter_size": 5}),
    "ssim_u8": ("ssim", ["big_u8", "big_u8"], {"max_val": 255.0}),
    "patches3d": ("extract_patches_3d", ["vol"], {"size": (2, 3, 2)}),
    "patches3d_strides": ("extract_patches_3d", ["vol"], {"size": 2, "strides": (1, 2, 3),
                                                           "padding": "same"}),
    "patches3d_dilated": ("extract_patches_3d", ["vol1"], {"size": 2, "strides": 1,
                                                            "dilation_rate": 2}),
    "patches3d_cf": ("extract_patches_3d", ["vol_cf"], {"size": 2,
                                                         "data_format": "channels_first"}),
    "map_linear": ("map_coordinates", ["grid", "coords"], {"order": 1}),
    "map_nearest": ("map_coordinates", ["grid", "coords"], {"order": 0, "fill_value": -2}),
    "map_edge": ("map_coordinates", ["grid", "coords"], {"order": 1, "fill_mode": "nearest"}),
    "map_wrap": ("map_coordinates", ["grid", "coords"], {"order": 1, "fill_mode": "wrap"}),
    "map_reflect": ("map_coordinates", ["grid", "coords"], {"order": 0,
                                                            "fill_mode": "reflect"}),
    "map_int": ("map_coordinates", ["grid_i", "coords"], {"order": 1}),
    "map_3d": ("map_coordinates", ["vol1", "coords3"], {"order": 1, "fill_mode": "wrap"}),
    "sat_linear": ("scale_and_translate", ["img"], {
        "output_shape": (2, 9, 5, 3), "scale": [1.6, 0.7], "translation": [0.3, -0.2],
        "spatial_dims": (1, 2), "method": "linear"}),
    "sat_cubic_noaa": ("scale_and_translate", ["img"], {
        "output_shape": (2, 4, 10, 3), "scale": [0.6, 1.5], "translation": [1.0, 0.0],
        "spatial_dims": (1, 2), "method": "bicubic", "antialias": False}),
    "sat_lanczos3": ("scale_and_translate", ["img"], {
        "output_shape": (2, 3, 7, 3), "scale": [0.5, 1.0], "translation": [0.0, 0.5],
        "spatial_dims": (1, 2), "method": "lanczos3"}),
    "sat_lanczos5_neg": ("scale_and_translate", ["grid"], {
        "output_shape": (8, 6), "scale": [1.7], "translation": [-0.4],
        "spatial_dims": (-2,), "method": "lanczos5"}),
}


def _run(case, wrap=lambda f: f):
    fn, names, kwargs = CASES[case]
    args = [DATA[f"{case}:{n}"] for n in names]
    return np.asarray(wrap(lambda: getattr(ops.image, fn)(*args, **kwargs))())


def _check(case, out):
    want = DATA[f"{case}:out"]
    assert out.dtype == want.dtype and out.shape == want.shape
    np.testing.assert_allclose(out, want, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("case", sorted(CASES))
def test_recorded(case):
    _check(case, _run(case))


@pytest.mark.parametrize("case", ["affine_wrap", "perspective_batch", "sobel_cf", "ssim_small",
                                  "patches3d_strides", "map_linear", "map_reflect",
                                  "sat_lanczos3"])
def test_recorded_in_function(case):
    _check(case, _run(case, tf.function))


def test_keras_tensors_and_gradient():
    x = keras.Input((6, 7, 3))
    assert tuple(ops.image.sobel_edges(x).shape) == (None, 6, 7, 3, 2)
    assert tuple(ops.image.affine_transform(x, DATA["affine_one:t_one"]).shape) == (None, 6, 7, 3)
    img = tf.Variable(DATA["ssim:big1"])
    with tf.GradientTape() as tape:
        value = tf.reduce_sum(ops.image.ssim(img, DATA["ssim:big2"]))
    grad = tape.gradient(value, img).numpy()
    assert grad.shape == (2, 16, 15, 2) and np.all(np.isfinite(grad)) and np.any(grad != 0)


def test_bad_input():
    img = DATA["affine_one:img"]
    with pytest.raises(ValueError, match="interpolation"):
        ops.image.affine_transform(img, DATA["affine_one:t_one"], interpolation="cubic")
    with pytest.raises(ValueError, match="fill_mode"):
        ops.image.affine_transform(img, DATA["affine_one:t_one"], fill_mode="mirror")
    with pytest.raises(ValueError, match="transform rank"):
        ops.image.affine_transform(img, np.zeros((1, 1, 8), "float32"))
    with pytest.raises(ValueError, match="start_points shape"):
        ops.image.perspective_transform(img, np.zeros((3, 2)), np.zeros((4, 2)))
    with pytest.raises(ValueError, match="same shape"):
        ops.image.perspective_transform(img, np.zeros((4, 2)), np.zeros((2, 4, 2)))
    with pytest.raises(ValueError, match="image1 rank"):
        ops.image.ssim(img[0, 0], img[0, 0])
    with pytest.raises(TypeError, match="size"):
        ops.image.extract_patches_3d(DATA["patches3d:vol"], (2, 2))
    grid, coords = DATA["map_linear:grid"], DATA["map_linear:coords"]
    with pytest.raises(ValueError, match="fill_mode"):
        ops.image.map_coordinates(grid, coords, 1, fill_mode="edge")
    with pytest.raises(NotImplementedError, match="order<=1"):
        ops.image.map_coordinates(grid, coords, 3)
    with pytest.raises(ValueError, match="leading dim of 3"):
        ops.image.map_coordinates(grid, np.zeros((3, 2), "float32"), 1)
    with pytest.raises(tf.errors.InvalidArgumentError):  # as Keras on TF: index == size
        ops.image.map_coordinates(grid, [[0.0], [5.5]], 1, fill_mode="mirror")


def test_scale_and_translate_integers():
    """Keras 3.15 on TF fails for integer images (a float/uint8 Minimum); here
    they give the float result rounded and clipped to the image's own range."""
    img = DATA["affine_u8:img_u8"]
    kwargs = dict(output_shape=(2, 12, 14, 3), scale=[2.0, 2.0], translation=[0.0, 0.0],
                  spatial_dims=(1, 2), method="cubic")
    out = ops.image.scale_and_translate(img, **kwargs).numpy()
    ref = ops.image.scale_and_translate(img.astype("float32"), **kwargs).numpy()
    assert out.dtype == np.uint8
    np.testing.assert_array_equal(out, np.clip(np.round(ref), img.min(), img.max()))
    with pytest.raises(ValueError, match="method"):
        ops.image.scale_and_translate(img, method="area", **{k: v for k, v in kwargs.items()
                                                             if k != "method"})
