"""Every gradient rule against central finite differences in float64, on
random inputs, eagerly and inside tf.function (tests/runtime/gradient_check.py)."""

import numpy as np
import pytest

import runtime as tf
from tests.runtime.gradient_check import check_gradients, check_second_order

rng = np.random.default_rng(42)


def r(*shape, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, shape)


def pos(*shape):
    return r(*shape, lo=0.5, hi=2.0)


def unit(*shape):
    return r(*shape, lo=-0.8, hi=0.8)


def away_from_zero(*shape):
    return r(*shape, lo=0.2, hi=1.0) * rng.choice([-1.0, 1.0], shape)


W62, W312, W23 = tf.constant(r(6, 2)), tf.constant(r(3, 1, 2)), tf.constant(r(2, 3))
W35, W27 = tf.constant(r(3, 5)), tf.constant(r(2, 5))
W56, W65, EYE3 = tf.constant(r(6, 6)), tf.constant(r(6, 5)), tf.constant(np.eye(3))
SORTED_IDS, UNSORTED_IDS = tf.constant([0, 0, 2, 2, 3]), tf.constant([2, 0, 2, -1, 0])



def _sparse_xent(x):
    # (a named function: autograph mis-converts a lambda whose call spans lines)
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([1, 0, 3]), logits=x)


