"""Record Keras 3.15's StringLookup/IntegerLookup with num_oov_indices other
than 1 on TF 2.21: the indices of unknown tokens (hash buckets for strings,
floormod or farmhash for integers, SipHash with a salt), with and without a
mask token, one-hot outputs and the vocabularies; Hashing with a salt.

    $BENCH_TF_PYTHON tools/record_keras_lookup_oov.py
    # writes tests/data/keras_lookup_oov.npz

`CASES` and `run_case(keras, name, wrap)` are shared with the test.
"""

import os
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "keras_lookup_oov.npz"
WORDS = np.array([["a", "x", "c"], ["zz", "b", ""], ["long token", "a", "é"]])
INTS = np.array([[1, 7, 3], [12, -5, 0], [2, 1000003, -8]], np.int64)
CASES = {
    "string_3": ("StringLookup", dict(num_oov_indices=3), "words"),
    "string_2_mask": ("StringLookup", dict(num_oov_indices=2, mask_token=""), "words"),
    "string_0_known": ("StringLookup", dict(num_oov_indices=0), "known_words"),
    "string_5_multi_hot": ("StringLookup", dict(num_oov_indices=5, output_mode="multi_hot"),
                           "words"),
    "int_3": ("IntegerLookup", dict(num_oov_indices=3), "ints"),
    "int_4_farmhash": ("IntegerLookup", dict(num_oov_indices=4, oov_method="farmhash"), "ints"),
    "int_2_mask_one_hot": ("IntegerLookup", dict(num_oov_indices=2, mask_token=0,
                                                 output_mode="one_hot"), "int_column"),
    "int_0_mask": ("IntegerLookup", dict(num_oov_indices=0, mask_token=0), "known_ints"),
    "string_4_salt": ("StringLookup", dict(num_oov_indices=4, salt=[7, 99]), "words"),
    "int_3_farmhash_salt": ("IntegerLookup", dict(num_oov_indices=3, oov_method="farmhash",
                                                  salt=5), "ints"),
    "hashing_salt": ("Hashing", dict(num_bins=7, salt=133), "words"),
    "hashing_salt_pair_ints": ("Hashing", dict(num_bins=5, salt=[1, 2]), "ints"),
}
DATA = {"words": WORDS, "ints": INTS, "known_words": np.array([["a", "c"], ["b", "a"]]),
        "int_column": INTS[:, :1], "known_ints": np.array([[1, 0, 3], [2, 2, 0]], np.int64)}
VOCAB = {"StringLookup": ["a", "b", "c"], "IntegerLookup": [1, 2, 3]}


def run_case(keras, name, wrap=lambda f: f):
    kind, kwargs, data = CASES[name]
    if kind == "Hashing":
        layer = keras.layers.Hashing(**kwargs)
        return {"y": np.asarray(wrap(layer)(DATA[data])),
                "vocabulary": np.asarray([str(layer.get_config()["salt"])])}
    layer = getattr(keras.layers, kind)(vocabulary=VOCAB[kind], **kwargs)
    out = wrap(layer)(DATA[data])
    vocab = [v.item() if hasattr(v, "item") else v for v in layer.get_vocabulary()]
    return {"y": np.asarray(out), "vocabulary": np.asarray([str(v) for v in vocab])}


def run(keras):
    return {f"{name}/{key}": value for name in CASES
            for key, value in run_case(keras, name).items()}


if __name__ == "__main__":
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import keras
    np.savez(OUT, **run(keras))
    print(f"wrote {OUT}")
