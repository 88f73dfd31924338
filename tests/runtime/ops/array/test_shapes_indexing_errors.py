"""Errors of the shapes-and-indexing family: the exception type TF raises and a
message naming the op and what is wrong, eagerly (a kernel's
InvalidArgumentError, or the Python-level ValueError/TypeError TF raises before
any op runs) and while tracing (ValueError/TypeError from the shape rules)."""

import numpy as np
import pytest

import runtime as tf

IAE = tf.errors.InvalidArgumentError
X3 = np.arange(24, dtype=np.int32).reshape(2, 3, 4)


def x3():
    return tf.constant(X3)


EAGER = [
    # pad
    (lambda: tf.pad(tf.constant([1, 2, 3]), [[3, 0]], mode="REFLECT"), IAE,
     "MirrorPad: paddings must be less than the dimension size: 3, 0 not less than 3"),
    (lambda: tf.pad(tf.constant([1, 2, 3]), [[0, 4]], mode="SYMMETRIC"), IAE,
     "MirrorPad: paddings must be no greater than the dimension size: 0, 4 greater than 3"),
    (lambda: tf.pad(tf.zeros([0]), [[0, 0]], mode="reflect"), IAE, "0, 0 not less than 0"),
    (lambda: tf.pad(tf.constant([1, 2, 3]), [[1, 2]], mode="wrap"), ValueError,
     "expected to be one of \"CONSTANT\", \"REFLECT\", or \"SYMMETRIC\". Received `mode` = WRAP"),
    (lambda: tf.pad(tf.constant([1, 2, 3]), [[-1, 2]]), IAE,
     "PadV2: Paddings must be non-negative: -1 2"),
    (lambda: tf.pad(tf.constant([1, 2, 3]), [[1, 2], [1, 1]]), IAE,
     r"The first dimension of paddings must be the rank of inputs\[2,2\] \[3\]"),
    (lambda: tf.pad(tf.ones([2]), [[1, 1]], constant_values=tf.constant(2)), IAE,
     "PadV2: constant_values must have the dtype of the tensor"),
    (lambda: tf.pad(tf.ones([2]), [[1.5, 1]]), TypeError, "Pad: paddings must hold integers"),
    # broadcast
    (lambda: tf.broadcast_to([1, 2, 3], [2, 4]), IAE,
     r"BroadcastTo: Incompatible shapes: \[3\] vs. \[2,4\]"),
    (lambda: tf.broadcast_to(tf.ones([2, 3]), [3]), IAE,
     r"Rank of input \(2\) must be no greater than rank of output shape \(1\)"),
    (lambda: tf.broadcast_static_shape(tf.TensorShape([4, 3]), tf.TensorShape([2, 1])),
     ValueError, r"Incompatible shapes for broadcasting.*Received: \(4, 3\) and \(2, 1\)"),
    (lambda: tf.broadcast_dynamic_shape([4, 2], [3]), IAE, "BroadcastArgs: Incompatible shapes"),
    # reverse / roll / repeat
    (lambda: tf.reverse([[1, 2]], axis=[1, -1]), IAE, "ReverseV2: axis 1 specified more than once"),
    (lambda: tf.reverse([[1, 2]], axis=[2]), IAE,
     r"ReverseV2: 'axis'\[0\] = 2 is out of valid range \[0, 1"),
    (lambda: tf.reverse([1, 2], axis=0), IAE, "ReverseV2: 'dims' must be 1-dimension, not 0"),
    (lambda: tf.roll([1, 2, 3], shift=[1, 1], axis=[0]), IAE,
     "Roll: shift and axis must have the same size"),
    (lambda: tf.roll(5, shift=1, axis=0), IAE, "Roll: input must be 1-D or higher"),
    (lambda: tf.roll([1, 2, 3], shift=1, axis=1), IAE, "Roll: axis 1 is out of range"),
    (lambda: tf.roll([1, 2, 3], shift=1.0, axis=0), TypeError, "Roll: shift must hold integers"),
    (lambda: tf.repeat([[1, 2], [3, 4]], [1, 2, 3], axis=0), IAE,
     "Repeat: Dimensions 2 and 3 are not compatible"),
    (lambda: tf.repeat([1, 2], 2, axis=1), IAE, "Repeat: axis=1 out of bounds: expected -1<=axis<1"),
    (lambda: tf.repeat([1, 2], [[1, 2]]), ValueError, r"Shape \(1, 2\) must have rank at most 1"),
    (lambda: tf.repeat([1, 2], 2.0), TypeError, "Repeat: repeats must be of type integer"),
    (lambda: tf.repeat([1, 2], -1), IAE, "Repeat: repeats must be >= 0"),
    # split / unstack / slice
    (lambda: tf.split(x3(), 3, axis=2), IAE,
     r"Split: Number of ways to split should evenly divide the split dimension, but got "
     r"split_dim 2 \(size = 4\) and num_split 3"),
    (lambda: tf.split(x3(), [1, 1], axis=2), IAE, "SplitV: Determined shape must either match.*Got: 2"),
    (lambda: tf.split(x3(), [-1, -1], axis=2), IAE, "SplitV: There can only be one -1 in the input"),
    (lambda: tf.split(x3(), tf.constant(2)), ValueError,
     "Rank-0 tensors are not supported as the num_or_size_splits argument to split"),
    (lambda: tf.split(x3(), 0), IAE, "Split: num_split 0 must be at least minimum 1"),
    (lambda: tf.split(tf.constant(1), 1), IAE, "Split: -input rank"),
    (lambda: tf.unstack(x3(), num=3), IAE, r"Unpack: Input shape axis 0 must equal 3, got shape \[2,3,4\]"),
    (lambda: tf.slice(x3(), [0, 1, 0], [3, 2, -1]), IAE, r"Slice: Expected size\[0\] in \[0, 2\], but got 3"),
    (lambda: tf.slice(x3(), [-1, 1, 0], [1, 2, -1]), IAE, r"Slice: Expected begin\[0\] in \[0, 2\], but got -1"),
    (lambda: tf.slice(x3(), [0, 1, 0], [-2, 2, -1]), IAE, r"Slice: Expected size\[0\] in \[0, 2\], but got -2"),
    (lambda: tf.slice(x3(), [0, 1], [1, 2]), IAE,
     r"Slice: Expected begin and size arguments to be 1-D tensors of size 3, but got shapes \[2\] "
     r"and \[2\] instead"),
    (lambda: tf.slice(x3(), [0.0], [1.0]), TypeError, "Slice: begin must hold integers"),
    # strided_slice
    (lambda: tf.strided_slice(x3(), [5], [6], shrink_axis_mask=1), IAE,
     "StridedSlice: slice index 5 of dimension 0 out of bounds"),
    (lambda: tf.strided_slice(x3(), [0, 1], [2], [1, 1]), IAE,
     r"StridedSlice: Expected begin, end, and strides to be 1D equal size tensors, but got shapes "
     r"\[2\], \[1\], and \[2\] instead"),
    (lambda: tf.strided_slice(x3(), [0], [2], [0]), IAE, r"StridedSlice: strides\[0\] must be non-zero"),
    (lambda: tf.strided_slice(x3(), [0, 0], [0, 0], ellipsis_mask=3), IAE,
     "StridedSlice: Multiple ellipses in slice spec not allowed"),
    (lambda: tf.strided_slice(x3(), [1], [0], [-1], shrink_axis_mask=1), IAE,
     "StridedSlice: only stride 1 allowed on non-range indexing"),
    (lambda: tf.strided_slice(x3(), [0, 0, 0, 0], [1, 1, 1, 1]), IAE,
     "Index out of range using input dim 3; input has only 3 dims"),
    (lambda: tf.strided_slice(x3(), [0.0], [1.0]), TypeError, "StridedSlice: begin must hold ints"),
    # gather_nd / scatter
    (lambda: tf.gather_nd(x3(), [[0, 3]]), IAE,
     r"GatherNd: indices\[0\] = \[0, 3\] does not index into param shape \[2,3,4\]"),
    (lambda: tf.gather_nd(x3(), [[0, -1]]), IAE, r"indices\[0\] = \[0, -1\] does not index"),
    (lambda: tf.gather_nd(x3(), [[0, 1, 2, 3]]), IAE,
     "GatherNd: index innermost dimension length must be <= params rank; saw: 4 vs. 3"),
    (lambda: tf.gather_nd(x3(), [[0.0]]), TypeError, "GatherNd: indices must hold integers"),
    (lambda: tf.scatter_nd([[5]], [1], [4]), IAE,
     r"ScatterNd: indices\[0\] = \[5\] does not index into shape \[4\]"),
    (lambda: tf.scatter_nd([[1]], [[1, 2, 3]], [4, 2]), IAE,
     r"ScatterNd: Dimensions \[1,2\) of input\[shape=\[4,2\]\] must match dimensions \[1,2\) of "
     r"updates\[shape=\[1,3\]\]"),
    (lambda: tf.tensor_scatter_nd_update([1, 2, 3, 4], [[4]], [9]), IAE,
     r"TensorScatterUpdate: indices\[0\] = \[4\] does not index into shape \[4\]"),
    (lambda: tf.tensor_scatter_nd_add([1, 2, 3, 4], [[1]], [9, 9]), IAE,
     r"TensorScatterAdd: Outer dimensions of indices and update must match. Indices shape: "
     r"\[1,1\], updates shape:\[2\]"),
    (lambda: tf.tensor_scatter_nd_update([1, 2, 3, 4], [[1]], [9.0]), TypeError,
     r"Cannot convert \[9.0\] to EagerTensor of dtype int32"),
    (lambda: tf.tensor_scatter_nd_sub([1, 2], [[1]], tf.constant([9.0])), IAE,
     "TensorScatterSub: updates must have the dtype of tensor"),
    (lambda: tf.tensor_scatter_nd_update([[1, 2], [3, 4]], [1], [9, 9]), IAE,
     r"TensorScatterUpdate: indices must be a matrix of coordinates \[N, M\] or more, got "
     r"shape \[1\]"),
    (lambda: tf.scatter_nd([1], 5, [4]), IAE, "ScatterNd: indices must be a matrix"),
    # boolean_mask / where
    (lambda: tf.boolean_mask([[1, 2], [3, 4]], [True, False, True]), ValueError,
     r"Shapes \(2,\) and \(3,\) are incompatible"),
    (lambda: tf.boolean_mask([[1, 2], [3, 4]], True), ValueError, "mask cannot be scalar"),
    (lambda: tf.where(tf.constant(True)), IAE, "Where: WhereOp : Unhandled input dimensions: 0"),
    (lambda: tf.where(tf.constant(["a", ""])), TypeError, "Where: condition must be a bool or numeric"),
    # unique / sorting / searchsorted
    (lambda: tf.unique(tf.constant([[1]])), IAE, "Unique: unique expects a 1D vector"),
    (lambda: tf.unique(tf.constant([1]), out_idx=tf.float32), TypeError,
     "Unique: out_idx must be int32 or int64, got float32"),
    (lambda: tf.math.top_k(tf.constant([1.0, 5, 3]), k=4), IAE,
     "TopKV2: input must have at least k columns. Had 3, needed 4"),
    (lambda: tf.math.top_k(tf.constant([1.0, 5, 3]), k=-1), IAE, "TopKV2: Need k >= 0, got -1"),
    (lambda: tf.math.top_k(tf.constant(1.0)), IAE, r"TopKV2: input must be >= 1-D, got shape \[\]"),
    (lambda: tf.math.top_k(tf.constant([True, False])), TypeError,
     "TopKV2: input must be a numeric tensor, got bool"),
    (lambda: tf.sort(tf.constant([3, 1]), direction="descending"), ValueError,
     "Argument `direction` should be one of ASCENDING, DESCENDING. Received: direction=descending"),
    (lambda: tf.argsort(tf.constant([3, 1]), axis=1), ValueError, "axis 1 is out of range"),
    (lambda: tf.sort(tf.constant(["b", "a"])), TypeError, "sort: values must be a numeric tensor"),
    (lambda: tf.searchsorted([1, 3, 5], [3, 6], side="x"), ValueError,
     "Argument `side` must be either 'right' or 'left'. Received: `side` = 'x'"),
    (lambda: tf.searchsorted([1.0, 3, 5], [3, 6]), IAE,
     "LowerBound: values must have the dtype of sorted_sequence"),
    (lambda: tf.searchsorted([[1, 3, 5], [0, 2, 4]], [[3, 6, 0]]), IAE,
     "LowerBound: Leading dim_size of both tensors must match"),
    # linspace / meshgrid / sequence_mask
    (lambda: tf.linspace(0.0, 1.0, 3.0), TypeError, "LinSpace: num must be of type integer"),
    (lambda: tf.linspace(2.0, 5.0, -1), IAE, "LinSpace: Requires num >= 0, got -1"),
    (lambda: tf.linspace(tf.constant(0.0), tf.constant(1.0, tf.float64), 3), ValueError,
     "stop: Tensor conversion requested dtype float32 for Tensor with dtype float64"),
    (lambda: tf.meshgrid([1, 2], [3], indexing="x"), ValueError,
     "Argument `indexing` parameter must be either 'xy' or 'ij', got 'x'"),
    (lambda: tf.meshgrid([1, 2], [3.0]), IAE, "Meshgrid: all inputs must have the same dtype"),
    (lambda: tf.sequence_mask([1, 3], [5]), ValueError,
     "Argument `maxlen` must be scalar for sequence_mask"),
    # einsum / tensordot / bitcast
    (lambda: tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([4, 4])), IAE,
     r"Einsum: Expected dimension 3 for label j but got dimension 4 in the input shaped \[4,4\]"),
    (lambda: tf.einsum("ij,jk->il", tf.ones([2, 3]), tf.ones([3, 4])), ValueError,
     "Output subscripts contain the label l not present in the input subscripts"),
    (lambda: tf.einsum("ij,jk->ik", tf.ones([2, 3])), ValueError,
     'Got 1 inputs for equation "ij,jk->ik", expecting 2'),
    (lambda: tf.einsum("ijk->k", tf.ones([2, 3])), IAE,
     r"Input subscripts ijk do not match the rank 2"),
    (lambda: tf.einsum("i,i->", tf.ones([2]), tf.ones([2], tf.float64)), IAE,
     "Einsum: all inputs must have the same dtype, got float32 and float64"),
    (lambda: tf.einsum("i->", tf.ones([2], tf.bool)), TypeError,
     "Einsum: inputs must be float16, float32, float64, int32 or int64, got bool"),
    (lambda: tf.tensordot(tf.ones([2, 3]), tf.ones([3, 4]), 3), ValueError,
     "`axes` must not be larger than the number of dimensions of tensor"),
    (lambda: tf.tensordot(tf.ones([2, 3]), tf.ones([4, 4]), 1), IAE, "Einsum: Expected dimension 3"),
    (lambda: tf.tensordot(tf.ones([2, 3]), tf.ones([3, 4]), [[1], [0, 1]]), ValueError,
     "Different number of contraction axes `a` and `b`, 1 != 2"),
    (lambda: tf.bitcast(tf.constant([1, 2, 3], tf.uint8), tf.int32), IAE,
     "Bitcast: Cannot bitcast from 4 to 3"),
    (lambda: tf.bitcast(tf.constant(1, tf.int8), tf.int32), IAE, "Cannot bitcast from 6 to 3"),
    (lambda: tf.bitcast(tf.constant([True]), tf.uint8), IAE, "Bitcast: input dtype bool"),
    (lambda: tf.bitcast(tf.constant([1]), tf.string), IAE, "Bitcast: type dtype string"),
]


