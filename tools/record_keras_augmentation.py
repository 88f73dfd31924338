"""Record Keras 3.15's outputs of tests/keras/augment_cases.py into
tests/data/keras_augmentation.npz.

    PYTHONPATH=. $BENCH_TF_PYTHON tools/record_keras_augmentation.py

Needs TensorFlow 2.21 with Keras 3.15; the project's tests never import it.
"""

import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras  # noqa: E402

from tests.keras import augment_cases as cases  # noqa: E402


def main():
    out = {name: cases.run(keras, name).astype(np.float32) for name in cases.CASES}
    for interpolation in ("bilinear", "nearest"):
        out[f"perspective_{interpolation}"] = np.asarray(keras.ops.image.perspective_transform(
            cases.IMAGES, cases.PERSPECTIVE_START, cases.PERSPECTIVE_END,
            interpolation=interpolation, fill_value=3.0))
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data",
                        "keras_augmentation.npz")
    np.savez_compressed(path, **out)


if __name__ == "__main__":
    main()
