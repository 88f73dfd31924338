"""`tf.sparse`: SparseTensors and their ops (defined in runtime/_src/sparse/).

    sp = tf.sparse.SparseTensor(indices=[[0, 1], [2, 3]], values=[1.0, 2.0],
                                dense_shape=[3, 4])
    tf.sparse.to_dense(sp)                        # [[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]
    tf.sparse.sparse_dense_matmul(sp, tf.ones([4, 2]))
    tf.sparse.reduce_sum(sp, axis=1)              # [1, 0, 2]
"""

from runtime._src.sparse.sparse_cross import cross, cross_hashed
from runtime._src.sparse.sparse_more import (bincount, expand_dims, eye, fill_empty_rows,
                                             map_values, mask, maximum, minimum, reset_shape,
                                             retain, sampled_addmm, segment_mean,
                                             segment_sqrt_n, segment_sum, softmax, split,
                                             to_indicator, transpose)
from runtime._src.sparse.sparse_more import reshape_sparse as reshape
from runtime._src.sparse.sparse_more import slice_sparse as slice
from runtime._src.sparse.sparse_ops import (add, concat, from_dense, reduce_max, reduce_sum,
                                            reorder, sparse_dense_matmul, to_dense)
from runtime._src.sparse.sparse_tensor import SparseTensor

__all__ = ["SparseTensor", "add", "bincount", "concat", "cross", "cross_hashed", "expand_dims",
           "eye", "fill_empty_rows", "from_dense", "map_values", "mask", "maximum", "minimum",
           "reduce_max", "reduce_sum", "reorder", "reset_shape", "reshape", "retain",
           "sampled_addmm", "segment_mean", "segment_sqrt_n", "segment_sum", "slice",
           "softmax", "sparse_dense_matmul", "split", "to_dense", "to_indicator", "transpose"]
