"""Record Keras 3.15's HashedCrossing on TF 2.21 (tf.sparse.cross_hashed of the
features): int and one_hot outputs for string, int and mixed features of
shapes (), (batch,) and (batch, 1), and the configs.

    $BENCH_TF_PYTHON tools/record_keras_hashed_crossing.py
    # writes tests/data/keras_hashed_crossing.npz

`CASES` and `run_case(keras, name, wrap)` are shared with the test.
"""

import os
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "keras_hashed_crossing.npz"
_WORDS = np.array(["A", "B", "A", "B", "A", "", "long word é"])
_INTS = np.array([101, 101, 101, 102, 102, 0, -7], np.int64)
CASES = {
    "str_int": (5, "int", (_WORDS, _INTS)),
    "str_int_one_hot": (5, "one_hot", (_WORDS, _INTS)),
    "int_int_column": (1000, "int", (_INTS[:, None], (_INTS * 3)[:, None])),
    "three_str": (17, "int", (_WORDS, _WORDS[::-1].copy(), np.array(list("abcdefg")))),
    "column_one_hot": (4, "one_hot", (_WORDS[:, None], _INTS[:, None])),
    "scalar": (9, "int", (np.array("x"), np.array(3, np.int64))),
    "scalar_one_hot": (9, "one_hot", (np.array("x"), np.array(3, np.int64))),
    "int32": (1 << 30, "int", (_INTS.astype(np.int32), _INTS.astype(np.int32) + 1)),
}


def run_case(keras, name, wrap=lambda f: f):
    num_bins, mode, features = CASES[name]
    layer = keras.layers.HashedCrossing(num_bins, output_mode=mode)
    out = wrap(lambda *xs: layer(list(xs)))(*features)
    return {"y": np.asarray(out), "dtype": np.asarray(str(out.dtype.name if hasattr(
        out.dtype, "name") else out.dtype)), "config": np.asarray(repr(sorted(
            (k, v) for k, v in layer.get_config().items() if k != "name")))}


def run(keras):
    return {f"{name}/{key}": value for name in CASES
            for key, value in run_case(keras, name).items()}


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    np.savez(OUT, **run(keras))
    print(f"wrote {OUT}")