@pytest.mark.parametrize("fn, error, pattern", EAGER, ids=[str(i) for i in range(len(EAGER))])
def test_eager_errors(fn, error, pattern):
    with pytest.raises(error, match=pattern):
        fn()


TRACED = [
    (lambda x: tf.pad(x, [[0, 0]]), ValueError, "PadV2: The first dimension of paddings"),
    (lambda x: tf.broadcast_to(x, [2, 3, 5]), ValueError,
     r"BroadcastTo: Incompatible shapes: \[2,3,4\] vs. \[2,3,5\]"),
    (lambda x: tf.reverse(x, [0, 0]), ValueError, "ReverseV2: axis 0 specified more than once"),
    (lambda x: tf.roll(x, [1, 2], [0]), ValueError, "Roll: shift and axis must have the same size"),
    (lambda x: tf.repeat(x, [1, 2, 3], axis=0), ValueError, "Repeat: Dimensions 2 and 3"),
    (lambda x: tf.split(x, 3, axis=2), ValueError,
     "Split: Number of ways to split should evenly divide the split dimension"),
    (lambda x: tf.split(x, [5, -1], axis=2), ValueError, "SplitV: Determined shape.*Got: 5"),
    (lambda x: tf.slice(x, [3, 0, 0], [-1, 1, 1]), ValueError, r"Slice: Expected begin\[0\] in \[0, 2\]"),
    (lambda x: tf.strided_slice(x, [0], [1], [0]), ValueError, r"StridedSlice: strides\[0\] must be non-zero"),
    (lambda x: tf.strided_slice(x, [2], [3], shrink_axis_mask=1), ValueError,
     "StridedSlice: slice index 2 of dimension 0 out of bounds"),
    (lambda x: tf.gather_nd(x, [[0, 1, 2, 3]]), ValueError,
     "GatherNd: index innermost dimension length must be <= params rank; saw: 4 vs. 3"),
    (lambda x: tf.tensor_scatter_nd_update(x, [[0]], tf.zeros([1, 3, 5], tf.int32)), ValueError,
     "TensorScatterUpdate: Dimensions"),
    (lambda x: tf.math.top_k(x, 5), ValueError,
     "TopKV2: input must have at least k columns. Had 4, needed 5"),
    (lambda x: tf.unique(x), ValueError, "Unique: unique expects a 1D vector"),
    # TF's shape functions see these constant arguments while tracing (tools/tf_diff.py)
    (lambda x: tf.fill([-1, 2], x[0, 0, 0]), ValueError, r"Fill: dimensions must be >= 0, got \[-1, 2\]"),
    (lambda x: tf.range(0, 5, 0) + x[0, 0, 0], ValueError, "Range: Requires delta != 0: 0"),
    (lambda x: tf.einsum("ij->i", x), ValueError, "Einsum: Input subscripts ij do not match the rank 3"),
    (lambda x: tf.bitcast(x[..., :3], tf.int64), ValueError, "Bitcast: Cannot bitcast from 3 to 9"),
    (lambda x: tf.searchsorted(x, tf.zeros([3, 3, 2], tf.int32)), ValueError,
     "LowerBound: Leading dim_size of both tensors must match"),
]


