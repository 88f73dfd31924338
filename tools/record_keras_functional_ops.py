"""Record a Keras 3.15 functional model that calls `keras.ops` and Python
operators on its tensors: its config (each call an entry of Keras's op class)
and its outputs on a fixed input.

    $BENCH_TF_PYTHON tools/record_keras_functional_ops.py
    # writes tests/data/keras_functional_ops.json

`build(keras)` is shared with tests/keras/models/test_functional_ops_config.py.
"""

import json
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "keras_functional_ops.json"


def build(keras):
    ops = keras.ops
    x = keras.Input((3, 4), name="x")
    h = x[:, 0, ...] * 2.0 + 1.0
    h = ops.reshape(h, (-1, 2, 2))
    h = ops.concatenate([h, ops.expand_dims(ops.mean(h, axis=1), 1)], axis=1)
    h = ops.softmax(ops.where(h > 1.5, h, -h), axis=-1)
    h = ops.take(ops.sum(h, axis=-1, keepdims=True), np.array([0, 2]), axis=1)
    return keras.Model(x, -h, name="ops")


def inputs():
    return np.random.RandomState(0).rand(2, 3, 4).astype("float32")


if __name__ == "__main__":
    import keras
    model = build(keras)
    record = {"config": model.get_config(),
              "outputs": np.asarray(model(inputs())).tolist()}
    OUT.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print("wrote", OUT)
