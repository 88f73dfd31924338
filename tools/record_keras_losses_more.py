"""Record Keras 3.15's values of tests/keras/loss_cases_more.py (the newer losses
and activations, with the activations' gradients) into
tests/data/keras_losses_activations_more.json.

    PYTHONPATH=. $BENCH_TF_PYTHON tools/record_keras_losses_more.py

Needs TensorFlow 2.21 with Keras 3.15; the project's tests never import it.
"""

import json
import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

from tests.keras import loss_cases_more as cases  # noqa: E402


def main():
    out = {"keras": keras.version(), "losses": {}, "activations": {}}
    for name in cases.LOSSES:
        out["losses"][name] = np.round(cases.loss_value(keras, name), 7).tolist()
    out["ctc_gradient"] = np.round(cases.ctc_gradient(keras, tf), 7).tolist()
    for name in cases.ACTIVATIONS:
        y, g = cases.activation_value_and_grad(keras, tf, name)
        out["activations"][name] = {"value": np.round(y, 7).tolist(),
                                    "grad": np.round(g, 7).tolist()}
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data",
                        "keras_losses_activations_more.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0)


if __name__ == "__main__":
    main()
