"""The runtime ops under their TensorFlow names (`tf.reduce_sum`,
`tf.nn.relu`, ...), gathered in one namespace for `keras.ops` to build on
without importing the public `runtime` package (the import contracts keep
`runtime/_src` below it)."""

from types import SimpleNamespace

from runtime._src.autodiff import custom_gradient as _custom_gradient
from runtime._src.function import control_flow, higher_order
from runtime._src.ops import (array_ops, bitwise_ops, complex_ops, conv_more_ops, conv_ops,
                              cross_entropy_ops, cumulative_ops, dtype_ops, einsum_ops,
                              gradient_ops, image_ops, linalg_ops, linalg_solve_ops,
                              manipulation_ops, math_ops, matrix_diag_ops, meshgrid_ops, misc_ops,
                              nn_ops, pool_ops, reduction_ops, scatter_ops, segment_ops,
                              shape_ops, sort_ops, special_math_ops, split_slice_ops, tile_ops)

__all__ = ["tf"]


def _gather(*modules):
    names = {}
    for module in modules:
        names.update({k: v for k, v in vars(module).items()
                      if not k.startswith("_") and callable(v)})
    return SimpleNamespace(**names)


tf = _gather(array_ops, bitwise_ops, complex_ops, conv_more_ops, conv_ops, pool_ops, dtype_ops,
             einsum_ops, gradient_ops, image_ops, linalg_ops, linalg_solve_ops, manipulation_ops,
             matrix_diag_ops, misc_ops, reduction_ops, cumulative_ops, scatter_ops, segment_ops,
             shape_ops, split_slice_ops, meshgrid_ops, tile_ops, sort_ops, special_math_ops,
             nn_ops, cross_entropy_ops, math_ops, control_flow, higher_order, _custom_gradient)
