"""Record TensorFlow's results of the tf.sparse cases into tests/data/sparse_ops.json.

    $BENCH_TF_PYTHON tools/record_sparse.py

The cases are tests/runtime/sparse/sparse_cases.py (each builds its inputs with the
module it gets); tests/runtime/sparse/test_sparse.py replays them on runtime, eagerly
and in tf.function, and compares with these values. An error is recorded as
its class name.
"""

import json
import os
import sys

import tensorflow as tf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "runtime", "sparse"))

from sparse_cases import CASES, serialize  # noqa: E402


def main():
    out = {}
    for name, case in CASES.items():
        try:
            out[name] = serialize(case(tf))
        except Exception as e:  # noqa: BLE001 - recorded as the error's class
            out[name] = {"error": type(e).__name__, "message": str(e)[:200]}
    path = os.path.join(ROOT, "tests", "data", "sparse_ops.json")
    with open(path, "w") as f:
        json.dump({"tensorflow": tf.__version__, "cases": out}, f, indent=0, sort_keys=True)
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()
