"""Record the expected values of tests/keras/layer_cases.py from Keras 3.

    $BENCH_TF_PYTHON tools/record_keras_layers.py > tests/keras/layer_expected.py

Needs TensorFlow (2.21 with Keras 3); the project's tests never import it.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "keras"))
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import layer_cases
import tensorflow as tf


def measure(name):
    model, x = layer_cases.build(tf.keras, name)
    with tf.GradientTape() as tape:
        out = layer_cases.call(model, x, name)
        outs = out if isinstance(out, (list, tuple)) else [out]
        loss = tf.add_n([tf.reduce_sum(tf.square(o)) for o in outs])
    grads = tape.gradient(loss, model.trainable_weights)
    return ([_rounded(o) for o in outs], [_rounded(tf.convert_to_tensor(g)) for g in grads])


def _rounded(t):
    return np.round(np.asarray(t, dtype=np.float64), 6).tolist()


def main():
    print('"""Expected values of tests/keras/layer_cases.py, recorded from TensorFlow '
          f'{tf.__version__} (Keras {tf.keras.version()})\nby tools/record_keras_layers.py; '
          'do not edit by hand."""\n')
    print("EXPECTED = {")
    names = (list(layer_cases.CASES) + list(layer_cases.STATE_CASES)
             + list(layer_cases.FUNCTIONAL_CASES))
    for name in names:
        outs, grads = measure(name)
        print(f"    {name!r}: {{\n        'outputs': {outs!r},\n        'grads': {grads!r}}},")
    print("}\n")
    print("# name -> the losses of 3 epochs of fit and the weights after them")
    print("FIT = {")
    for name in layer_cases.TRAIN_CASES:
        model, losses = layer_cases.fit(tf.keras, name)
        weights = [_rounded(w) for w in model.weights]
        print(f"    {name!r}: {{\n        'losses': {[round(float(v), 6) for v in losses]!r},"
              f"\n        'weights': {weights!r}}},")
    print("}")


if __name__ == "__main__":
    main()
