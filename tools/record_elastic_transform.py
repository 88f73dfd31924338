"""Record Keras 3.15's `keras.ops.image.elastic_transform` (on TF 2.21) for
tests/keras/ops/test_elastic_transform.py.

    $BENCH_TF_PYTHON tools/record_elastic_transform.py   # writes tests/data/elastic_transform_keras315.json

`run_cases(keras)` returns each case's output (shape, dtype, values) or the
error's message.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from keras_recording import error_text, record  # noqa: E402 - after the path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "data", "elastic_transform_keras315.json")


def _images():
    rng = np.random.RandomState(7)
    return rng.uniform(0, 1, size=(2, 9, 8, 2)).astype("float32")


CASES = {
    "default": dict(seed=3),
    "alpha_sigma": dict(alpha=5.0, sigma=1.5, seed=11),
    "nearest_constant": dict(alpha=8.0, sigma=2.0, interpolation="nearest",
                             fill_mode="constant", fill_value=0.5, seed=5),
    "wrap": dict(alpha=10.0, sigma=1.0, fill_mode="wrap", seed=2),
    "reflect": dict(alpha=10.0, sigma=1.0, fill_mode="reflect", seed=2),
    "nearest_fill": dict(alpha=10.0, sigma=1.0, fill_mode="nearest", seed=2),
    "zero_alpha": dict(alpha=0.0, sigma=1.0, seed=1),
    "single_image": dict(alpha=6.0, sigma=1.0, seed=4, single=True),
    "channels_first": dict(alpha=6.0, sigma=1.0, seed=4, channels_first=True),
    "float64": dict(alpha=6.0, sigma=1.0, seed=9, dtype="float64"),
}


def _run(keras, case):
    case = dict(case)
    images = _images()
    if case.pop("single", False):
        images = images[0]
    if case.pop("channels_first", False):
        images = np.transpose(images, (0, 3, 1, 2))
        case["data_format"] = "channels_first"
    images = images.astype(case.pop("dtype", "float32"))
    out = keras.ops.image.elastic_transform(images, **case)
    out = keras.ops.convert_to_numpy(out)
    return [list(out.shape), str(out.dtype), [round(float(v), 5) for v in out.ravel()]]



def run_cases(keras):
    out = {name: _run(keras, case) for name, case in CASES.items()}
    image = _images()
    et = keras.ops.image.elastic_transform
    out["errors"] = {
        "interpolation": error_text(lambda: et(image, interpolation="cubic")),
        "fill_mode": error_text(lambda: et(image, fill_mode="edge")),
        "rank": error_text(lambda: et(image[0, 0])),
    }
    return out


def main():
    return record(OUT, run_cases)


if __name__ == "__main__":
    sys.exit(main())
