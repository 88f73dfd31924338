"""Record TensorFlow's values and gradients of the Keras special-point cases
(tests/keras/special_cases.py) into tests/data/tf_special_points/keras.json.

    /tmp/tfvenv/bin/python tools/tf_special_keras.py

Needs TensorFlow 2.21 (Keras 3); the replay test
(tests/keras/test_special_points.py) never imports it. Each entry:
{"inputs": [[values, dtype], ...], "eager" / "function": {"value", "dtype",
"grads"}} (a gradient TF gives as None is null; an error is {"error": text}).
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "keras"))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import special_cases  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "tf_special_points",
                   "keras.json")


def _listed(a):
    return None if a is None else a.astype("float64").tolist()


def record(build, inputs, mode):
    try:
        value, dtype, grads = special_cases.run(tf, build, inputs, mode)
    except Exception as e:  # noqa: BLE001 -- recorded, the replay expects the same
        return {"error": f"{type(e).__name__}: {e}"}
    return {"value": _listed(value), "dtype": dtype, "grads": [_listed(g) for g in grads]}


def main():
    cases = {}
    for name, (build, inputs) in special_cases.all_cases().items():
        cases[name] = {"inputs": [[v, d] for v, d in inputs],
                       "eager": record(build, inputs, "eager"),
                       "function": record(build, inputs, "function")}
    doc = {"recorded_with": f"TensorFlow {tf.__version__}, Keras {tf.keras.version()}",
           "objective": "sum(out * (1 + arange(out.size) / 4)); grads w.r.t. floating "
                        "inputs, then the trainable variables",
           "cases": cases}
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=0, sort_keys=True)
        f.write("\n")
    print(f"{len(cases)} cases -> {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
