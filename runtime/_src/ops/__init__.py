"""Layer 3, ops: op definitions, one module per family. Importing this package
registers every op in `graph.op_registry.OPS` and fills `core.tensor.dispatch`,
the table behind tensors' Python operators (`a + b`, `a[i]`, `a & b`, ...)."""

from runtime._src.core import tensor as _tensor
from runtime._src.ops import base_ops, math_ops, array_ops, tile_ops
from runtime._src.ops import (arithmetic_ops, unary_math_ops, comparison_ops, matmul_ops,
                             where_cast_ops)
from runtime._src.ops import reduction_ops, cumulative_ops, nn_ops, cross_entropy_ops
from runtime._src.ops import conv_ops, pool_ops, bitwise_ops
from runtime._src.ops import shape_ops, shape_args, split_slice_ops, meshgrid_ops
from runtime._src.ops import scatter_ops, sort_ops, einsum_ops, dtype_ops
from runtime._src.ops import matrix_diag_ops, linalg_ops, linalg_solve_ops, clip_ops
from runtime._src.ops import complex_ops
from runtime._src.ops import (image_resize, image_hsv, image_nms, image_crops,
                             image_metrics, image_random, image_codecs)
from runtime._src.ops import (special_math_ops, segment_ops, random_dist_ops,
                             conv_more_ops, image_ops, io_ops, misc_ops, text_ops)
from runtime._src.ops import rnn_ops, lookup_ops, quantization_ops
from runtime._src.ops import tensor_array_ops, tensor_array_grad_ops
from runtime._src.ops import (fft_ops, signal_dct, signal_frames, signal_spectral,
                             signal_windows)
from runtime._src.ops import fractional_pool_ops, numerics_check
from runtime._src.ops import bfloat16_ops     # after every op: wraps some kernels

_d = _tensor.dispatch
_d.add, _d.subtract, _d.multiply = math_ops.add, math_ops.subtract, math_ops.multiply
_d.truediv, _d.floordiv, _d.floormod = math_ops.truediv, math_ops.floordiv, math_ops.floormod
_d.pow, _d.matmul = math_ops.pow, math_ops.matmul
_d.negative, _d.abs = math_ops.negative, math_ops.abs
_d.less, _d.less_equal = math_ops.less, math_ops.less_equal
_d.greater, _d.greater_equal = math_ops.greater, math_ops.greater_equal
_d.equal, _d.not_equal = math_ops.equal, math_ops.not_equal
_d.and_, _d.or_, _d.xor_, _d.invert_ = (bitwise_ops.and_, bitwise_ops.or_, bitwise_ops.xor_,
                                        bitwise_ops.invert_)
_d.left_shift, _d.right_shift = bitwise_ops.left_shift, bitwise_ops.right_shift
_d.getitem, _d.stack_nested = array_ops.getitem, array_ops.stack_nested
assert all(hasattr(_d, name) for name in _tensor.DISPATCHED), "core.tensor.dispatch incomplete"
del _d
