"""Record Keras 3.15's TextVectorization behaviour into
tests/data/keras_text_vectorization.json (read by
tests/keras/layers/test_text_vectorization.py).

    $BENCH_TF_PYTHON tools/record_keras_text.py

Needs TensorFlow 2.21 with Keras 3.15; the project's tests never import it.
"""

import json
import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras  # noqa: E402

DATA = ["The cat sat on the mat.", "The dog ate my homework!", "A cat, a dog; THE END",
        "dog dog dog"]
QUERIES = ["the cat ate the dog homework", "unknown words here!", "Cat", "  "]
CASES = [
    {},
    {"ngrams": 2, "max_tokens": 10},
    {"output_mode": "multi_hot"},
    {"output_mode": "count", "ngrams": [1, 3]},
    {"output_mode": "tf_idf"},
    {"output_sequence_length": 4},
    {"standardize": "lower", "split": "character", "output_sequence_length": 6},
    {"standardize": None, "split": None},
    {"standardize": "strip_punctuation", "ngrams": 3},
    {"output_mode": "multi_hot", "max_tokens": 6, "pad_to_max_tokens": True},
]


def as_kwargs(case):
    """A case's keyword arguments (ngrams a tuple: JSON has lists only)."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in case.items()}


def main():
    out = {"keras": keras.version(), "data": DATA, "queries": QUERIES, "cases": []}
    for kwargs in CASES:
        layer = keras.layers.TextVectorization(**as_kwargs(kwargs))
        layer.adapt(DATA)
        y = np.asarray(layer(np.array(QUERIES)))
        out["cases"].append({"kwargs": kwargs, "vocabulary": [str(v) for v in
                                                              layer.get_vocabulary()],
                             "output": np.round(y.astype(np.float64), 5).tolist(),
                             "dtype": str(y.dtype)})
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data",
                        "keras_text_vectorization.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0)


if __name__ == "__main__":
    main()
