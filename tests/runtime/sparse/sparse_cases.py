"""The cases of tests/runtime/sparse/test_sparse.py (tf.sparse, tf.sets): each builds its inputs with the
module it is given (`tf`: TensorFlow when tools/record_sparse.py records,
`runtime` when the test replays) and returns a SparseTensor, a tensor, or a
list/tuple of them. TF 2.21's results are in tests/data/sparse_ops.json.
"""


def _sp(tf, dtype=None):
    values = [1.0, -2.0, 3.0, 4.0] if dtype is None else tf.constant([1, -2, 3, 4], dtype)
    return tf.sparse.SparseTensor([[0, 1], [1, 0], [1, 2], [2, 3]], values, [3, 4])


def _sp3(tf):
    return tf.sparse.SparseTensor([[0, 0, 1], [0, 1, 0], [1, 0, 2], [1, 1, 1]],
                                  [1.0, 2.0, 3.0, 4.0], [2, 2, 3])


def _empty(tf):
    return tf.sparse.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0]), [3, 4])


def _unordered(tf):
    return tf.sparse.SparseTensor([[2, 3], [0, 1], [1, 2]], [4.0, 1.0, 3.0], [3, 4])


def _dup(tf):
    return tf.sparse.SparseTensor([[0, 1], [0, 1]], [1.0, 2.0], [3, 4])


def _sets_ab(tf):
    return tf.constant([[1, 2, 2, 0], [3, 3, 4, 5]]), tf.constant([[2, 7], [5, 3]])


def _sets_sp(tf):
    return tf.sparse.SparseTensor([[0, 0], [0, 1], [1, 0]], [2, 9, 3], [2, 3])


def _grad(tf, fn, *xs):
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = fn(*xs)
    return [y] + list(tape.gradient(y, xs))


