"""Record TF 2.21's new type promotion (`dtype_conversion_mode` 'all' and 'safe').

    /tmp/tfvenv/bin/python tools/record_weak_promotion.py   # writes tests/data/weak_promotion.json

For every pair of operand kinds (a strong dtype, a weak tensor, or a Python
scalar) it records what `a + b` gives under each mode: the result's dtype and
weakness, or the exception type. It also records the unary and constructor
cases of TF's type-promotion guide (`tf.constant`, `tnp.array`, `tf.math.abs`).
"""

import json
import os
import pathlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tensorflow.experimental.numpy as tnp  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "weak_promotion.json"
STRONG = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
          "float16", "float32", "float64", "complex64", "complex128"]
# Operand kinds: a strong tensor of a dtype, a weak tensor made from a Python
# value, or the Python value itself.
PY = {"int": 3, "float": 1.5, "complex": 2 + 1j, "bool": True}


def operand(kind):
    if kind.startswith("py_"):
        return PY[kind[3:]]
    if kind.startswith("weak_"):
        return tf.constant(PY[kind[5:]])
    return tf.constant(1 if kind != "bool" else True, dtype=kind)


def describe(value):
    if not hasattr(value, "dtype"):
        return {"python": type(value).__name__}
    return {"dtype": value.dtype.name, "weak": "weak=True" in repr(value)}


def attempt(fn):
    try:
        return describe(fn())
    except Exception as e:  # noqa: BLE001 - the exception type is the fact recorded
        return {"error": type(e).__name__}


def main():
    kinds = STRONG + ["weak_int", "weak_float", "weak_complex", "py_int", "py_float",
                      "py_complex", "py_bool"]
    record = {}
    for mode in ("all", "safe"):
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=mode)
        table = {}
        for a in kinds:
            for b in kinds:
                if a.startswith("py_") and b.startswith("py_"):
                    continue
                table[f"{a},{b}"] = attempt(lambda: operand(a) + operand(b))
        record[mode] = table
        record[mode + "_ops"] = {
            "constant_int": attempt(lambda: tf.constant(5)),
            "constant_list": attempt(lambda: tf.constant([5.0, 10.0, 3])),
            "constant_np": attempt(lambda: tf.constant(np.int16(5))),
            "constant_typed": attempt(lambda: tf.constant(5, tf.int32)),
            "constant_convert": attempt(lambda: tf.constant(tf.constant(10, tf.int16),
                                                            tf.float32)),
            "tnp_array_int": attempt(lambda: tnp.array(1)),
            "tnp_array_float": attempt(lambda: tnp.array(1.0)),
            "abs_list": attempt(lambda: tf.math.abs([100.0, 4.0])),
            "abs_weak": attempt(lambda: tf.math.abs(tf.constant(-3))),
            "neg_weak": attempt(lambda: -tf.constant(5)),
            "sum_list": attempt(lambda: tf.reduce_sum([1, 2])),
            "reshape_weak": attempt(lambda: tf.reshape(tf.constant(5), [1])),
            "cast_weak": attempt(lambda: tf.cast(tf.constant(5), tf.float32)),
            "getitem_weak": attempt(lambda: tf.constant([1, 2])[0]),
            "zeros": attempt(lambda: tf.zeros([2])),
            "variable_plus_int": attempt(lambda: tf.Variable(1.0) + 1),
            "assign_add_int16": attempt(lambda: tf.Variable(10, dtype=tf.int32).assign_add(
                tf.constant(5, tf.int16))),
            "matmul_lists": attempt(lambda: tf.linalg.matmul([[1.0]], [[2.0]])),
            "add_np_int8": attempt(lambda: tf.add(np.array(1, np.int8), tf.constant(1))),
            "pow_weak": attempt(lambda: tf.pow(tf.constant(2), 3)),
            "large_int": attempt(lambda: tf.constant(2 ** 40)),
        }
    OUT.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
