"""The `tf.math` namespace: elementwise math, comparisons, logic, reductions.

    >>> import runtime as tf
    >>> tf.math.floormod(tf.constant([5, -5]), 3)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 1], dtype=int32)>

Every name is defined in `runtime._src.ops`; this module only gathers them under
TensorFlow's `tf.math.` spelling (explicit imports, one place to grep).

`math.special` holds the special functions TF keeps there (Bessel J, Y, K,
Dawson, Ei, Fresnel, Spence), as a namespace object like `config.experimental`.
"""

import types

from runtime._src.ops.math_ops import (abs, acos, acosh, add, add_n, asin, asinh, atan,
                                       atan2, atanh, ceil, cos, cosh, divide, equal, erf,
                                       erfc, exp, expm1, floor, floordiv, floormod, greater,
                                       greater_equal, is_finite, is_inf, is_nan, less,
                                       less_equal, log, log1p, logical_and, logical_not,
                                       logical_or, maximum, minimum, mod, multiply, negative,
                                       not_equal, pow, reciprocal, rint, round, rsqrt, sign,
                                       sin, sinh, sqrt, square, squared_difference, subtract,
                                       tan, tanh, truediv)
from runtime._src.ops.math_ops import matmul  # tf.linalg.matmul, also reachable here
from runtime._src.ops.nn_ops import (log_sigmoid, log_softmax, sigmoid, softmax, softplus,
                                     softsign)
from runtime._src.ops.bitwise_ops import logical_xor
from runtime._src.ops.complex_ops import angle, conj, imag, real
from runtime._src.ops.sort_ops import top_k
from runtime._src.ops.reduction_ops import (argmax, argmin, reduce_all, reduce_any, reduce_max,
                                            reduce_mean, reduce_min, reduce_prod, reduce_sum)
from runtime._src.ops.special_math_ops import (cumulative_logsumexp, digamma,
                                               divide_no_nan, lbeta, lgamma, multiply_no_nan,
                                               polyval, xlog1py, xlogy)
from runtime._src.ops.segment_ops import (bincount, confusion_matrix, segment_max,
                                          segment_mean, segment_min, segment_prod, segment_sum,
                                          unsorted_segment_max, unsorted_segment_mean,
                                          unsorted_segment_min, unsorted_segment_prod,
                                          unsorted_segment_sqrt_n, unsorted_segment_sum)
from runtime._src.ops.reduction_ops import (count_nonzero, cumprod, cumsum,
                                            l2_normalize, reduce_euclidean_norm,
                                            reduce_logsumexp, reduce_std, reduce_variance)
from runtime._src.ops.special_ops import (bessel_i0, bessel_i0e, bessel_i1, bessel_i1e,
                                          bessel_j0, bessel_j1, bessel_k0, bessel_k0e,
                                          bessel_k1, bessel_k1e, bessel_y0, bessel_y1,
                                          betainc, dawsn, erfcinv, erfinv, expint,
                                          fresnel_cos, fresnel_sin, igamma, igammac, ndtri,
                                          polygamma, spence, zeta)
from runtime._src.ops.math_more_ops import (accumulate_n, approx_max_k, approx_min_k,
                                            in_top_k, invert_permutation, is_non_decreasing,
                                            is_strictly_increasing, nextafter,
                                            reciprocal_no_nan, scalar_mul, xdivy,
                                            zero_fraction)

special = types.SimpleNamespace(
    bessel_i0=bessel_i0, bessel_i0e=bessel_i0e, bessel_i1=bessel_i1, bessel_i1e=bessel_i1e,
    bessel_j0=bessel_j0, bessel_j1=bessel_j1, bessel_y0=bessel_y0, bessel_y1=bessel_y1,
    bessel_k0=bessel_k0, bessel_k0e=bessel_k0e, bessel_k1=bessel_k1, bessel_k1e=bessel_k1e,
    dawsn=dawsn, expint=expint, fresnel_cos=fresnel_cos, fresnel_sin=fresnel_sin,
    spence=spence,
)
del bessel_j0, bessel_j1, bessel_y0, bessel_y1, bessel_k0, bessel_k0e, bessel_k1, bessel_k1e
del dawsn, expint, fresnel_cos, fresnel_sin, spence