CASES = {
    # construction, special points
    "construct": lambda tf: _sp(tf),
    "construct_int": lambda tf: tf.sparse.SparseTensor([[0], [2]], [7, 8], [5]),
    "construct_string": lambda tf: tf.sparse.SparseTensor([[0, 0]], ["a"], [1, 1]),
    "construct_empty": lambda tf: _empty(tf),
    "construct_zero_shape": lambda tf: tf.sparse.SparseTensor(tf.zeros([0, 2], tf.int64),
                                                              tf.zeros([0]), [0, 4]),
    "bad_indices_rank": lambda tf: tf.sparse.SparseTensor([0], [1], [3]),
    "bad_values_rank": lambda tf: tf.sparse.SparseTensor([[0]], [[1]], [3]),
    "bad_count": lambda tf: tf.sparse.SparseTensor([[0], [1]], [1], [3]),
    "bad_rank": lambda tf: tf.sparse.SparseTensor([[0, 1]], [1], [3]),
    "with_values": lambda tf: _sp(tf).with_values([5, 6, 7, 8]),
    "from_value": lambda tf: tf.sparse.SparseTensor.from_value(_sp(tf)),
    # to_dense / from_dense
    "to_dense": lambda tf: tf.sparse.to_dense(_sp(tf)),
    "to_dense_default": lambda tf: tf.sparse.to_dense(_sp(tf), default_value=9.0),
    "to_dense_empty": lambda tf: tf.sparse.to_dense(_empty(tf)),
    "to_dense_string": lambda tf: tf.sparse.to_dense(
        tf.sparse.SparseTensor([[0, 1]], ["x"], [2, 2])),
    "to_dense_unordered": lambda tf: tf.sparse.to_dense(_unordered(tf)),
    "to_dense_unordered_novalidate": lambda tf: tf.sparse.to_dense(
        _unordered(tf), validate_indices=False),
    "to_dense_dup": lambda tf: tf.sparse.to_dense(_dup(tf)),
    "to_dense_out_of_bounds": lambda tf: tf.sparse.to_dense(
        tf.sparse.SparseTensor([[0, 5]], [1.0], [3, 4])),
    "from_dense": lambda tf: tf.sparse.from_dense(tf.constant([[0, 1, 0], [2, 0, 3]])),
    "from_dense_float": lambda tf: tf.sparse.from_dense(tf.constant([0.0, -0.0, 1.5, 0.0])),
    "from_dense_string": lambda tf: tf.sparse.from_dense(tf.constant(["", "a", ""])),
    "from_dense_zeros": lambda tf: tf.sparse.from_dense(tf.zeros([2, 2])),
    "roundtrip": lambda tf: tf.sparse.to_dense(tf.sparse.from_dense(
        tf.constant([[[1, 0], [0, 2]], [[0, 0], [3, 0]]]))),
    # reorder, reshape, slice, retain, reset_shape
    "reorder": lambda tf: tf.sparse.reorder(_unordered(tf)),
    "reorder_3d": lambda tf: tf.sparse.reorder(tf.sparse.SparseTensor(
        [[1, 0, 0], [0, 1, 1], [0, 1, 0]], [1, 2, 3], [2, 2, 2])),
    "reshape": lambda tf: tf.sparse.reshape(_sp(tf), [2, 6]),
    "reshape_infer": lambda tf: tf.sparse.reshape(_sp(tf), [-1, 3, 2]),
    "reshape_bad": lambda tf: tf.sparse.reshape(_sp(tf), [5, 3]),
    "slice": lambda tf: tf.sparse.slice(_sp(tf), [1, 0], [2, 3]),
    "slice_clip": lambda tf: tf.sparse.slice(_sp(tf), [1, 2], [10, 10]),
    "retain": lambda tf: tf.sparse.retain(_sp(tf), [True, False, True, False]),
    "reset_shape": lambda tf: tf.sparse.reset_shape(_sp(tf)),
    "reset_shape_new": lambda tf: tf.sparse.reset_shape(_sp(tf), [5, 6]),
    "reset_shape_smaller": lambda tf: tf.sparse.reset_shape(_sp(tf), [2, 6]),
    "reset_shape_empty": lambda tf: tf.sparse.reset_shape(_empty(tf)),
    # add
    "add_sparse": lambda tf: tf.sparse.add(_sp(tf), tf.sparse.SparseTensor(
        [[0, 0], [1, 0], [2, 3]], [5.0, 2.0, 1.0], [3, 4])),
    "add_threshold": lambda tf: tf.sparse.add(_sp(tf), tf.sparse.SparseTensor(
        [[0, 0], [1, 0], [2, 3]], [5.0, 2.5, 1.0], [3, 4]), threshold=1.0),
    "add_dense": lambda tf: tf.sparse.add(_sp(tf), tf.ones([3, 4])),
    "add_dense_first": lambda tf: tf.sparse.add(tf.ones([3, 4]), _sp(tf)),
    "add_dense_dup": lambda tf: tf.sparse.add(_dup(tf), tf.zeros([3, 4])),
    "add_shape_mismatch": lambda tf: tf.sparse.add(_sp(tf), tf.sparse.SparseTensor(
        [[0, 0]], [1.0], [3, 5])),
    "add_empty": lambda tf: tf.sparse.add(_empty(tf), _empty(tf)),
    # concat
    "concat0": lambda tf: tf.sparse.concat(0, [_sp(tf), _sp(tf)]),
    "concat1": lambda tf: tf.sparse.concat(1, [_sp(tf), tf.sparse.SparseTensor(
        [[0, 0], [2, 1]], [7.0, 8.0], [3, 2])]),
    "concat_expand": lambda tf: tf.sparse.concat(1, [_sp(tf), tf.sparse.SparseTensor(
        [[0, 0], [4, 1]], [7.0, 8.0], [5, 2])], expand_nonconcat_dims=True),
    "concat_mismatch": lambda tf: tf.sparse.concat(1, [_sp(tf), tf.sparse.SparseTensor(
        [[0, 0]], [7.0], [5, 2])]),
    "concat_neg_axis": lambda tf: tf.sparse.concat(-1, [_sp3(tf), _sp3(tf)]),
    # reductions
    "reduce_sum_all": lambda tf: tf.sparse.reduce_sum(_sp(tf)),
    "reduce_sum_0": lambda tf: tf.sparse.reduce_sum(_sp(tf), axis=0),
    "reduce_sum_1_keep": lambda tf: tf.sparse.reduce_sum(_sp(tf), axis=1, keepdims=True),
    "reduce_sum_neg": lambda tf: tf.sparse.reduce_sum(_sp3(tf), axis=[-1, 0]),
    "reduce_sum_sparse": lambda tf: tf.sparse.reduce_sum(_sp(tf), axis=1,
                                                         output_is_sparse=True),
    "reduce_sum_sparse_keep": lambda tf: tf.sparse.reduce_sum(
        _sp3(tf), axis=1, keepdims=True, output_is_sparse=True),
    "reduce_sum_dup": lambda tf: tf.sparse.reduce_sum(_dup(tf), axis=1),
    "reduce_sum_empty": lambda tf: tf.sparse.reduce_sum(_empty(tf), axis=0),
    "reduce_max_all": lambda tf: tf.sparse.reduce_max(_sp(tf)),
    "reduce_max_1": lambda tf: tf.sparse.reduce_max(_sp(tf), axis=1),
    "reduce_max_neg_only": lambda tf: tf.sparse.reduce_max(tf.sparse.SparseTensor(
        [[0, 0], [1, 0], [1, 1]], [-7.0, 4.0, 3.0], [3, 2]), axis=1),
    "reduce_max_int": lambda tf: tf.sparse.reduce_max(_sp(tf, tf.int32), axis=0),
    "reduce_max_sparse": lambda tf: tf.sparse.reduce_max(_sp(tf), axis=0,
                                                         output_is_sparse=True),
    "reduce_bad_axis": lambda tf: tf.sparse.reduce_sum(_sp(tf), axis=2),
    # matmul
    "matmul": lambda tf: tf.sparse.sparse_dense_matmul(
        _sp(tf), tf.reshape(tf.range(8, dtype=tf.float32), [4, 2])),
    "matmul_adj_a": lambda tf: tf.sparse.sparse_dense_matmul(
        _sp(tf), tf.reshape(tf.range(6, dtype=tf.float32), [3, 2]), adjoint_a=True),
    "matmul_adj_b": lambda tf: tf.sparse.sparse_dense_matmul(
        _sp(tf), tf.reshape(tf.range(8, dtype=tf.float32), [2, 4]), adjoint_b=True),
    "matmul_adj_both": lambda tf: tf.sparse.sparse_dense_matmul(
        _sp(tf), tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]), adjoint_a=True,
        adjoint_b=True),
    "matmul_dense_sparse": lambda tf: tf.sparse.sparse_dense_matmul(
        tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]), _sp(tf)),
    "matmul_unordered_dup": lambda tf: tf.sparse.sparse_dense_matmul(
        tf.sparse.SparseTensor([[1, 0], [0, 0], [1, 0]], [1.0, 2.0, 3.0], [2, 2]),
        tf.constant([[1.0, 2.0], [3.0, 4.0]])),
    "matmul_bad_inner": lambda tf: tf.sparse.sparse_dense_matmul(_sp(tf), tf.ones([3, 2])),
    "matmul_empty": lambda tf: tf.sparse.sparse_dense_matmul(_empty(tf), tf.ones([4, 2])),
    # elementwise dispatch
    "mul_dense": lambda tf: _sp(tf) * tf.reshape(tf.range(12, dtype=tf.float32), [3, 4]),
    "mul_broadcast": lambda tf: _sp(tf) * tf.constant([1.0, 2.0, 3.0, 4.0]),
    "mul_scalar": lambda tf: _sp(tf) * 2.0,
    "dense_mul_sparse": lambda tf: tf.fill([3, 4], 3.0) * _sp(tf),
    "div_scalar": lambda tf: _sp(tf) / 2.0,
    "divide_fn": lambda tf: tf.math.divide(_sp(tf), 4.0),
    "div_int": lambda tf: _sp(tf, tf.int32) / 2,
    "div_int16_dense": lambda tf: _sp(tf, tf.int16) / tf.constant([1, 2, 4, 8], tf.int16),
    "div_dense_with_zero": lambda tf: _sp(tf) / tf.constant([1.0, 0.0, 2.0, 4.0]),
    "mul_dense_higher_rank": lambda tf: tf.sparse.SparseTensor([[0], [1]], [-3.0, 7.0], [3])
    * tf.ones([2, 3]),
    "abs": lambda tf: tf.abs(_sp(tf)),
    "negative": lambda tf: tf.math.negative(_sp(tf)),
    "square": lambda tf: tf.math.square(_sp(tf)),
    "sign": lambda tf: tf.math.sign(_sp(tf)),
    "tanh": lambda tf: tf.math.tanh(_sp(tf)),
    "cast": lambda tf: tf.cast(_sp(tf), tf.int32),
    "identity": lambda tf: tf.identity(_sp(tf)),
    "cos_refused": lambda tf: tf.math.cos(_sp(tf)),
    "multiply_fn_refused": lambda tf: tf.math.multiply(_sp(tf), tf.ones([3, 4])),
    "add_fn_refused": lambda tf: tf.math.add(tf.ones([3, 4]), _sp(tf)),
    "reduce_sum_dense_refused": lambda tf: tf.reduce_sum(_sp(tf)),
    "shape": lambda tf: tf.shape(_sp(tf)),
    "shape64": lambda tf: tf.shape(_sp(tf), out_type=tf.int64),
    "size": lambda tf: tf.size(_sp(tf)),
    "rank": lambda tf: tf.rank(_sp(tf)),
    # the rest of tf.sparse
    "fill_empty_rows": lambda tf: tf.sparse.fill_empty_rows(tf.sparse.SparseTensor(
        [[1, 0], [1, 2], [3, 1]], [1.0, 2.0, 3.0], [5, 3]), -1.0),
    "fill_empty_rows_unordered": lambda tf: tf.sparse.fill_empty_rows(
        _unordered(tf), 0.0),
    "fill_empty_rows_empty": lambda tf: tf.sparse.fill_empty_rows(_empty(tf), 7.0),
    "split0": lambda tf: tf.sparse.split(sp_input=_sp(tf), num_split=2, axis=0),
    "split1": lambda tf: tf.sparse.split(sp_input=_sp(tf), num_split=3, axis=1),
    "transpose": lambda tf: tf.sparse.transpose(_sp(tf)),
    "transpose_perm": lambda tf: tf.sparse.transpose(_sp3(tf), [2, 0, 1]),
    "expand_dims0": lambda tf: tf.sparse.expand_dims(_sp(tf), 0),
    "expand_dims_last": lambda tf: tf.sparse.expand_dims(_sp(tf), -1),
    "eye": lambda tf: tf.sparse.eye(3),
    "eye_rect": lambda tf: tf.sparse.eye(2, 4, dtype=tf.int32),
    "maximum": lambda tf: tf.sparse.maximum(_sp(tf), tf.sparse.SparseTensor(
        [[0, 0], [1, 0], [2, 3]], [-5.0, 2.0, 1.0], [3, 4])),
    "minimum": lambda tf: tf.sparse.minimum(_sp(tf), tf.sparse.SparseTensor(
        [[0, 0], [1, 0], [2, 3]], [-5.0, 2.0, 1.0], [3, 4])),
    "softmax": lambda tf: tf.sparse.softmax(_sp(tf)),
    "softmax_3d": lambda tf: tf.sparse.softmax(_sp3(tf)),
    "to_indicator": lambda tf: tf.sparse.to_indicator(tf.sparse.SparseTensor(
        [[0, 0], [0, 1], [2, 0]], tf.constant([3, 1, 4], tf.int64), [3, 2]), 5),
    "map_values": lambda tf: tf.sparse.map_values(tf.math.multiply, _sp(tf), _sp(tf)),
    "map_values_scalar": lambda tf: tf.sparse.map_values(tf.add, _sp(tf), 10.0),
    "bincount": lambda tf: tf.sparse.bincount(tf.constant([1, 1, 3, 5]), minlength=8),
    "bincount_weights": lambda tf: tf.sparse.bincount(
        tf.constant([1, 1, 3, 5]), weights=tf.constant([0.5, 1.0, 2.0, 3.0])),
    "bincount_axis": lambda tf: tf.sparse.bincount(tf.constant([[1, 1, 3], [2, 5, 5]]),
                                                   axis=-1),
    "bincount_binary_max": lambda tf: tf.sparse.bincount(
        tf.constant([1, 1, 3, 5]), maxlength=4, binary_output=True),
    "bincount_sparse": lambda tf: tf.sparse.bincount(tf.sparse.SparseTensor(
        [[0, 0], [0, 1], [1, 0]], tf.constant([2, 2, 4]), [2, 3]), axis=-1),
    "segment_sum": lambda tf: tf.sparse.segment_sum(
        tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), [0, 2, 1, 2], [0, 0, 1, 3]),
    "segment_mean": lambda tf: tf.sparse.segment_mean(
        tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), [0, 2, 1], [0, 0, 2]),
    "segment_sqrt_n": lambda tf: tf.sparse.segment_sqrt_n(
        tf.constant([1.0, 2.0, 3.0]), [0, 1, 2, 2], [0, 0, 0, 1]),
    "segment_num": lambda tf: tf.sparse.segment_sum(
        tf.constant([1.0, 2.0, 3.0]), [0, 1], [1, 1], num_segments=4),
    "cross": lambda tf: tf.sparse.cross([tf.sparse.SparseTensor(
        [[0, 0], [1, 0], [1, 1]], ["a", "b", "c"], [2, 2]), tf.constant([["d"], ["e"]])]),
    "cross_sep_int": lambda tf: tf.sparse.cross([tf.constant([[1, 2]], tf.int64),
                                                 tf.constant([["x", "y"]])], separator="|"),
    "cross_hashed": lambda tf: tf.sparse.cross_hashed([tf.sparse.SparseTensor(
        [[0, 0], [1, 0], [1, 1]], ["a", "b", "c"], [2, 2]), tf.constant([["d"], ["e"]])]),
    "cross_hashed_buckets": lambda tf: tf.sparse.cross_hashed(
        [tf.constant([["a", "b"]]), tf.constant([[7]], tf.int64)], num_buckets=100,
        hash_key=5),
    "sampled_addmm": lambda tf: tf.sparse.sampled_addmm(
        tf.constant([[0, 0], [1, 1]], tf.int64), tf.constant([1.0, 2.0]),
        tf.constant([2, 2]), tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]),
        tf.ones([3, 2]), beta=0.5, alpha=2.0),
    "mask": lambda tf: tf.sparse.mask(tf.IndexedSlices(
        tf.constant([[1.0], [2.0], [3.0]]), tf.constant([0, 4, 7]), tf.constant([10, 1])),
        [4]).values,
    # orders, dtypes and errors at the edges
    "edge_int32_indices": lambda tf: tf.sparse.SparseTensor(
        tf.constant([[0, 1]], tf.int32), [1.0], [2, 2]),
    "edge_bool_to_dense": lambda tf: tf.sparse.to_dense(
        tf.sparse.SparseTensor([[0, 1]], [True], [2, 2])),
    "edge_int_reduce": lambda tf: tf.sparse.reduce_sum(
        tf.sparse.SparseTensor([[0, 1], [1, 1]], [3, 4], [2, 2]), axis=0),
    "edge_int_matmul": lambda tf: tf.sparse.sparse_dense_matmul(
        tf.sparse.SparseTensor([[0, 1]], [3], [2, 2]), tf.constant([[1, 2], [3, 4]])),
    "edge_1d_to_dense": lambda tf: tf.sparse.to_dense(tf.sparse.SparseTensor([[3]], [5], [6])),
    "edge_concat_unordered0": lambda tf: tf.sparse.concat(0, [_unordered(tf), _sp(tf)]),
    "edge_concat_unordered1": lambda tf: tf.sparse.concat(1, [_unordered(tf), _sp(tf)]),
    "edge_slice_unordered": lambda tf: tf.sparse.slice(_unordered(tf), [0, 0], [2, 4]),
    "edge_split_unordered": lambda tf: tf.sparse.split(sp_input=_unordered(tf), num_split=2,
                                                       axis=1),
    "edge_reshape_unordered": lambda tf: tf.sparse.reshape(_unordered(tf), [12]),
    "edge_add_unordered": lambda tf: tf.sparse.add(_unordered(tf), _sp(tf)),
    "edge_maximum_unordered": lambda tf: tf.sparse.maximum(_unordered(tf), _sp(tf)),
    "edge_softmax_unordered": lambda tf: tf.sparse.softmax(_unordered(tf)),
    "edge_reduce_max_unordered": lambda tf: tf.sparse.reduce_max(
        _unordered(tf), axis=1, output_is_sparse=True),
    "edge_transpose_1d": lambda tf: tf.sparse.transpose(tf.sparse.SparseTensor([[1]], [1], [3])),
    "edge_expand_dims_1d": lambda tf: tf.sparse.expand_dims(
        tf.sparse.SparseTensor([[1]], [1], [3])),
    "edge_eye0": lambda tf: tf.sparse.eye(0),
    "edge_split_bad": lambda tf: tf.sparse.split(sp_input=_sp(tf), num_split=5, axis=0),
    "edge_retain_bad": lambda tf: tf.sparse.retain(_sp(tf), [True]),
    "edge_to_indicator_float": lambda tf: tf.sparse.to_indicator(_sp(tf), 3),
    "edge_to_indicator_float_ok": lambda tf: tf.sparse.to_indicator(
        tf.sparse.SparseTensor([[0, 0], [1, 0]], [2.0, 0.0], [2, 1]), 3),
    "edge_map_values_other_indices": lambda tf: tf.sparse.map_values(
        tf.add, _sp(tf), _unordered(tf)),
    "edge_fill_empty_string": lambda tf: tf.sparse.fill_empty_rows(
        tf.sparse.SparseTensor([[1, 0]], ["a"], [2, 2]), "z"),
    "edge_add_int_cancel": lambda tf: tf.sparse.add(tf.sparse.SparseTensor([[0]], [1], [2]),
                                                    tf.sparse.SparseTensor([[0]], [-1], [2])),
    "edge_add_dtypes": lambda tf: tf.sparse.add(_sp(tf), tf.sparse.SparseTensor(
        [[0, 0]], [1], [3, 4])),
    "edge_reorder_dup": lambda tf: tf.sparse.reorder(tf.sparse.SparseTensor(
        [[1], [0], [1]], [1, 2, 3], [2])),
    "edge_segment_unsorted": lambda tf: tf.sparse.segment_sum(tf.constant([1.0, 2.0]), [0, 1],
                                                              [1, 0]),
    "edge_bincount_negative": lambda tf: tf.sparse.bincount(tf.constant([-1, 2])),
    "edge_bincount_empty": lambda tf: tf.sparse.bincount(tf.constant([], tf.int32)),
    "edge_from_dense_scalar": lambda tf: tf.sparse.from_dense(tf.constant(3)),
    "edge_reduce_sum_3d_keep": lambda tf: tf.sparse.reduce_sum(tf.sparse.SparseTensor(
        [[0, 0, 1], [1, 1, 0]], [1.0, 2.0], [2, 2, 2]), axis=[0, 2], keepdims=True),
    "edge_minimum_disjoint": lambda tf: tf.sparse.minimum(
        tf.sparse.SparseTensor([[0]], [3.0], [2]), tf.sparse.SparseTensor([[1]], [-3.0], [2])),
    "edge_matmul_3d": lambda tf: tf.sparse.sparse_dense_matmul(
        tf.sparse.SparseTensor([[0, 0, 0]], [1.0], [1, 2, 2]), tf.ones([2, 2])),
    # tf.sets
    "sets_size": lambda tf: tf.sets.size(_sets_sp(tf)),
    "sets_size_dense": lambda tf: tf.sets.size(tf.constant([[1, 2]])),
    "sets_size_unordered": lambda tf: tf.sets.size(tf.sparse.SparseTensor(
        [[1, 0], [0, 0]], [1, 2], [2, 2])),
    "sets_size_novalidate": lambda tf: tf.sets.size(tf.sparse.SparseTensor(
        [[1, 0], [0, 0]], [1, 2], [2, 2]), validate_indices=False),
    "sets_intersection": lambda tf: tf.sets.intersection(*_sets_ab(tf)),
    "sets_union": lambda tf: tf.sets.union(*_sets_ab(tf)),
    "sets_difference": lambda tf: tf.sets.difference(*_sets_ab(tf)),
    "sets_difference_b": lambda tf: tf.sets.difference(*_sets_ab(tf), aminusb=False),
    "sets_intersection_sparse": lambda tf: tf.sets.intersection(_sets_ab(tf)[0],
                                                                _sets_sp(tf)),
    "sets_difference_dense_sparse": lambda tf: tf.sets.difference(_sets_ab(tf)[0],
                                                                  _sets_sp(tf)),
    "sets_difference_sparse_dense": lambda tf: tf.sets.difference(_sets_sp(tf),
                                                                  _sets_ab(tf)[0]),
    "sets_union_strings": lambda tf: tf.sets.union(tf.constant([["a", "b"]]),
                                                   tf.constant([["c", "a"]])),
    "sets_intersection_3d": lambda tf: tf.sets.intersection(
        tf.constant([[[1, 2], [3, 4]]]), tf.constant([[[2, 2], [4, 5]]])),
    "sets_intersection_empty": lambda tf: tf.sets.intersection(tf.constant([[1], [2]]),
                                                               tf.constant([[3], [4]])),
    "sets_float": lambda tf: tf.sets.union(tf.constant([[1.0]]), tf.constant([[2.0]])),
    "sets_dtype_mismatch": lambda tf: tf.sets.union(tf.constant([[1]]),
                                                    tf.constant([[1]], tf.int64)),
    "sets_rank1": lambda tf: tf.sets.union(tf.constant([1]), tf.constant([1])),
    # gradients
    "grad_to_dense": lambda tf: _grad(tf, lambda v: tf.reduce_sum(tf.sparse.to_dense(
        tf.sparse.SparseTensor([[0, 1], [1, 0]], v, [2, 2])) * tf.constant(
            [[1.0, 2.0], [3.0, 4.0]])), [5.0, 6.0]),
    "grad_matmul": lambda tf: _grad(tf, lambda v, b: tf.reduce_sum(
        tf.sparse.sparse_dense_matmul(tf.sparse.SparseTensor(
            [[0, 1], [1, 0], [1, 2]], v, [2, 3]), b) * tf.constant([[1.0, 2.0], [3.0, 4.0]])),
        [1.0, 2.0, 3.0], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
    "grad_matmul_adjoint": lambda tf: _grad(tf, lambda v, b: tf.reduce_sum(
        tf.sparse.sparse_dense_matmul(tf.sparse.SparseTensor(
            [[0, 1], [1, 0], [1, 2]], v, [2, 3]), b, adjoint_a=True, adjoint_b=True) ** 2),
        [1.0, 2.0, 3.0], [[1.0, 2.0], [3.0, 4.0]]),
    "grad_reduce_sum": lambda tf: _grad(tf, lambda v: tf.reduce_sum(tf.sparse.reduce_sum(
        tf.sparse.SparseTensor([[0, 1], [1, 0], [1, 2]], v, [2, 3]), axis=1) *
        tf.constant([1.0, 10.0])), [1.0, 2.0, 3.0]),
    "grad_add": lambda tf: _grad(tf, lambda a, b: tf.reduce_sum(tf.sparse.add(
        tf.sparse.SparseTensor([[0, 0], [1, 1]], a, [2, 2]),
        tf.sparse.SparseTensor([[0, 0], [1, 0]], b, [2, 2])).values * tf.constant(
            [1.0, 2.0, 3.0])), [1.0, 2.0], [3.0, 4.0]),
    "grad_add_dense": lambda tf: _grad(tf, lambda a, d: tf.reduce_sum(tf.sparse.add(
        tf.sparse.SparseTensor([[0, 0], [1, 1]], a, [2, 2]), d) ** 2), [1.0, 2.0],
        [[1.0, 1.0], [1.0, 1.0]]),
    "grad_softmax": lambda tf: _grad(tf, lambda v: tf.reduce_sum(tf.sparse.softmax(
        tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1]], v, [2, 3])).values *
        tf.constant([1.0, 3.0, 5.0])), [0.5, 1.5, 2.0]),
    "grad_mul_dense": lambda tf: _grad(tf, lambda v, d: tf.reduce_sum(
        (tf.sparse.SparseTensor([[0, 0], [1, 1]], v, [2, 2]) * d).values), [2.0, 3.0],
        [5.0, 7.0]),
    "grad_reorder": lambda tf: _grad(tf, lambda v: tf.reduce_sum(tf.sparse.reorder(
        tf.sparse.SparseTensor([[1, 0], [0, 0]], v, [2, 2])).values * tf.constant(
            [1.0, 2.0])), [3.0, 4.0]),
    "grad_slice": lambda tf: _grad(tf, lambda v: tf.reduce_sum(tf.sparse.slice(
        tf.sparse.SparseTensor([[0, 0], [1, 1], [2, 2]], v, [3, 3]), [1, 1], [2, 2]).values
        ** 2), [1.0, 2.0, 3.0]),
    "grad_fill_empty_rows": lambda tf: _grad(tf, lambda v: tf.reduce_sum(
        tf.sparse.fill_empty_rows(tf.sparse.SparseTensor([[1, 0]], v, [3, 2]),
                                  0.0)[0].values * tf.constant([1.0, 2.0, 3.0])), [4.0]),
    "grad_segment_mean": lambda tf: _grad(tf, lambda d: tf.reduce_sum(
        tf.sparse.segment_mean(d, [0, 2, 1], [0, 0, 1]) * tf.constant([[1.0], [2.0]])),
        [[1.0], [2.0], [3.0]]),
}


def serialize(value):
    """A result as JSON-able data: {"sparse": ...}, {"dense": ...}, lists."""
    if isinstance(value, (list, tuple)):
        return [serialize(v) for v in value]
    if hasattr(value, "dense_shape") and hasattr(value, "indices") and \
            not hasattr(value, "numpy"):
        return {"sparse": [_plain(value.indices), _plain(value.values),
                           _plain(value.dense_shape)], "dtype": value.dtype.name}
    return {"dense": _plain(value), "dtype": value.dtype.name,
            "shape": list(value.numpy().shape)}


def _plain(t):
    import numpy as np
    v = t.numpy()
    if v.dtype == object or v.dtype.kind == "S":
        return np.vectorize(lambda b: b.decode("latin-1"), otypes=[object])(v).tolist() \
            if v.size else v.reshape(v.shape).tolist()
    if v.dtype.kind == "f":
        return [float(x) for x in v.reshape(-1)] and np.round(v.astype(np.float64), 6).tolist()
    return v.tolist()
