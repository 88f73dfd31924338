"""Record Keras 3.15's (TF 2.21) `keras.ops.image` affine_transform,
perspective_transform, sobel_edges, ssim and extract_patches_3d values for
tests/keras/ops/test_keras_image_ops_more.py into
tests/data/keras_image_ops_more_tf221.npz (inputs and outputs):

    $BENCH_TF_PYTHON tools/record_keras_image_ops_more.py

CASES maps a case name to (function, names of array inputs, keyword args);
the arrays are INPUTS[name]; the npz holds "<case>:<input>" and "<case>:out".
"""

import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parents[1] / "tests/data/keras_image_ops_more_tf221.npz"
rng = np.random.default_rng(7)
IMG = rng.uniform(0, 1, (2, 6, 7, 3)).astype("float32")
INPUTS = {
    "img": IMG,
    "img1": IMG[0],
    "img_u8": (IMG * 255).astype("uint8"),
    "img_cf": np.transpose(IMG, (0, 3, 1, 2)).copy(),
    "img2": rng.uniform(0, 1, (2, 6, 7, 3)).astype("float32"),
    "big1": rng.uniform(0, 1, (2, 16, 15, 2)).astype("float32"),
    "big2": rng.uniform(0, 1, (2, 16, 15, 2)).astype("float32"),
    "big_u8": rng.integers(0, 256, (16, 15, 2)).astype("uint8"),
    "flat": np.full((1, 12, 12, 1), 0.5, "float32"),
    "t_one": np.array([1.1, 0.2, -1.0, -0.1, 0.9, 0.5, 0.0, 0.0], "float32"),
    "t_two": np.array([[1, 0, 1.5, 0, 1, -0.5, 0, 0],
                       [0.8, -0.3, 0.7, 0.3, 0.8, 0.2, 0.01, -0.02]], "float32"),
    "t_id": np.array([1, 0, 0, 0, 1, 0, 0, 0], "float32"),
    "sp": np.array([[0, 0], [6, 0], [0, 5], [6, 5]], "float32"),
    "ep": np.array([[1, 0], [5, 1], [0, 4], [6, 5]], "float32"),
    "sp2": np.array([[[0, 0], [6, 0], [0, 5], [6, 5]]] * 2, "float32"),
    "ep2": np.array([[[1, 0], [5, 1], [0, 4], [6, 5]], [[0, 1], [6, 0], [1, 5], [5, 4]]],
                    "float32"),
    "vol": rng.uniform(-1, 1, (2, 5, 6, 7, 2)).astype("float32"),
    "vol1": rng.uniform(-1, 1, (4, 5, 6, 3)).astype("float32"),
    "grid": rng.uniform(-1, 1, (5, 6)).astype("float32"),
    "grid_i": rng.integers(0, 100, (5, 6)).astype("int32"),
    "coords": np.stack([rng.uniform(-2, 7, (3, 4)), rng.uniform(-2, 8, (3, 4))]).astype(
        "float32"),
    "coords3": np.stack([rng.uniform(-1, 5, (7,)), rng.uniform(-1, 6, (7,)),
                         rng.uniform(0, 4, (7,)), rng.integers(0, 3, (7,))]).astype("float32"),
    "vol_cf": rng.uniform(-1, 1, (1, 2, 4, 5, 6)).astype("float32"),
}
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


def main():
    from keras import ops
    data = {}
    for case, (fn, names, kwargs) in CASES.items():
        out = getattr(ops.image, fn)(*[INPUTS[n] for n in names], **kwargs)
        data[f"{case}:out"] = np.asarray(out)
        for n in names:
            data[f"{case}:{n}"] = INPUTS[n]
    np.savez_compressed(OUT, **data)
    print(f"{len(CASES)} cases -> {OUT}")


if __name__ == "__main__":
    main()
