"""Record TensorFlow 2.21's `tf.image` values for tests/data/image_ops.npz.

Run under a Python with TensorFlow 2.21 (the oracle), from the repository root:

    $BENCH_TF_PYTHON tools/record_image.py

The cases are tests/runtime/ops/image/image_cases.py's (`fn(tf, *inputs)`, written for
both libraries). For each case the file holds, under "<name>/...": `out<i>`
(each output's values; its dtype in `dtype<i>`), and for `grad=True` cases
`grad<j>` (the gradient of sum(output * w) by float input j, w as in
image_cases); "codec/<name>" holds TF's decoding of image_cases.CODECS's
PNG/BMP bytes, and "tfpng/<name>" the PNG bytes TF's encode_png (libpng,
with its filters) makes of image_cases.TO_ENCODE's pixels.
tests/runtime/ops/image/test_image_ops.py replays them on the runtime.
"""

import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "image_ops.npz"


def weights(tf, shape):
    """1, 2, 3, 1, 2, ... shaped like the first output."""
    n = int(np.prod(shape))
    return tf.constant((np.arange(n) % 3 + 1).reshape(shape).astype(np.float32))


def outputs(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


def record(tf, fn, inputs, grad):
    tensors = [tf.constant(x) for x in inputs]
    found = {}
    for i, t in enumerate(outputs(fn(tf, *tensors))):
        found[f"dtype{i}"] = np.array(t.dtype.name)
        found[f"out{i}"] = np.asarray(t.numpy()).astype(t.dtype.as_numpy_dtype)
    if grad:
        floats = [t for t in tensors if t.dtype.is_floating]
        with tf.GradientTape() as tape:
            for t in floats:
                tape.watch(t)
            first = tf.cast(outputs(fn(tf, *tensors))[0], tf.float32)
            loss = tf.reduce_sum(first * weights(tf, first.shape))
        for j, g in enumerate(tape.gradient(loss, floats)):
            found[f"grad{j}"] = g.numpy()
    return found


def main():
    import tensorflow as tf
    sys.path.insert(0, str(ROOT / "tests" / "runtime" / "ops" / "image"))
    import image_cases
    data = {}
    for name, (fn, inputs, grad) in image_cases.CASES.items():
        for key, value in record(tf, fn, inputs, grad).items():
            data[f"{name}/{key}"] = value
    for name, (contents, fn, kwargs) in image_cases.CODECS.items():
        kwargs = {k: getattr(tf, v) if k == "dtype" else v for k, v in kwargs.items()}
        data[f"codec/{name}"] = getattr(tf.image, fn)(tf.constant(contents), **kwargs).numpy()
    for name, pixels in image_cases.TO_ENCODE.items():
        encoded = tf.io.encode_png(pixels).numpy()
        data[f"tfpng/{name}"] = np.frombuffer(encoded, np.uint8)
    np.savez_compressed(OUT, **data)
    print(f"{len(image_cases.CASES)} cases written to {OUT}")


if __name__ == "__main__":
    main()
