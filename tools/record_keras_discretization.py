"""Record Keras 3.15's Discretization.adapt on TF 2.21: the learned
bin_boundaries and the outputs for arrays, iterables of batches (merged
summaries), several epsilons and num_bins, and a one-hot output.

    $BENCH_TF_PYTHON tools/record_keras_discretization.py
    # writes tests/data/keras_discretization.npz

`CASES` and `run_case(keras, name, wrap)` are shared with the test.
"""

import os
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "keras_discretization.npz"


def _normal(n, seed=0):
    return np.random.default_rng(seed).normal(size=(n,)).astype(np.float32)


CASES = {
    "array_4": (dict(num_bins=4), _normal(500)),
    "array_2d_eps": (dict(num_bins=5, epsilon=0.05), _normal(300).reshape(100, 3)),
    "batches_3": (dict(num_bins=3), [_normal(200, 1), _normal(150, 2) + 1.0, _normal(90, 3)]),
    "few_values": (dict(num_bins=6), np.array([1.0, 2.0, 2.0, 3.0, 10.0], np.float32)),
    "ties": (dict(num_bins=4, epsilon=0.1), np.repeat(np.arange(5, dtype=np.float32), 30)),
    "one_hot": (dict(num_bins=3, output_mode="one_hot"), _normal(120, 4)),
}
PROBE = np.linspace(-3, 3, 13, dtype=np.float32)


def run_case(keras, name, wrap=lambda f: f):
    kwargs, data = CASES[name]
    layer = keras.layers.Discretization(**kwargs)
    layer.adapt(data)
    return {"boundaries": np.asarray(layer.bin_boundaries, np.float32),
            "y": np.asarray(wrap(layer)(PROBE))}


def run(keras):
    return {f"{name}/{key}": value for name in CASES
            for key, value in run_case(keras, name).items()}


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    np.savez(OUT, **run(keras))
    print(f"wrote {OUT}")
