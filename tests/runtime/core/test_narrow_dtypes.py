"""tf.experimental's 8-bit floats and 4-bit integers against TensorFlow 2.21.

The table is tools/record_narrow_dtypes.py's `cases`, TF's results recorded in
tests/data/narrow_dtypes_tf221.npz: casts into float8_e4m3fn/e5m2 (ties to
even, NaN past e4m3fn's 448, inf past e5m2's 57344, subnormals) and out of
them, int4/uint4 wrapping to their low 4 bits, constants, and reshape,
transpose, concat and gather on them; eagerly and inside tf.function. Then
which casts TF's kernels have, and that arithmetic refuses them as TF does.
"""

import ml_dtypes
import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import load, results_fixture

table, DATA, NAMES = load("record_narrow_dtypes")
results = results_fixture(table)
E = tf.experimental
NARROW = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e4m3b11fnuz",
          "float8_e5m2fnuz", "float4_e2m1fn", "int4", "uint4", "int2", "uint2"]


@pytest.mark.parametrize("name", NAMES)
def test_narrow_casts_and_moves_are_tfs_bit_for_bit(results, name):
    dtype, value = results[name]
    assert list(dtype) == list(DATA[f"{name}/0"])
    want = DATA[f"{name}/1"]
    assert value.shape == want.shape and value.dtype == want.dtype
    np.testing.assert_array_equal(value, want)


# TF 2.21: (enum, min, max, is_floating, is_unsigned) of each.
@pytest.mark.parametrize("name, enum, low, high, floating, unsigned", [
    ("float8_e4m3fn", 25, -448, 448, True, False), ("float8_e5m2", 24, -57344, 57344, True, False),
    ("float8_e4m3fnuz", 26, -240, 240, True, False),
    ("float8_e4m3b11fnuz", 27, -30, 30, True, False),
    ("float8_e5m2fnuz", 28, -57344, 57344, True, False), ("int4", 29, -8, 7, False, False),
    ("uint4", 30, 0, 15, False, True), ("int2", 31, -2, 1, False, False),
    ("uint2", 32, 0, 3, False, True), ("float4_e2m1fn", 33, -6, 6, True, False)])
def test_the_dtypes_are_tfs(name, enum, low, high, floating, unsigned):
    d = getattr(E, name)
    assert tf.as_dtype(name) is d and tf.as_dtype(enum) is d and d.as_datatype_enum == enum
    assert (repr(d), str(d), d.size) == (f"tf.{name}", f"<dtype: '{name}'>", 1)
    assert d.as_numpy_dtype is getattr(ml_dtypes, name)
    assert (float(d.min), float(d.max)) == (low, high)
    assert (d.is_floating, d.is_integer, d.is_unsigned) == (floating, not floating, unsigned)


# The casts TF 2.21's CPU kernels have (the rest raise UnimplementedError).
CASTABLE = {
    "float8_e4m3fn": "float8_e4m3fn float8_e5m2 float32 float64 float16 bfloat16 int32 int8 "
                     "int16 int64 uint8 uint16 uint32 uint64 bool complex64",
    "int4": "int4 uint4 int32 int8 int16 int64 uint8 uint16 uint32 uint64",
    "float32": "float8_e4m3fn float8_e5m2", "int64": "int4 uint4",
    "float8_e4m3fnuz": "float8_e4m3fnuz", "int2": "int2", "float4_e2m1fn": "float4_e2m1fn",
}


@pytest.mark.parametrize("source", sorted(CASTABLE))
def test_only_tfs_casts_run(source):
    x = tf.cast(tf.constant([1, 2, 3]), tf.int8 if source == "int4" else tf.float32) \
        if source in NARROW else tf.cast(tf.constant([1, 2, 3]), tf.as_dtype(source))
    x = tf.cast(x, getattr(E, source)) if source in ("float8_e4m3fn", "int4") else x
    if source in ("float8_e4m3fnuz", "int2", "float4_e2m1fn"):
        x = tf.constant(np.array([1, 0, 1], getattr(ml_dtypes, source)))
    for target in NARROW + ["float32", "float64", "float16", "bfloat16", "int32", "uint8",
                            "bool", "complex64"]:
        if source not in NARROW and target not in NARROW:
            continue
        if target in CASTABLE[source].split():
            assert tf.cast(x, tf.as_dtype(target)).dtype.name == target
        else:
            with pytest.raises(tf.errors.UnimplementedError, match="Cast .* to .* is not supp"):
                tf.cast(x, tf.as_dtype(target))


def test_arithmetic_on_them_is_refused_as_in_tf():
    x = tf.cast(tf.constant([1.0, 2.0]), E.float8_e4m3fn)
    with pytest.raises(tf.errors.InvalidArgumentError, match="float8_e4m3fn"):
        x + x
    with pytest.raises(tf.errors.InvalidArgumentError, match="int4"):
        tf.reduce_sum(tf.cast(tf.constant([1, 2]), E.int4))


def test_they_print_as_tf():
    x = tf.cast(tf.constant([0.3, -1.7, 500.0]), E.float8_e4m3fn)
    assert repr(x) == ("<tf.Tensor: shape=(3,), dtype=float8_e4m3fn, numpy=array([0.3125, "
                       "-1.75, nan], dtype='float8_e4m3fn')>")
    assert str(tf.cast(tf.constant([9, -9]), E.int4)) == \
        "tf.Tensor([-7 7], shape=(2,), dtype=int4)"