@pytest.mark.parametrize("fn, error, pattern", TRACED, ids=[str(i) for i in range(len(TRACED))])
def test_errors_while_tracing(fn, error, pattern):
    with pytest.raises(error, match=pattern):
        tf.function(fn).get_concrete_function(tf.TensorSpec([2, 3, 4], tf.int32))


@pytest.mark.parametrize("fn, pattern", [
    (lambda x: tf.pad(x, [[3, 0], [0, 0], [0, 0]], mode="REFLECT"),
     "MirrorPad: paddings must be less than the dimension size: 3, 0 not less than 2"),
    (lambda x: tf.slice(x, [0, 0, 0], [3, 1, 1]), r"Slice: Expected size\[0\] in \[0, 2\]"),
    (lambda x: tf.transpose(x, [0, 0, 1]), "Transpose: perm must be a permutation"),
], ids=["mirror_pad", "slice_size", "transpose_repeated"])
def test_constant_argument_errors_tf_leaves_to_run_time(fn, pattern):
    """TF's shape functions let these through; the kernel raises (tools/tf_diff.py)."""
    f = tf.function(fn)
    f.get_concrete_function(tf.TensorSpec([2, 3, 4], tf.int32))       # traces
    with pytest.raises(IAE, match=pattern):
        f(tf.zeros([2, 3, 4], tf.int32))


