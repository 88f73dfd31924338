"""Record TF 2.21's Keras image helpers for tests/data/keras_image_utils_tf221.npz.

    $BENCH_TF_PYTHON tools/record_keras_image_utils.py

Over the JPEG/PNG files of tests/data/image_dataset_tf221.npz: `load_img`
in each colour mode, target size, interpolation and keep_aspect_ratio
(recorded as arrays), `img_to_array` layouts, `array_to_img` of scaled and
grey arrays, and `smart_resize` of arrays (`CASES`).
"""

import io
import pathlib

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "keras_image_utils_tf221.npz"
FILES = ("cats/0.png", "dogs/1.jpg")
LOADS = {
    "plain": {}, "gray": {"color_mode": "grayscale"}, "rgba": {"color_mode": "rgba"},
    "sized": {"target_size": (7, 11)},
    "bilinear": {"target_size": (9, 5), "interpolation": "bilinear"},
    "aspect": {"target_size": (6, 12), "interpolation": "bicubic", "keep_aspect_ratio": True},
}
SMART = {"bilinear": ((9, 7), "bilinear"), "nearest": ((4, 12), "nearest"),
         "area": ((5, 5), "area")}


def array():
    return np.random.default_rng(3).random((13, 17, 3)).astype(np.float32) * 4 - 1


def files():
    data = np.load(ROOT / "tests" / "data" / "image_dataset_tf221.npz")
    return {name: data[f"file|{name}"].tobytes() for name in FILES}


def main():
    import keras
    data = {}
    for name, body in files().items():
        for case, kwargs in LOADS.items():
            img = keras.utils.load_img(io.BytesIO(body), **kwargs)
            data[f"load|{name}|{case}"] = np.asarray(img)
        img = keras.utils.load_img(io.BytesIO(body))
        data[f"to_array|{name}|first"] = keras.utils.img_to_array(
            img, data_format="channels_first")
    x = array()
    data["to_img|scaled"] = np.asarray(keras.utils.array_to_img(x))
    data["to_img|gray"] = np.asarray(keras.utils.array_to_img(x[..., :1] * 100, scale=False))
    for case, (size, method) in SMART.items():
        data[f"smart|{case}"] = keras.preprocessing.image.smart_resize(
            x, size, interpolation=method)
    np.savez_compressed(OUT, **data)
    print(f"wrote {len(data)} arrays to {OUT}")


if __name__ == "__main__":
    main()
