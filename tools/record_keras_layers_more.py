"""Record the expected values of tests/keras/layer_cases_more.py from Keras 3.15.

    PYTHONPATH=. $BENCH_TF_PYTHON tools/record_keras_layers_more.py \
        > tests/keras/layer_expected_more.py

Needs TensorFlow (2.21 with Keras 3.15); the project's tests never import it.
"""

import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

from tests.keras import layer_cases_more  # noqa: E402


def measure(name):
    model, x = layer_cases_more.build(tf.keras, name)
    with tf.GradientTape() as tape:
        out = layer_cases_more.call(model, x, name)
        loss = tf.reduce_sum(tf.square(out))
    grads = tape.gradient(loss, model.trainable_weights)
    return _rounded(out), [_rounded(tf.convert_to_tensor(g)) for g in grads]


def _rounded(t):
    return np.round(np.asarray(t, dtype=np.float64), 6).tolist()


def main():
    print('"""Expected values of tests/keras/layer_cases_more.py, recorded from TensorFlow '
          f'{tf.__version__} (Keras {tf.keras.version()})\nby '
          'tools/record_keras_layers_more.py; do not edit by hand."""\n')
    print("EXPECTED = {")
    for name in layer_cases_more.NAMES:
        out, grads = measure(name)
        print(f"    {name!r}: {{\n        'output': {out!r},\n        'grads': {grads!r}}},")
    print("}")


if __name__ == "__main__":
    main()
