"""`tf.dtypes`: the dtype objects (runtime/_src/core/dtypes.py) and `as_dtype`,
with TF's rules (runtime/_src/ops/dtype_ops.py).

    >>> import runtime as tf
    >>> tf.dtypes.as_dtype("int32") is tf.int32
    True
"""

from types import SimpleNamespace as _Namespace

from runtime._src.core import dtypes as _dtypes
from runtime._src.ops.dtype_ops import as_dtype  # TF's rules (no `int`, enum numbers)
from runtime._src.core.dtypes import (DType, bfloat16, bool, complex64, complex128,
                                      dtype_of_python, float16, float32, float64, int8, int16,
                                      int32, int64, string, uint8, uint16, uint32, uint64,
                                      variant)
from runtime._src.ops.complex_ops import complex
from runtime._src.ops.image_color import saturate_cast
from runtime._src.ops.math_ops import cast

double, half = float64, float16     # TF's other names for them

# tf.dtypes.experimental: the narrow types, the same objects as tf.experimental's
experimental = _Namespace(**{n: getattr(_dtypes, n) for n in (
    "float4_e2m1fn", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2",
    "float8_e5m2fnuz", "int2", "int4", "uint2", "uint4")})

__all__ = ["DType", "as_dtype", "dtype_of_python", "bool", "int8", "int16", "int32", "int64",
           "uint8", "uint16", "uint32", "uint64", "float16", "bfloat16", "float32", "float64",
           "complex64", "complex128", "string", "double", "half", "variant", "cast", "complex",
           "saturate_cast", "experimental"]
