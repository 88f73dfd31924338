"""Layer beside ragged, above ops: `tf.SparseTensor`, `tf.SparseTensorSpec`,
the `tf.sparse` ops and `tf.sets` (whose results are SparseTensors).

A SparseTensor is a composite (runtime/_src/core/composite.py) of three
ordinary tensors, indices, values and dense_shape, so every op on it is an
ordinary op over them and it passes through `tf.function` by its spec.

Importing this package also makes `dense * sparse` a SparseTensor (TF's
Tensor.__mul__ does so): `core.tensor.dispatch.multiply` is wrapped once here.
"""

from runtime._src.core import tensor as _tensor
from runtime._src.sparse import (ctc_decode, edit_distance, embedding_sparse,  # noqa: F401
                                 sets_ops, sparse_cross, sparse_cwise, sparse_more,
                                 sparse_ops, sparse_tensor)

_multiply = _tensor.dispatch.multiply


def _multiply_dispatch(x, y):
    """`x * y` of tensors; a dense x times a SparseTensor y is sparse, as in TF."""
    if y.__class__ is sparse_tensor.SparseTensor:
        return sparse_cwise.cwise_with_dense(y, x, "Mul")
    return _multiply(x, y)


_tensor.dispatch.multiply = _multiply_dispatch
