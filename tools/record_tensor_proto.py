"""Record TF's `tf.make_tensor_proto` / `tf.make_ndarray` results into
tests/data/tensor_proto_tf221.json (for tests/runtime/graph/test_tensor_proto.py).

Run under TensorFlow (2.21 recorded): `$BENCH_TF_PYTHON tools/record_tensor_proto.py`.
Each case is a Python expression over `tf` and `np`; the file holds its
SerializeToString() bytes (hex), str() text, and make_ndarray's dtype and
`repr(tolist())`, or the error's class.
"""

import json
import os

import numpy as np
import tensorflow as tf

CASES = [
    "tf.make_tensor_proto(1.5)", "tf.make_tensor_proto([1, 2, 3])",
    "tf.make_tensor_proto(np.array([[1., 2.], [3., 4.]], np.float64))",
    "tf.make_tensor_proto(np.int64(7))", "tf.make_tensor_proto([True, False])",
    "tf.make_tensor_proto(True)", "tf.make_tensor_proto(b'ab')",
    "tf.make_tensor_proto([b'a', b'bc'])", "tf.make_tensor_proto(np.float16(1.5))",
    "tf.make_tensor_proto(np.array([1., 2.], np.float16))",
    "tf.make_tensor_proto(1., tf.float32, [2, 3])", "tf.make_tensor_proto([1, 2], tf.float32)",
    "tf.make_tensor_proto(np.zeros([0, 2], np.float32))",
    "tf.make_tensor_proto(np.array([1, 2], np.uint32))", "tf.make_tensor_proto(np.complex64(1+2j))",
    "tf.make_tensor_proto(7, tf.int64)", "tf.make_tensor_proto(np.uint8(3))",
    "tf.make_tensor_proto(np.array([[1, 2]], np.int8))",
    "tf.make_tensor_proto([-1, 2], shape=[2])", "tf.make_tensor_proto(-3)",
    "tf.make_tensor_proto([1, 2, 3], shape=[2])",
    "tf.make_tensor_proto([1, 2], shape=[1, 2], verify_shape=True)",
    "tf.make_tensor_proto([1, 2], shape=[4])",
    "tf.make_tensor_proto(5, shape=[2, 2], allow_broadcast=True)",
    "tf.make_tensor_proto([1, 2], shape=[4], allow_broadcast=True)",
    "tf.make_tensor_proto(tf.constant([1.5, 2.]))", "tf.make_tensor_proto(['x', 'yz'], shape=[2, 2])",
    "tf.make_tensor_proto(2**40)",
    "tf.make_tensor_proto([1, 2], dtype=tf.float64, shape=tf.TensorShape([2, 1]))",
    "tf.make_tensor_proto(np.array([1+1j, 2], np.complex128))",
    "tf.make_tensor_proto([b'q'], shape=[3])", "tf.make_tensor_proto([], dtype=tf.float32)",
    "tf.make_tensor_proto([7, 8], shape=[2, 2])", "tf.make_tensor_proto(float('nan'))",
    "tf.make_tensor_proto(np.array([0., -0.], np.float32), shape=[2])",
]


def record(expr):
    try:
        proto = eval(expr, {"tf": tf, "np": np})   # noqa: S307 (the table's own expressions)
    except (TypeError, ValueError) as e:
        return {"expr": expr, "error": type(e).__name__, "message": str(e)}
    value = tf.make_ndarray(proto)
    return {"expr": expr, "bytes": proto.SerializeToString().hex(), "text": str(proto),
            "dtype": value.dtype.name, "value": repr(value.tolist())}


def main():
    out = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "tensor_proto_tf221.json")
    with open(out, "w") as f:
        json.dump([record(expr) for expr in CASES], f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