def test_unique_with_counts_of_a_matrix_fails_when_the_graph_runs():
    """As TF (tools/tf_diff.py): UniqueWithCounts checks the rank in its kernel only."""
    f = tf.function(lambda x: tf.unique_with_counts(x))
    with pytest.raises(IAE, match="unique expects a 1D vector"):
        f(tf.constant([[1, 2]]))


def test_run_time_errors_in_graphs():
    """Values only known when the graph runs are checked by the kernels."""
    @tf.function
    def f(x, i, n, p):
        return tf.gather_nd(x, i), tf.math.top_k(x[0, 0], n), tf.pad(x, tf.stack([p] * 3))

    x, i, n, p = tf.constant(X3), tf.constant([[0, 1]]), tf.constant(2), tf.constant([0, 1])
    f(x, i, n, p)
    with pytest.raises(IAE, match=r"GatherNd: indices\[0\] = \[0, 7\] does not index"):
        f(x, tf.constant([[0, 7]]), n, p)
    with pytest.raises(IAE, match="TopKV2: input must have at least k columns. Had 4, needed 9"):
        f(x, i, tf.constant(9), p)
    with pytest.raises(IAE, match="PadV2: Paddings must be non-negative: -1 1"):
        f(x, i, n, tf.constant([-1, 1]))
