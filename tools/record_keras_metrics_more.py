"""Record Keras 3.15's results of tests/keras/metric_cases_more.py into
tests/data/keras_metrics_more.json.

    PYTHONPATH=. $BENCH_TF_PYTHON tools/record_keras_metrics_more.py

Needs TensorFlow 2.21 with Keras 3.15; the project's tests never import it.
"""

import json
import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras  # noqa: E402

from tests.keras import metric_cases_more as cases  # noqa: E402


def main():
    out = {"keras": keras.version(), "metrics": {}, "functions": {}}
    for name in cases.CASES:
        value = cases.run(keras, name)
        out["metrics"][name] = np.round(value, 7).tolist()
    for name in cases.FUNCTIONS:
        out["functions"][name] = np.round(cases.call(keras, name), 7).tolist()
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data",
                        "keras_metrics_more.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0)


if __name__ == "__main__":
    main()
