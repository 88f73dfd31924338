"""`tf.experimental.numpy`: the whole namespace, gathered from its modules.

    np_dtypes       dtype names, result_type, asarray (NumPy's inference)
    np_math_ops     elementwise math, comparisons, logic, bitwise
    np_array_ops    creation and shapes
    np_select_ops   selection: take, where, nonzero, sort, clip
    np_reduce_ops   reductions, cumulative ops, products (dot, einsum...)
    np_random       tnp.random
    np_config       experimental_enable_numpy_behavior
    np_indexing     NumPy's indexing of tensors (when enabled)

Values convert as NumPy converts them (`asarray([1, 2])` is int64,
`asarray([1.0])` float64), operands of different dtypes are promoted by
NumPy's rules, and the float functions give float64 for integers, as
TensorFlow's `tf.experimental.numpy` does. Every function returns a `Tensor`,
so gradients and `tf.function` work with it.

    tnp.mean(tnp.asarray([1, 2, 3]))      # 2.0, float64

`keras.ops.numpy` (which has Keras's dtype rules, not NumPy's) calls the
dtype-preserving kernels here for its shape and selection functions
(moveaxis, swapaxes, expand_dims, flip, roll, tile, repeat, ravel,
tril/triu, rot90, take_along_axis, diff, kron, gcd, nextafter's step), so
there is one copy of each.
"""

import numpy as _np

from runtime._src.core.tensor import Tensor as ndarray
from runtime._src.ops import np_random as random
from runtime._src.ops.np_array_ops import *  # noqa: F403 - the namespace, see __all__
from runtime._src.ops.np_array_ops import __all__ as _array_names
from runtime._src.ops.np_config import experimental_enable_numpy_behavior
from runtime._src.ops.np_dtypes import (asanyarray, asarray, array, ascontiguousarray,
                                        bool_, complex64, complex128, complex_, finfo,
                                        float16, float32, float64, float_, iinfo, inexact,
                                        int8, int16, int32, int64, int_, issubdtype,
                                        object_, promote_types, result_type, string_, uint8,
                                        uint16, uint32, uint64, unicode_)
from runtime._src.ops.np_math_ops import *  # noqa: F403
from runtime._src.ops.np_math_ops import __all__ as _math_names
from runtime._src.ops.np_reduce_ops import *  # noqa: F403
from runtime._src.ops.np_reduce_ops import __all__ as _reduce_names
from runtime._src.ops.np_select_ops import *  # noqa: F403
from runtime._src.ops.np_select_ops import __all__ as _select_names

newaxis, pi, e, inf = None, _np.pi, _np.e, _np.inf

__all__ = sorted(set(_array_names) | set(_math_names) | set(_reduce_names) |
                 set(_select_names) | {
    "asanyarray", "asarray", "array", "ascontiguousarray", "bool_", "complex64",
    "complex128", "complex_", "finfo", "float16", "float32", "float64", "float_", "iinfo",
    "inexact", "int8", "int16", "int32", "int64", "int_", "issubdtype", "object_",
    "promote_types", "result_type", "string_", "uint8", "uint16", "uint32", "uint64",
    "unicode_", "ndarray", "random", "experimental_enable_numpy_behavior", "newaxis", "pi",
    "e", "inf"})
