"""`tf.sets`: set operations along the last dimension (defined in
runtime/_src/sparse/sets_ops.py); the results are SparseTensors.

    tf.sets.union(tf.constant([[1, 2]]), tf.constant([[2, 3]]))   # values [1, 2, 3]
"""

from runtime._src.sparse.sets_ops import difference, intersection, size, union

__all__ = ["difference", "intersection", "size", "union"]
