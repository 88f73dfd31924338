"""Record Keras 3.15's trajectories of tests/keras/optimizer_cases_more.py
(Adafactor, Lamb, LossScaleOptimizer) into tests/data/keras_optimizers_more.json.

    PYTHONPATH=. $BENCH_TF_PYTHON tools/record_keras_optimizers_more.py

Needs TensorFlow 2.21 with Keras 3.15; the project's tests never import it.
"""

import json
import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

from tests.keras import optimizer_cases_more as cases  # noqa: E402


def _r(a):
    return np.round(a, 7).tolist()


def main():
    out = {"keras": keras.version(), "cases": {}}
    for name in cases.CASES:
        out["cases"][name] = [[_r(w), _r(b)] for w, b in cases.run(keras, tf, name)]
    out["loss_scale"] = [[_r(w), s, c, i] for w, s, c, i in cases.run_loss_scale(keras, tf)]
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data",
                        "keras_optimizers_more.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0)


if __name__ == "__main__":
    main()
