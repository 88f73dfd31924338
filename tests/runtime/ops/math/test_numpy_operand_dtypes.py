"""A numpy scalar or 0-d array as the first operand fixes an eager op's dtype, as
in TF 2.21 (its tf_numpy_type_promotion guide: tf.add(np.array(1, np.int8),
tf.constant(1)) is an InvalidArgumentError); operators and other values take the
tensor's dtype. TF 2.21's recorded results."""

import numpy as np
import pytest

import runtime as tf

_F32 = tf.constant([1.0])
CASES = [
    ("add np.float64 scalar", lambda: tf.add(np.float64(1.5), tf.constant(1.0)),
     "cannot compute AddV2 as input #1(zero-based) was expected to be a double tensor but "
     "is a float tensor [Op:AddV2] name: "),
    ("add 0-d int8", lambda: tf.add(np.array(1, dtype=np.int8), tf.constant(1)),
     "cannot compute AddV2 as input #1(zero-based) was expected to be a int8 tensor but is "
     "a int32 tensor [Op:AddV2] name: "),
    ("add np.float32 scalar", lambda: tf.add(np.float32(1.5), tf.constant(1.0)), 2.5),
    ("mul int64 array", lambda: tf.multiply(np.array([1, 2]), tf.constant([1, 2])), [1, 4]),
    ("maximum float64 array", lambda: tf.maximum(np.array([1.5]), _F32), [1.5]),
    ("subtract list", lambda: tf.subtract([1.5], _F32), [0.5]),
    ("radd", lambda: np.array([1.5]) + _F32, [2.5]),
    ("rsub 0-d int8", lambda: np.array(1, np.int8) - tf.constant(1), 0),
    ("tensor first", lambda: tf.add(_F32, np.array([1.5])), [2.5]),
]


@pytest.mark.parametrize("case, fn, want", CASES, ids=[c[0] for c in CASES])
def test_numpy_first_operand_as_tf(case, fn, want):
    if isinstance(want, str):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            fn()
        assert str(info.value) == want
    else:
        got = fn()
        assert got.numpy().tolist() == want and got.dtype in (tf.float32, tf.int32)


def test_numpy_behaviour_keeps_numpy_promotion_of_a_reflected_operand():
    # TF 2.21's guide, dtype_conversion_mode="legacy":
    # np.array(3.2, np.float16) + tf.constant(1, tf.int8) + tf.constant(50) is float64 54.19921875
    import runtime.experimental.numpy as tnp
    from runtime._src.ops.np_config import disable_numpy_behavior
    tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="legacy")
    try:
        got = np.array(3.2, np.float16) + tf.constant(1, tf.int8) + tf.constant(50)
        assert got.dtype == tf.float64 and float(got) == 54.19921875
        with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a int8 tensor"):
            tf.add(np.array(1, dtype=np.int8), tf.constant(1))
    finally:
        disable_numpy_behavior()
