"""Record Keras 3.15's sparse=True outputs of CategoryEncoding, Hashing,
Discretization and HashedCrossing on TF 2.21 (SparseTensors: indices, values,
dense_shape), and CategoryEncoding's count_weights.

    $BENCH_TF_PYTHON tools/record_keras_sparse_encoding.py
    # writes tests/data/keras_sparse_encoding.npz

`CASES` and `run_case(keras, name, wrap)` are shared with the test.
"""

import os
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "keras_sparse_encoding.npz"
IDS = np.array([[0, 1, 1], [3, 3, 0]])
WEIGHTS = np.array([[0.5, 1.0, 2.0], [1.0, 1.0, 3.0]], np.float32)
CASES = {
    "one_hot": ("CategoryEncoding", dict(num_tokens=4, output_mode="one_hot", sparse=True),
                (IDS[:, 0],)),
    "multi_hot": ("CategoryEncoding", dict(num_tokens=4, sparse=True), (IDS,)),
    "count": ("CategoryEncoding", dict(num_tokens=4, output_mode="count", sparse=True), (IDS,)),
    "count_weights": ("CategoryEncoding", dict(num_tokens=4, output_mode="count"),
                      (IDS, WEIGHTS)),
    "count_weights_sparse": ("CategoryEncoding", dict(num_tokens=4, output_mode="count",
                                                      sparse=True), (IDS, WEIGHTS)),
    "hashing": ("Hashing", dict(num_bins=4, output_mode="multi_hot", sparse=True),
                (np.array([["a", "b"], ["c", "c"]]),)),
    "discretization": ("Discretization", dict(bin_boundaries=[0.0, 1.0], output_mode="count",
                                              sparse=True),
                       (np.array([[-1.0, 0.5, 0.7], [2.0, 2.0, 2.0]], np.float32),)),
    "crossing": ("HashedCrossing", dict(num_bins=4, output_mode="one_hot", sparse=True),
                 ([np.array(["a", "b", "c"]), np.array([1, 2, 2])],)),
}


def run_case(keras, name, wrap=lambda f: f):
    kind, kwargs, args = CASES[name]
    layer = getattr(keras.layers, kind)(**kwargs)
    if len(args) == 2:
        out = wrap(lambda x, w: layer(x, count_weights=w))(*args)
    else:
        out = wrap(layer)(*args)
    if not hasattr(out, "indices"):
        return {"dense": np.asarray(out)}
    return {"indices": np.asarray(out.indices), "values": np.asarray(out.values),
            "dense_shape": np.asarray(out.dense_shape)}


def run(keras):
    return {f"{name}/{key}": value for name in CASES
            for key, value in run_case(keras, name).items()}


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    np.savez(OUT, **run(keras))
    print(f"wrote {OUT}")