# name: (function, argument values)
CASES = {
    # elementwise binary, with broadcasting
    "add": (tf.add, [r(3, 4), r(4)]),
    "add_broadcast_both": (tf.add, [r(3, 1), r(1, 4)]),
    "subtract": (tf.subtract, [r(2, 3), r(2, 1)]),
    "multiply": (tf.multiply, [r(3, 4), r(3, 4)]),
    "multiply_scalar": (tf.multiply, [r(3, 4), r()]),
    "truediv": (tf.truediv, [r(3, 4), away_from_zero(4)]),
    "floormod": (tf.math.floormod, [pos(5) + 0.05, np.full(5, 0.7)]),
    "pow": (tf.pow, [pos(3, 2), r(3, 2)]),
    "maximum": (tf.maximum, [r(4, 3), r(3)]),
    "minimum": (tf.minimum, [r(4, 3), r(4, 1)]),
    "squared_difference": (tf.math.squared_difference, [r(3, 2), r(2)]),
    "atan2": (tf.atan2, [r(4), away_from_zero(4)]),
    "add_n": (lambda a, b, c: tf.add_n([a, b, c]), [r(2, 3), r(2, 3), r(2, 3)]),
    "clip_by_value": (tf.clip_by_value, [r(10) * 2, np.array(-0.6), np.array(0.7)]),
    # elementwise unary
    "negative": (tf.negative, [r(3)]),
    "abs": (tf.abs, [away_from_zero(5)]),
    "square": (tf.square, [r(3, 2)]),
    "sqrt": (tf.sqrt, [pos(4)]),
    "exp": (tf.exp, [r(4)]),
    "log": (tf.math.log, [pos(4)]),
    "tanh": (tf.tanh, [r(4)]),
    "sin": (tf.sin, [r(4)]), "cos": (tf.cos, [r(4)]), "tan": (tf.tan, [r(4)]),
    "asin": (tf.asin, [unit(4)]), "acos": (tf.acos, [unit(4)]), "atan": (tf.atan, [r(4)]),
    "sinh": (tf.sinh, [r(4)]), "cosh": (tf.cosh, [r(4)]), "asinh": (tf.asinh, [r(4)]),
    "acosh": (tf.acosh, [pos(4) + 1.0]), "atanh": (tf.atanh, [unit(4)]),
    "expm1": (tf.math.expm1, [r(4)]), "log1p": (tf.math.log1p, [pos(4)]),
    "rsqrt": (tf.math.rsqrt, [pos(4)]), "reciprocal": (tf.math.reciprocal, [away_from_zero(4)]),
    "erf": (tf.math.erf, [r(4)]), "erfc": (tf.math.erfc, [r(4)]),
    "sigmoid": (tf.sigmoid, [r(5) * 3]),
    "identity": (tf.identity, [r(3)]),
    "where": (lambda x, y: tf.where(x > 0, x, y), [r(6), r(6)]),
    "where_broadcast": (lambda x, y: tf.where(x > 0, x, y), [r(2, 3), r(3)]),
    # matmul
    "matmul": (tf.matmul, [r(3, 4), r(4, 2)]),
    "matmul_ta": (lambda a, b: tf.matmul(a, b, transpose_a=True), [r(4, 3), r(4, 2)]),
    "matmul_tb": (lambda a, b: tf.matmul(a, b, transpose_b=True), [r(3, 4), r(2, 4)]),
    "matmul_tab": (lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True),
                   [r(4, 3), r(2, 4)]),
    "matmul_batched": (tf.matmul, [r(2, 3, 4), r(4, 2)]),
    # reductions and scans
    "reduce_sum": (lambda x: tf.reduce_sum(x, axis=1), [r(3, 4)]),
    "reduce_sum_all": (tf.reduce_sum, [r(3, 4)]),
    "reduce_sum_keepdims": (lambda x: tf.reduce_sum(x, axis=[0, 2], keepdims=True),
                            [r(2, 3, 4)]),
    "reduce_mean": (lambda x: tf.reduce_mean(x, axis=-1), [r(3, 4)]),
    "reduce_mean_all": (tf.reduce_mean, [r(3, 4)]),
    "reduce_max": (lambda x: tf.reduce_max(x, axis=0), [r(4, 3)]),
    "reduce_min": (lambda x: tf.reduce_min(x, axis=1, keepdims=True), [r(4, 3)]),
    "reduce_prod": (lambda x: tf.reduce_prod(x, axis=1), [away_from_zero(3, 4)]),
    "reduce_logsumexp": (lambda x: tf.reduce_logsumexp(x, axis=1), [r(3, 4)]),
    "reduce_variance": (lambda x: tf.math.reduce_variance(x, axis=0), [r(5, 2)]),
    "reduce_std": (lambda x: tf.math.reduce_std(x, axis=1), [r(2, 5)]),
    "norm": (lambda x: tf.norm(x, axis=1), [r(3, 4)]),
    "euclidean_norm": (lambda x: tf.math.reduce_euclidean_norm(x, axis=0), [r(3, 4)]),
    "cumsum": (lambda x: tf.cumsum(x, axis=1), [r(3, 4)]),
    "cumsum_exclusive_reverse": (lambda x: tf.cumsum(x, axis=0, exclusive=True, reverse=True),
                                 [r(4, 2)]),
    "cumprod": (lambda x: tf.math.cumprod(x, axis=1), [away_from_zero(2, 4)]),
    # shapes and indexing
    "reshape": (lambda x: tf.reshape(x, [6, 2]) * W62, [r(3, 4)]),
    "transpose": (lambda x: tf.transpose(x, [1, 2, 0]), [r(2, 3, 4)]),
    "transpose_default": (tf.transpose, [r(2, 3)]),
    "concat": (lambda a, b: tf.concat([a, b, a], axis=1), [r(2, 3), r(2, 1)]),
    "stack": (lambda a, b: tf.stack([a, b], axis=1), [r(2, 3), r(2, 3)]),
    "unstack": (lambda x: tf.unstack(x, axis=1)[0] * 2 + tf.unstack(x, axis=1)[2], [r(2, 3)]),
    "gather": (lambda x: tf.gather(x, [2, 0, 2], axis=1), [r(3, 4)]),
    "gather_batch": (lambda x: tf.gather(x, [[0, 1], [2, 2]], axis=1, batch_dims=1),
                     [r(2, 3, 2)]),
    "getitem": (lambda x: x[1:, ::2] * 3 + x[0, None, :2], [r(3, 4)]),
    "getitem_ellipsis": (lambda x: x[..., 1], [r(2, 3, 4)]),
    "tile": (lambda x: tf.tile(x, [2, 3]), [r(2, 2)]),
    "expand_dims": (lambda x: tf.expand_dims(x, 1) * W312, [r(3, 2)]),
    "squeeze": (lambda x: tf.squeeze(x, [1]), [r(3, 1, 2)]),
    "fill": (lambda v: tf.fill([2, 3], v) * W23, [r()]),
    # nn
    "relu": (tf.nn.relu, [away_from_zero(6)]),
    "relu6": (tf.nn.relu6, [away_from_zero(6) * 4 + 2]),
    "elu": (tf.nn.elu, [away_from_zero(6)]),
    "selu": (tf.nn.selu, [away_from_zero(6)]),
    "leaky_relu": (lambda x: tf.nn.leaky_relu(x, 0.3), [away_from_zero(6)]),
    "softplus": (tf.nn.softplus, [r(5)]),
    "softsign": (tf.nn.softsign, [r(5)]),
    "gelu": (tf.nn.gelu, [r(5)]),
    "silu": (tf.nn.silu, [r(5)]),
    "softmax": (tf.nn.softmax, [r(3, 4)]),
    "softmax_axis0": (lambda x: tf.nn.softmax(x, axis=0), [r(3, 4)]),
    "log_softmax": (tf.nn.log_softmax, [r(3, 4)]),
    "bias_add": (tf.nn.bias_add, [r(2, 3), r(3)]),
    "bias_add_nchw": (lambda v, b: tf.nn.bias_add(v, b, data_format="NCHW"), [r(2, 3, 2), r(3)]),
    "l2_loss": (tf.nn.l2_loss, [r(3, 2)]),
    "sparse_xent": (_sparse_xent, [r(3, 4)]),
    "softmax_xent": (lambda x, y: tf.nn.softmax_cross_entropy_with_logits(y, x),
                     [r(3, 4), pos(3, 4)]),
    "sigmoid_xent": (lambda x, y: tf.nn.sigmoid_cross_entropy_with_logits(y, x),
                     [r(3, 4), r(3, 4, lo=0, hi=1)]),
    "weighted_xent": (lambda x, y: tf.nn.weighted_cross_entropy_with_logits(y, x, 2.0),
                      [r(3, 4), r(3, 4, lo=0, hi=1)]),
    "l2_normalize": (lambda x: tf.math.l2_normalize(x, axis=1), [r(2, 3)]),
    "stop_gradient": (lambda x: tf.stop_gradient(x) * 0 + x * x, [r(3)]),
    # convolution and pooling
    "conv2d_same": (lambda x, f: tf.nn.conv2d(x, f, 1, "SAME"), [r(2, 5, 4, 3), r(3, 2, 3, 2)]),
    "conv2d_valid_stride": (lambda x, f: tf.nn.conv2d(x, f, 2, "VALID"),
                            [r(1, 6, 5, 2), r(2, 2, 2, 3)]),
    "conv2d_dilated": (lambda x, f: tf.nn.conv2d(x, f, 1, "SAME", dilations=2),
                       [r(1, 5, 5, 1), r(2, 2, 1, 2)]),
    "conv2d_nchw": (lambda x, f: tf.nn.conv2d(x, f, 1, "SAME", data_format="NCHW"),
                    [r(1, 2, 4, 4), r(3, 3, 2, 2)]),
    "max_pool2d_same": (lambda x: tf.nn.max_pool2d(x, 2, 2, "SAME"), [r(2, 5, 5, 3)]),
    "max_pool2d_valid": (lambda x: tf.nn.max_pool2d(x, 3, 1, "VALID"), [r(1, 5, 4, 2)]),
    "avg_pool2d_same": (lambda x: tf.nn.avg_pool2d(x, 3, 2, "SAME"), [r(2, 5, 5, 2)]),
    "avg_pool2d_valid": (lambda x: tf.nn.avg_pool2d(x, 2, 1, "VALID"), [r(1, 4, 4, 1)]),
    # more shapes
    "broadcast_to": (lambda x: tf.broadcast_to(x, [3, 2, 4]), [r(2, 1)]),
    "pad": (lambda x: tf.pad(x, [[1, 0], [2, 1]]) * W35, [r(2, 2)]),
    "reverse": (lambda x: tf.reverse(x, [1]) * W23, [r(2, 3)]),
    "roll": (lambda x: tf.roll(x, [1, -1], [0, 1]) * W23, [r(2, 3)]),
    "split": (lambda x: tf.split(x, 3, axis=1)[1] * 2 + tf.split(x, 3, axis=1)[2], [r(2, 6)]),
    "split_sizes": (lambda x: tf.split(x, [1, 3], axis=0)[1], [r(4, 2)]),
    "slice": (lambda x: tf.slice(x, [1, 0], [1, 2]), [r(3, 4)]),
    "repeat": (lambda x: tf.repeat(x, [2, 0, 3], axis=1) * W27, [r(2, 3)]),
    "repeat_flat": (lambda x: tf.repeat(x, 2), [r(2, 2)]),
    # gather / scatter / sort
    "gather_nd": (lambda x: tf.gather_nd(x, [[0, 1], [2, 0], [0, 1]]), [r(3, 2)]),
    "scatter_nd": (lambda u: tf.scatter_nd([[1], [3], [1]], u, [4, 2]), [r(3, 2)]),
    "tensor_scatter_update": (lambda t, u: tf.tensor_scatter_nd_update(t, [[0], [2]], u),
                              [r(3, 2), r(2, 2)]),
    "tensor_scatter_add": (lambda t, u: tf.tensor_scatter_nd_add(t, [[1], [1]], u),
                           [r(3, 2), r(2, 2)]),
    "tensor_scatter_sub": (lambda t, u: tf.tensor_scatter_nd_sub(t, [[2, 1]], u), [r(3, 2), r(1)]),
    "top_k": (lambda x: tf.math.top_k(x, 2).values, [r(3, 5)]),
    "einsum_matmul": (lambda a, b: tf.einsum("ij,jk->ik", a, b), [r(2, 3), r(3, 4)]),
    "einsum_reduce_only_one": (lambda a, b: tf.einsum("ij,k->k", a, b), [r(2, 3), r(4)]),
    "einsum_batch_transpose": (lambda a, b: tf.einsum("bij,bkj->bki", a, b),
                               [r(2, 3, 4), r(2, 2, 4)]),
    # matrices
    "band_part": (lambda x: tf.linalg.band_part(x, 1, 0), [r(3, 3)]),
    "tensor_diag": (tf.linalg.tensor_diag, [r(3)]),
    "tensor_diag_part": (tf.linalg.tensor_diag_part, [r(3, 3)]),
    "inv": (tf.linalg.inv, [r(3, 3) + 3 * np.eye(3)]),
    "inv_adjoint": (lambda x: tf.linalg.inv(x, adjoint=True), [r(2, 3, 3) + 3 * np.eye(3)]),
    "det": (tf.linalg.det, [r(2, 3, 3) + 2 * np.eye(3)]),
    "slogdet": (lambda x: tf.linalg.slogdet(x)[1], [r(3, 3) + 2 * np.eye(3)]),
    "solve": (tf.linalg.solve, [r(3, 3) + 3 * np.eye(3), r(3, 2)]),
    "solve_adjoint": (lambda a, b: tf.linalg.solve(a, b, adjoint=True),
                      [r(3, 3) + 3 * np.eye(3), r(3, 2)]),
    "cholesky": (lambda a: tf.linalg.cholesky(tf.matmul(a, a, transpose_b=True) + 3 * EYE3),
                 [r(3, 3)]),
    "triangular_solve": (tf.linalg.triangular_solve, [r(3, 3) + 3 * np.eye(3), r(3, 2)]),
    "triangular_solve_upper_adjoint": (
        lambda a, b: tf.linalg.triangular_solve(a, b, lower=False, adjoint=True),
        [r(3, 3) + 3 * np.eye(3), r(3, 2)]),
    "mirror_pad_reflect": (lambda x: tf.pad(x, [[2, 1], [1, 2]], "REFLECT") * W56, [r(3, 3)]),
    "mirror_pad_symmetric": (lambda x: tf.pad(x, [[1, 2], [2, 0]], "SYMMETRIC") * W65, [r(3, 3)]),
    # segments (sorted ids and unsorted ones with a dropped -1 and an empty segment)
    "segment_sum": (lambda x: tf.math.segment_sum(x, SORTED_IDS), [r(5, 2)]),
    "segment_max": (lambda x: tf.math.segment_max(x, SORTED_IDS), [r(5, 2)]),
    "segment_min": (lambda x: tf.math.segment_min(x, SORTED_IDS), [r(5, 2)]),
    "segment_prod": (lambda x: tf.math.segment_prod(x, SORTED_IDS), [away_from_zero(5, 2)]),
    "unsorted_segment_min": (  # no empty segment: its value is the dtype's max
        lambda x: tf.math.unsorted_segment_min(x, tf.constant([2, 0, 1, -1, 0]), 3), [r(5, 2)]),
    "unsorted_segment_prod": (lambda x: tf.math.unsorted_segment_prod(x, UNSORTED_IDS, 4),
                              [away_from_zero(5, 2)]),
    "unsorted_segment_sqrt_n": (lambda x: tf.math.unsorted_segment_sqrt_n(x, UNSORTED_IDS, 4),
                                [r(5, 2)]),
    # safe arithmetic
    "log_sigmoid": (tf.math.log_sigmoid, [r(5) * 3]),
    "multiply_no_nan": (tf.math.multiply_no_nan, [r(3, 2), r(2)]),
    "xlog1py": (tf.math.xlog1py, [r(4), pos(4)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rule_matches_finite_differences(name):
    fn, values = CASES[name]
    check_gradients(fn, values)


# Gradients of gradients (nested tapes), eagerly and in tf.function.
SECOND_ORDER = {
    "multiply": (tf.multiply, [r(3, 2), r(2)]),
    "truediv": (tf.truediv, [r(3), away_from_zero(3)]),
    "add_sub": (lambda x, y: (x + y) * (x - y), [r(3), r(3)]),
    "square_sqrt": (lambda x: tf.square(x) * tf.sqrt(x), [pos(4)]),
    "exp_log": (lambda x: tf.exp(x) * tf.math.log(x), [pos(4)]),
    "tanh": (tf.tanh, [r(4)]),
    "sin_cos": (lambda x: tf.sin(x) * tf.cos(x), [r(4)]),
    "sigmoid": (tf.sigmoid, [r(4)]),
    "pow": (tf.pow, [pos(3), r(3)]),
    "matmul": (lambda a, b: tf.tanh(tf.matmul(a, b)), [r(3, 4), r(4, 2)]),
    "matmul_transposed": (lambda a, b: tf.sin(tf.matmul(a, b, transpose_b=True)),
                          [r(3, 4), r(2, 4)]),
    "reduce_mean_softmax": (lambda x: tf.nn.softmax(x) * tf.reduce_mean(x, axis=1, keepdims=True),
                            [r(2, 3)]),
    "relu_mlp": (lambda x, w: tf.nn.relu(tf.matmul(x, w)) ** 2, [r(2, 3), away_from_zero(3, 2)]),
    "sparse_xent": (_sparse_xent, [r(3, 4)]),
    "conv2d": (lambda x, f: tf.nn.conv2d(x, f, 1, "SAME") ** 2, [r(1, 4, 4, 2), r(2, 2, 2, 2)]),
    "avg_pool2d": (lambda x: tf.nn.avg_pool2d(x * x, 2, 1, "SAME"), [r(1, 3, 3, 1)]),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_order_matches_finite_differences(name):
    fn, values = SECOND_ORDER[name]
    check_second_order(fn, values)
