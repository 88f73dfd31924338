"""Record TF 2.21's arithmetic on uint16, uint32 and uint64 tensors.

    /tmp/tfvenv/bin/python tools/record_wide_uints.py   # writes tests/data/wide_uints.json

Each op runs on operands holding 0, 1, a middle value and the dtype's
maximum (so wrap-around, division by zero and the bounds are covered); the
record keeps the result's dtype and values, or the exception type when TF
refuses the op for that dtype.
"""

import json
import os
import pathlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "wide_uints.json"
DTYPES = ("uint16", "uint32", "uint64")
BINARY = ("add", "subtract", "multiply", "floordiv", "floormod", "truediv", "maximum",
          "minimum", "truncatediv", "truncatemod", "divide_no_nan", "pow", "less",
          "less_equal", "greater", "greater_equal", "equal", "not_equal",
          "squared_difference")
UNARY = ("square", "negative", "abs", "sign", "reduce_sum", "reduce_prod", "reduce_max",
         "reduce_min", "reduce_mean", "cumsum", "cumprod", "argmax", "argmin")


def operands(dtype):
    top = np.iinfo(dtype).max
    x = np.array([0, 1, 7, top, 12, top], dtype)
    y = np.array([3, 0, 2, 2, 12, top], dtype)
    return x, y


def outcome(fn):
    try:
        value = fn()
    except Exception as e:  # noqa: BLE001 - the exception type is the fact recorded
        return {"error": type(e).__name__}
    value = np.asarray(value)
    return {"dtype": value.dtype.name,
            "values": [str(v) for v in value.ravel().tolist()], "shape": list(value.shape)}


def main():
    record = {}
    for dtype in DTYPES:
        x, y = operands(dtype)
        for name in BINARY:
            fn = getattr(tf.math, name, None) or getattr(tf, name)
            record[f"{name}:{dtype}"] = outcome(lambda: fn(tf.constant(x), tf.constant(y)))
            nonzero = np.where(y == 0, 5, y).astype(dtype)       # integer division by 0 raises
            record[f"{name}_nonzero:{dtype}"] = outcome(
                lambda: fn(tf.constant(x), tf.constant(nonzero)))
        for name in UNARY:
            fn = getattr(tf.math, name)
            record[f"{name}:{dtype}"] = outcome(lambda: fn(tf.constant(x)))
    OUT.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}: {len(record)} cases")


if __name__ == "__main__":
    main()
